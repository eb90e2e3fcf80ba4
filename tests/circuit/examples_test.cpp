// The example circuits: sizes from a target constraint count, seeds, the
// chain's known answer, and the partition's bit-heavy witness.
#include <gtest/gtest.h>

#include <string>

#include "circuit_test_support.hpp"
#include "cuzk/circuit/examples/hash_chain.hpp"
#include "cuzk/circuit/examples/partition.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

template <class E>
struct Examples : ::testing::Test {
  std::mt19937_64 rng = test_rng();
};
TYPED_TEST_SUITE(Examples, Curves);

// At least 0.9·n constraints, at most n − n_public − 1, so a power-of-two n is
// exactly the domain. Shapes only: cheap up to 2^27.
template <class C>
void expect_sized_for(uint64_t n) {
  SCOPED_TRACE("n = " + std::to_string(n));
  const auto shape = circuit::shape_of(C::for_constraints(n));
  EXPECT_EQ(shape.n_public, C::n_public);
  EXPECT_GE(shape.n_constraints, 9 * n / 10);
  EXPECT_LE(shape.n_constraints, n - shape.n_public - 1);
  if (std::has_single_bit(n)) {
    EXPECT_EQ(circuit::domain_size_for(shape), n);
  }
}

TYPED_TEST(Examples, SizedForTargetConstraintCount) {
  for (uint64_t n : {uint64_t(1) << 10, uint64_t(1100), uint64_t(1300), uint64_t(3001), uint64_t(1) << 16,
                     uint64_t(100000), uint64_t(1) << 20, uint64_t(1) << 27}) {
    expect_sized_for<circuit::HashChain<TypeParam>>(n);
    expect_sized_for<circuit::Partition<TypeParam>>(n);
  }
  EXPECT_GT(circuit::Partition<TypeParam>::for_constraints(1 << 20).levels, 300u);
  EXPECT_THROW(circuit::HashChain<TypeParam>::for_constraints(6), std::invalid_argument);
  EXPECT_THROW(circuit::Partition<TypeParam>::for_constraints(512), std::invalid_argument);
}

// The level and head costs the sizing relies on are the real ones.
TYPED_TEST(Examples, PartitionCostsMatchSynthesis) {
  using P = circuit::Partition<TypeParam>;
  for (uint64_t levels : {0u, 1u, 3u})
    for (uint64_t tail : {0u, 5u}) {
      const P p{levels, tail, 0};
      EXPECT_EQ(circuit::shape_of(p).n_constraints, p.constraints());
      EXPECT_EQ(p.constraints(), P::head_cost + levels * P::level_cost + tail);
    }
  EXPECT_EQ(circuit::shape_of(circuit::HashChain<TypeParam>{41, 0}).n_constraints,
            circuit::HashChain<TypeParam>::constraints(41));
}

// The chain's public output is MiMC iterated `steps` times from x0 with key
// x0, as tests/oracle/mimc.py computes it.
TYPED_TEST(Examples, HashChainOutputMatchesTheOracle) {
  SEED_TRACE();
  const auto chain = circuit::HashChain<TypeParam>::for_constraints(1 << 12, this->rng());
  const auto s = synthesize(chain);
  const auto want = mimc_oracle<TypeParam>({{chain.x0(), chain.x0(), chain.steps}});
  EXPECT_EQ(s.w[1], chain.x0());
  EXPECT_EQ(s.w[2], want[0]);
  EXPECT_EQ(chain.output(), want[0]);
}

// Different seeds: the same matrices, different witnesses (public ones too).
template <class C>
void expect_seed_changes_only_values(const C& x, const C& y) {
  const auto mx = circuit::constraint_matrices(x), my = circuit::constraint_matrices(y);
  EXPECT_EQ(mx.starts, my.starts);
  ASSERT_EQ(mx.terms.size(), my.terms.size());
  for (size_t i = 0; i < mx.terms.size(); ++i) {
    ASSERT_EQ(mx.terms[i].wire, my.terms[i].wire);
    ASSERT_EQ(mx.terms[i].coef, my.terms[i].coef);
  }
  const auto sx = synthesize(x), sy = synthesize(y);
  for (uint32_t s = 1; s <= mx.n_public; ++s) EXPECT_NE(sx.w[s], sy.w[s]) << "public " << s;
  EXPECT_NE(sx.w, sy.w);
}

TYPED_TEST(Examples, SeedsChangeValuesNotShape) {
  SEED_TRACE();
  const uint64_t s1 = this->rng(), s2 = s1 + 1;
  using H = circuit::HashChain<TypeParam>;
  using P = circuit::Partition<TypeParam>;
  expect_seed_changes_only_values(H::for_constraints(3000, s1), H::for_constraints(3000, s2));
  expect_seed_changes_only_values(P::for_constraints(6000, s1), P::for_constraints(6000, s2));
}

// Like a Filecoin partition's, the witness is mostly 0 and 1.
TYPED_TEST(Examples, PartitionWitnessIsMostlyBits) {
  SEED_TRACE();
  const auto s = synthesize(circuit::Partition<TypeParam>::for_constraints(1 << 16, this->rng()));
  size_t bits = 0;
  for (const auto& x : s.w) bits += x.is_zero() || x.is_one();
  EXPECT_GT(double(bits) / s.w.size(), 0.8);
}

}  // namespace
}  // namespace cuzk::test
