// service::CircuitCheck against the fixtures: a circuit describes its own key
// and not another's, its witness satisfies it and comes back decoded, and a
// witness that breaks a constraint, or has the wrong length, is refused with
// the message the commands print.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "../io/io_test_support.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/service/circuit_check.hpp"
#include "cuzk/service/service.hpp"

namespace cuzk::service {
namespace {

using test::Container;
using test::fixture;
using test::TempDir;

// The message of what f throws as Error, or "" when it throws nothing.
template <class Error, class F>
std::string thrown(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(CircuitCheck, ChecksKeysAndWitnessesAgainstTheCircuit) {
  for (const char* curve : test::kCurves) {
    SCOPED_TRACE(curve);
    const CircuitCheck circuit(fixture(curve, "multiplier", "circuit.r1cs"));
    EXPECT_GT(circuit.constraints(), 0u);
    Service svc([] {
      ServiceOptions o;
      o.placement.backend = BackendKind::cpu;
      return o;
    }());
    const KeyInfo own = svc.load_key(fixture(curve, "multiplier", "circuit.zkey"), "own");
    const KeyInfo other = svc.load_key(fixture(curve, "linear", "circuit.zkey"), "other");
    EXPECT_NO_THROW(circuit.check_describes(own));
    EXPECT_NE(thrown<io::FormatError>([&] { circuit.check_describes(other); }).find("is not the circuit of"),
              std::string::npos);

    const auto good = fixture(curve, "multiplier", "witness.wtns");
    const auto witness = circuit.check_witness(good, &own);
    ASSERT_NE(witness, nullptr);
    EXPECT_EQ(witness->size(), own.n_vars);

    TempDir dir;
    Container broken = Container::load(good);
    broken.section(2).data[32] ^= 1;  // signal 1, the output: now out != a * b
    broken.save(dir / "broken.wtns");
    const std::string unsatisfied = thrown<std::runtime_error>([&] { circuit.check_witness(dir / "broken.wtns"); });
    EXPECT_NE(unsatisfied.find("does not satisfy"), std::string::npos) << unsatisfied;
    EXPECT_NE(unsatisfied.find("constraint "), std::string::npos) << unsatisfied;

    const std::string length = thrown<io::FormatError>(
        [&] { circuit.check_witness(fixture(curve, "linear", "witness.wtns"), &own); });
    EXPECT_NE(length.find(own.source), std::string::npos) << length;
  }
}

}  // namespace
}  // namespace cuzk::service
