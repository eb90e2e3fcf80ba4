// A witness checked against its circom circuit (.r1cs) before it is proved,
// as `snarkjs wtns check` does: a zkey stores only A and B, so without the
// circuit a bad witness shows only when the finished proof fails its own
// verification, which cannot say where. `cuzk check` is this check; `cuzk
// prove` and `prove-batch --r1cs` run it before proving here or sending the
// witness to cuzkd.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>

namespace cuzk::io {
class R1cs;      // io/r1cs.hpp
struct Witness;  // io/wtns.hpp
}  // namespace cuzk::io

namespace cuzk::service {

struct KeyInfo;  // service.hpp

class CircuitCheck {
 public:
  // Reads and validates the circuit (io::FormatError naming the file).
  explicit CircuitCheck(const std::filesystem::path& r1cs);
  ~CircuitCheck();
  CircuitCheck(CircuitCheck&&) noexcept;
  CircuitCheck& operator=(CircuitCheck&&) noexcept;

  uint32_t constraints() const;

  // io::FormatError unless this is the circuit of `key`: its curve, signals
  // and public signals.
  void check_describes(const KeyInfo& key) const;

  // Reads the witness file and returns it decoded (what DecodedWitness
  // proves, so that it is read once) when it satisfies every constraint; else
  // a std::runtime_error naming the first that fails, counted from 0. A
  // witness of another curve or length is an io::FormatError naming `key`'s
  // file where one is given, else the circuit's.
  std::shared_ptr<const io::Witness> check_witness(const std::filesystem::path& wtns,
                                                   const KeyInfo* key = nullptr) const;

 private:
  std::unique_ptr<const io::R1cs> circuit_;
};

}  // namespace cuzk::service
