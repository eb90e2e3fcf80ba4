// The two QAP reductions (reduction.hpp) against what snarkjs and bellperson
// do, written out here from their sources' rules: snarkjs zkey_new's domain
// 2^(⌊log2(constraints + publics)⌋ + 1) and H over the whole domain;
// bellperson's smallest domain holding constraints + publics + 1 rows, H a
// point short, h divided by Z(g) = gⁿ − 1 on the coset.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/groth16/reduction.hpp"
#include "cuzk/poly/domain.hpp"

namespace cuzk {
namespace {

using groth16::Convention;
using groth16::reduction;
using Fr = ff::bls12_381::Fr;

// What each convention's reduction states: its roots, H's form, whether A
// and B are dense, and the sizes it gives.
struct ReductionCase {
  Convention convention;
  poly::Roots roots;
  bool h_as_coefficients, dense_ab;
  size_t h_terms_on_1024;                                        // H's length on a domain of 1024 points
  size_t h_length_for_1024;                                      // the H length that takes a domain of 1024
  std::vector<std::pair<size_t, unsigned>> log_domain_of_rows;  // rows, log2 of their domain
  unsigned max_log_domain_of_32;                                 // the largest domain's log2 under a limit of 32
};

const ReductionCase kReductions[] = {
    // snarkjs: evaluations over every point. The domain is 2^(⌊log2 rows⌋ + 1),
    // at least 2: 0 and 1 rows give 2, 3 give 4, 4 give 8, and a Filecoin
    // partition's 2^27 - 2 rows give 2^27.
    {Convention::snarkjs, poly::Roots::snarkjs, false, false, 1024, 1024,
     {{0, 1}, {1, 1}, {3, 2}, {4, 3}, {(size_t(1) << 27) - 2, 27}}, 32},
    // bellman: coefficients, a point short. The domain is the smallest power
    // of two above constraints + publics (their input constraints add one
    // row): 0 rows give 1, 3 give 4, 4 give 8.
    {Convention::bellman, poly::Roots::bellman, true, true, 1023, 1023, {{0, 0}, {3, 2}, {4, 3}}, 31},
};

TEST(QapReduction, EachConventionStatesItsRootsHAndSizes) {
  for (const ReductionCase& c : kReductions) {
    SCOPED_TRACE(groth16::convention_name(c.convention));
    const auto r = reduction(c.convention);
    EXPECT_EQ(r.roots, c.roots);
    EXPECT_EQ(r.h_as_coefficients, c.h_as_coefficients);
    EXPECT_EQ(r.dense_ab, c.dense_ab);
    EXPECT_EQ(r.h_terms(1024), c.h_terms_on_1024);
    EXPECT_EQ(r.domain_size(c.h_length_for_1024), 1024u);
    for (const auto& [rows, log] : c.log_domain_of_rows) EXPECT_EQ(r.log_domain(rows), log) << rows << " rows";
    EXPECT_EQ(r.max_log_domain(32), c.max_log_domain_of_32);
  }
}

// snarkjs's H needs no division on the coset.
TEST(QapReduction, SnarkjsQuotientFactorIsOne) {
  constexpr auto r = reduction(Convention::snarkjs);
  const poly::Domain<Fr> d(4, r.roots);
  EXPECT_EQ(r.quotient_factor(d), Fr::one());
}

// 1/(gⁿ − 1) for bellman's coset shift g on a domain of 2^4.
TEST(QapReduction, BellmanQuotientFactorIsOneOverZOfTheCosetShift) {
  constexpr auto r = reduction(Convention::bellman);
  const poly::Domain<Fr> d(4, r.roots);
  const uint64_t n = 16;
  const Fr z = d.coset_shift().pow(&n, 1) - Fr::one();
  ASSERT_FALSE(z.is_zero());
  EXPECT_EQ(r.quotient_factor(d) * z, Fr::one());
  EXPECT_NE(r.quotient_factor(d), Fr::one());
}

}  // namespace
}  // namespace cuzk
