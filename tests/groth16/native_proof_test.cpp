// Native circuits through the whole path: constraint matrices, a development
// key, witness synthesis into a/b/c buffers, prove_start/prove_finish, and the
// verifier, on both curves and both examples; and the two ways a bad witness
// is stopped before it becomes a proof (synthesis reports the constraint, the
// prover refuses a witness for another key).
#include <gtest/gtest.h>

#include "cuzk/circuit/examples/hash_chain.hpp"
#include "cuzk/circuit/examples/partition.hpp"
#include "cuzk/circuit/matrices.hpp"
#include "cuzk/circuit/tamper.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"

namespace cuzk::test {
namespace {

template <class E>
class NativeProof : public ::testing::Test {};
using Curves = ::testing::Types<ec::Bn254, ec::Bls12_381>;
TYPED_TEST_SUITE(NativeProof, Curves);

// Synthesizes `circuit` into fresh buffers and returns the pending proof.
template <class E, class C>
groth16::PendingProof<E> start(const groth16::PreparedKey<E>& key, const C& circuit) {
  using Fr = typename E::Fr;
  auto in = circuit::synthesize_assignment(circuit);
  return groth16::prove_start(key, std::span<const Fr>(in.w), std::span<Fr>(in.a), std::span<Fr>(in.b),
                              std::span<Fr>(in.c));
}

template <class E, class C>
void prove_and_verify(const C& circuit, const C& other_witness) {
  const auto shared = groth16::PreparedKey<E>::make(
      groth16::share(groth16::dev_setup(circuit::constraint_matrices(circuit), groth16::ToxicWaste<E>::draw())));
  const auto& key = *shared;
  ASSERT_EQ(key.key().domain_size(), circuit::domain_size_for(circuit::shape_of(circuit)));

  const auto pending = start(key, circuit);
  const auto proof = groth16::prove_finish(key, pending);
  EXPECT_TRUE(groth16::verify<E>(key.vk(), pending.publics, proof));

  // Another witness of the same shape proves too (the key is the circuit's,
  // not the witness's), and its proof does not verify against the first
  // witness's public inputs.
  const auto pending2 = start(key, other_witness);
  const auto proof2 = groth16::prove_finish(key, pending2);
  EXPECT_TRUE(groth16::verify<E>(key.vk(), pending2.publics, proof2));
  ASSERT_NE(pending.publics, pending2.publics);
  EXPECT_FALSE(groth16::verify<E>(key.vk(), pending.publics, proof2));
}

TYPED_TEST(NativeProof, HashChainProvesAndVerifies) {
  using E = TypeParam;
  prove_and_verify<E>(circuit::HashChain<E>::for_constraints(1 << 11, 1), circuit::HashChain<E>::for_constraints(1 << 11, 2));
}

TYPED_TEST(NativeProof, PartitionProvesAndVerifies) {
  using E = TypeParam;
  prove_and_verify<E>(circuit::Partition<E>::for_constraints(1 << 12, 3), circuit::Partition<E>::for_constraints(1 << 12, 4));
}

TYPED_TEST(NativeProof, UnsatisfiedWitnessIsReportedNotProved) {
  using E = TypeParam;
  const auto chain = circuit::HashChain<E>::for_constraints(1 << 10, 5);
  const auto shared = groth16::PreparedKey<E>::make(
      groth16::share(groth16::dev_setup(circuit::constraint_matrices(chain), groth16::ToxicWaste<E>::draw())));
  const auto& key = *shared;
  // An intermediate state changed after it was computed breaks the next round.
  EXPECT_THROW(start(key, circuit::Tampered<circuit::HashChain<E>>{chain, 10}), circuit::Unsatisfied);
}

TYPED_TEST(NativeProof, WitnessOfAnotherCircuitIsRefusedByTheProver) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  // A hash chain's witness, padded to the length of a partition key of the
  // same domain: the prover runs, and prove_finish refuses the result.
  const auto chain = circuit::HashChain<E>::for_constraints(1 << 10, 6);
  const auto partition = circuit::Partition<E>::for_constraints(1 << 10, 6);
  const auto shared = groth16::PreparedKey<E>::make(
      groth16::share(groth16::dev_setup(circuit::constraint_matrices(partition), groth16::ToxicWaste<E>::draw())));
  const auto& key = *shared;
  const std::vector<Fr> w = circuit::synthesize_assignment(chain).w;
  // Sized to the partition's key: the chain's witness padded with zeros.
  std::vector<Fr> padded(key.key().n_vars(), Fr::zero());
  std::copy_n(w.begin(), std::min(w.size(), padded.size()), padded.begin());
  std::vector<Fr> pa(key.key().domain_size()), pb(pa.size()), pc(pa.size());
  key.evaluate_abc(padded, pa, pb, pc);
  const auto pending = groth16::prove_start(key, std::span<const Fr>(padded), std::span<Fr>(pa), std::span<Fr>(pb),
                                            std::span<Fr>(pc));
  EXPECT_THROW(groth16::prove_finish(key, pending), groth16::ProofError);
}

}  // namespace
}  // namespace cuzk::test
