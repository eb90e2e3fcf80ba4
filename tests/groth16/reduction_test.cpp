// The two QAP reductions (reduction.hpp) against what snarkjs and bellperson
// do, written out here from their sources' rules: snarkjs zkey_new's domain
// 2^(⌊log2(constraints + publics)⌋ + 1) and H over the whole domain;
// bellperson's smallest domain holding constraints + publics + 1 rows, H a
// point short, h divided by Z(g) = gⁿ − 1 on the coset.
#include <gtest/gtest.h>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/groth16/reduction.hpp"
#include "cuzk/poly/domain.hpp"

namespace cuzk {
namespace {

using groth16::Convention;
using groth16::reduction;
using Fr = ff::bls12_381::Fr;

TEST(QapReduction, SnarkjsTakesEvaluationsOverEverySignal) {
  constexpr auto r = reduction(Convention::snarkjs);
  EXPECT_EQ(r.roots, poly::Roots::snarkjs);
  EXPECT_FALSE(r.h_as_coefficients);
  EXPECT_FALSE(r.dense_ab);
  EXPECT_EQ(r.h_terms(1024), 1024u);
  EXPECT_EQ(r.domain_size(1024), 1024u);
  // 2^(⌊log2 x⌋ + 1), at least 2: x = 0 and 1 give 2, 3 gives 4, 4 gives 8.
  EXPECT_EQ(r.log_domain(0), 1u);
  EXPECT_EQ(r.log_domain(1), 1u);
  EXPECT_EQ(r.log_domain(3), 2u);
  EXPECT_EQ(r.log_domain(4), 3u);
  EXPECT_EQ(r.log_domain((size_t(1) << 27) - 2), 27u);  // a Filecoin partition's rows
  EXPECT_EQ(r.max_log_domain(32), 32u);
  const poly::Domain<Fr> d(4, r.roots);
  EXPECT_EQ(r.quotient_factor(d), Fr::one());
}

TEST(QapReduction, BellmanTakesCoefficientsOverTheDensities) {
  constexpr auto r = reduction(Convention::bellman);
  EXPECT_EQ(r.roots, poly::Roots::bellman);
  EXPECT_TRUE(r.h_as_coefficients);
  EXPECT_TRUE(r.dense_ab);
  EXPECT_EQ(r.h_terms(1024), 1023u);
  EXPECT_EQ(r.domain_size(1023), 1024u);
  // The smallest power of two above constraints + publics (their input
  // constraints add one row): 0 rows give 1, 3 give 4, 4 give 8.
  EXPECT_EQ(r.log_domain(0), 0u);
  EXPECT_EQ(r.log_domain(3), 2u);
  EXPECT_EQ(r.log_domain(4), 3u);
  EXPECT_EQ(r.max_log_domain(32), 31u);
  // 1/(gⁿ − 1) for bellman's coset shift g on a domain of 2^4.
  const poly::Domain<Fr> d(4, r.roots);
  const uint64_t n = 16;
  const Fr z = d.coset_shift().pow(&n, 1) - Fr::one();
  ASSERT_FALSE(z.is_zero());
  EXPECT_EQ(r.quotient_factor(d) * z, Fr::one());
  EXPECT_NE(r.quotient_factor(d), Fr::one());
}

}  // namespace
}  // namespace cuzk
