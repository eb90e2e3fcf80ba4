// Shared by the prover and engine tests (CPU and GPU): a development key for a
// native circuit, engine sources that synthesize a circuit, and the check that
// two prove_start results are the same points.
#pragma once

#include <gtest/gtest.h>

#include <span>
#include <vector>

#include "cuzk/circuit/matrices.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"

namespace cuzk::test {

// A development key for the shape of a native circuit, prepared for proving.
template <class E>
struct DevKeyed {
  groth16::DevKey<E> dev;
  groth16::PreparedKey<E> key;
  template <class C>
  explicit DevKeyed(const C& shape_of)
      : dev(groth16::dev_setup(circuit::constraint_matrices(shape_of), groth16::ToxicWaste<E>::draw())), key(dev.key) {}
};

// An engine source that synthesizes make() into the engine's spans; where the
// backend computes a, b, c itself (empty spans), into scratch of `rows` each.
template <class E, class Make>
engine::Synthesize<E> synthesis_source(Make make, size_t rows = 0) {
  using Fr = typename E::Fr;
  return [make, rows](std::span<Fr> w, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
    if (!a.empty()) return circuit::synthesize_witness(make(), w, a, b, c);
    std::vector<Fr> s(3 * rows);
    const std::span<Fr> all(s);
    circuit::synthesize_witness(make(), w, all.first(rows), all.subspan(rows, rows), all.subspan(2 * rows, rows));
  };
}

// A partition the engine proved, and whose proof verifies against the key.
template <class E>
void expect_verified(const groth16::PreparedKey<E>& key, const engine::PartitionResult<E>& r) {
  ASSERT_TRUE(r.proof) << "job " << r.job << " partition " << r.partition << ": " << r.error;
  EXPECT_TRUE(groth16::verify<E>(key.vk(), r.publics, *r.proof));
}

// The five MSM results and the public signals.
template <class E>
void expect_same_pending(const groth16::PendingProof<E>& got, const groth16::PendingProof<E>& want) {
  EXPECT_TRUE(got.a == want.a) << "MSM A";
  EXPECT_TRUE(got.b1 == want.b1) << "MSM B1";
  EXPECT_TRUE(got.b2 == want.b2) << "MSM B2";
  EXPECT_TRUE(got.c == want.c) << "MSM C";
  EXPECT_TRUE(got.h == want.h) << "MSM H";
  EXPECT_TRUE(got.publics == want.publics) << "public signals";
}

}  // namespace cuzk::test
