// cuzk check <circuit.r1cs> <witness.wtns> (as `snarkjs wtns check`): whether
// a witness satisfies a circuit, naming the first constraint it breaks
// (service/circuit_check.hpp, which prove --r1cs and prove-batch --r1cs run
// before proving).
#include <cstdio>

#include "commands.hpp"
#include "cuzk/service/circuit_check.hpp"

namespace cuzk::cli {

int check(const std::string& r1cs_path, const std::string& wtns_path) {
  const service::CircuitCheck circuit(r1cs_path);
  circuit.check_witness(wtns_path);
  std::printf("OK: %s satisfies the %u constraints of %s\n", wtns_path.c_str(), circuit.constraints(),
              r1cs_path.c_str());
  return 0;
}

}  // namespace cuzk::cli
