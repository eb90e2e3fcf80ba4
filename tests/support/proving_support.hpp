// Shared by the prover and engine tests (CPU and GPU): a development key for a
// native circuit, engine sources that synthesize a circuit, and the check that
// two prove_start results are the same points.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <set>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "cuzk/circuit/examples/hash_chain.hpp"
#include "cuzk/circuit/examples/partition.hpp"
#include "cuzk/circuit/matrices.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"

namespace cuzk::test {

// A development key for the shape of a native circuit, prepared for proving.
template <class E, class C>
groth16::SharedKey<E> dev_key(const C& shape_of) {
  return groth16::PreparedKey<E>::make(
      groth16::share(groth16::dev_setup(circuit::constraint_matrices(shape_of), groth16::ToxicWaste<E>::draw())));
}

// An engine source that synthesizes make() into the engine's spans (w only,
// where the backend computes a, b, c itself).
template <class E, class Make>
engine::Synthesize<E> synthesis_source(Make make) {
  using Fr = typename E::Fr;
  return [make](std::span<Fr> w, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
    circuit::synthesize_witness(make(), w, a, b, c);
  };
}

// The CPU prover's MSM results for an assignment (which it consumes): what
// the GPU's are held to.
template <class E>
groth16::PendingProof<E> cpu_pending(const groth16::PreparedKey<E>& key, circuit::Assignment<typename E::Fr> in) {
  using Fr = typename E::Fr;
  return groth16::prove_start(key, std::span<const Fr>(in.w), std::span<Fr>(in.a), std::span<Fr>(in.b),
                              std::span<Fr>(in.c));
}

// Submits a job and gathers what the engine reports of it: the future holds
// one result per partition, in partition order, once the last is reported
// (at once for a job of none). also, when set, sees each result first.
template <class E>
std::future<std::vector<engine::PartitionResult<E>>> submit_all(
    engine::Engine<E>& engine, std::type_identity_t<groth16::SharedKey<E>> key,
    std::vector<engine::Synthesize<E>> partitions, engine::JobOptions options = {},
    std::type_identity_t<std::function<void(const engine::PartitionResult<E>&)>> also = {},
    std::vector<groth16::Randomness<typename E::Fr>> randomness = {}) {
  struct Gathered {
    std::mutex mu;
    std::vector<engine::PartitionResult<E>> results;
    size_t left = 0;
    std::promise<std::vector<engine::PartitionResult<E>>> done;
  };
  auto g = std::make_shared<Gathered>();
  g->results.resize(partitions.size());
  g->left = partitions.size();
  auto future = g->done.get_future();
  if (partitions.empty()) g->done.set_value({});
  engine.submit(
      std::move(key), std::move(partitions), std::move(options),
      [g, also = std::move(also)](const engine::PartitionResult<E>& r) {
        if (also) also(r);
        std::lock_guard lock(g->mu);
        g->results[r.partition] = r;
        if (--g->left == 0) g->done.set_value(std::move(g->results));
      },
      std::move(randomness));
  return future;
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

// Two keys' jobs through one engine at once: `jobs` jobs of `parts`
// partitions, even jobs HashChain and odd ones Partition (both of
// `constraints`), partition p of job j the witness of seed 100j + p. Every
// result must come back verified, in its place, with its own witness's public
// signals (synthesized again here to compare). The keys are made here and
// forgotten by the engine before they go.
template <class E>
void check_jobs_over_two_keys(engine::Engine<E>& engine, uint64_t constraints, int jobs, uint32_t parts) {
  using Fr = typename E::Fr;
  using Chain = circuit::HashChain<E>;
  using Part = circuit::Partition<E>;
  const auto chain = dev_key<E>(Chain::for_constraints(constraints, 0));
  const auto part = dev_key<E>(Part::for_constraints(constraints, 0));
  const auto witness = [&](int j, uint64_t p, std::span<Fr> w, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
    const uint64_t seed = 100 * (uint64_t)j + p;
    if (j % 2) circuit::synthesize_witness(Part::for_constraints(constraints, seed), w, a, b, c);
    else circuit::synthesize_witness(Chain::for_constraints(constraints, seed), w, a, b, c);
  };
  std::vector<std::future<std::vector<engine::PartitionResult<E>>>> futures;
  for (int j = 0; j < jobs; ++j) {
    const auto& key = j % 2 ? part : chain;
    std::vector<engine::Synthesize<E>> sources;
    for (uint64_t p = 0; p < parts; ++p)
      sources.push_back([&witness, j, p](std::span<Fr> w, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
        witness(j, p, w, a, b, c);
      });
    futures.push_back(submit_all(engine, key, std::move(sources)));
  }
  std::set<std::string> all_publics;  // the publics' bytes: Fr has no order
  for (int j = 0; j < jobs; ++j) {
    const groth16::PreparedKey<E>& key = j % 2 ? *part : *chain;
    const auto results = futures[j].get();
    ASSERT_EQ(results.size(), parts);
    for (uint32_t p = 0; p < parts; ++p) {
      const auto& r = results[p];
      EXPECT_EQ(r.job, (uint32_t)j);
      EXPECT_EQ(r.partition, p);
      expect_verified(key, r);
      std::vector<Fr> w(key.key().n_vars());
      witness(j, p, w, {}, {}, {});
      EXPECT_EQ(r.publics, std::vector<Fr>(w.begin() + 1, w.begin() + 1 + r.publics.size())) << j << "/" << p;
      all_publics.emplace(reinterpret_cast<const char*>(r.publics.data()), r.publics.size() * sizeof(Fr));
    }
  }
  EXPECT_EQ(all_publics.size(), (size_t)jobs * parts) << "every partition proved its own witness";
  engine.forget(*chain);
  engine.forget(*part);
}

}  // namespace cuzk::test
