// Shared by the service tests: a partition's proof checked against the
// fixture's verification key (snarkjs's), through the JSON files a front end
// would write.
#pragma once

#include <gtest/gtest.h>

#include "../io/io_test_support.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/service/service.hpp"

namespace cuzk::service::test_support {

template <class E>
void expect_verifies(const PartitionOutcome& p, const std::string& curve, const std::string& circuit) {
  ASSERT_TRUE(p.ok()) << error_kind_name(p.error_kind) << ": " << p.error;
  test::TempDir dir;
  io::write_json_file(dir / "proof.json", p.proof);
  io::write_json_file(dir / "public.json", p.publics);
  const auto vk = io::read_vk_json<E>(test::fixture(curve, circuit, "vk.json"));
  EXPECT_TRUE(groth16::verify<E>(vk, io::read_public_json<E>(dir / "public.json"),
                                 io::read_proof_json<E>(dir / "proof.json")));
}

}  // namespace cuzk::service::test_support
