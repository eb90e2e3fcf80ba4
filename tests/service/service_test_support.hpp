// Shared by the service tests: a partition's proof checked against the
// fixture's verification key (snarkjs's), through the JSON a front end would
// hand out.
#pragma once

#include <gtest/gtest.h>

#include <variant>

#include "../io/io_test_support.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/service/proof.hpp"
#include "cuzk/service/service.hpp"

namespace cuzk::service::test_support {

// A fixture's witness.wtns as a partition, named "curve/circuit.wtns".
inline WitnessBytes witness_bytes(const std::string& curve, const std::string& circuit) {
  const test::Bytes file = test::read_bytes(test::fixture(curve, circuit, "witness.wtns"));
  return {std::string(file.begin(), file.end()), curve + "/" + circuit + ".wtns"};
}

template <class E>
void expect_verifies(const PartitionOutcome& p, const std::string& curve, const std::string& circuit) {
  ASSERT_TRUE(p.ok()) << error_kind_name(p.error_kind) << ": " << p.error;
  ASSERT_TRUE(p.proved && std::holds_alternative<Proved<E>>(*p.proved)) << "no proof on " << curve;
  const SnarkjsJson json = snarkjs_json(*p.proved);
  const std::filesystem::path vk = test::fixture(curve, circuit, "vk.json");
  const Verdict verdict = verify_json({io::read_json_document(vk), vk.string()}, {json.publics, "public.json"},
                                      {json.proof, "proof.json"});
  EXPECT_TRUE(verdict.valid) << verdict.publics << " public signals for a key of " << verdict.expected;
}

}  // namespace cuzk::service::test_support
