// in_subgroup's endomorphism tests (src/ec/subgroup.cpp) against the
// definition, r·P = O (in_subgroup_by_order), on points of every kind a
// reader or a verifier may meet: in the subgroup, random points of the curve
// (components outside the subgroup, almost surely), points of the cofactor's
// torsion alone ([r]Q) and those added to subgroup points. Replay a failure
// with CUZK_TEST_SEED=<the printed seed>.
#include <gtest/gtest.h>

#include <random>

#include "cuzk/ec/curves.hpp"
#include "cuzk/ff/encode.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

template <class C>
struct SubgroupTest : ::testing::Test {
  using A = ec::Affine<C>;
  using J = ec::Jacobian<C>;
  using F = typename C::F;

  // A point of the curve with a random x (the first y found).
  static A random_curve_point(std::mt19937_64& rng) {
    for (;;) {
      const F x = ff::random_element<F>(rng);
      F y;
      if ((x.sqr() * x + C::b()).sqrt(y)) return {x, y};
    }
  }
  static A random_subgroup_point(std::mt19937_64& rng) {
    return ec::mul_vartime(ec::generator<C>(), ff::random_element<typename C::Fr>(rng)).to_affine();
  }
  // [r]Q: what is left of Q outside the subgroup, its cofactor torsion.
  static A torsion_of(const A& q) {
    uint64_t r[C::Fr::N];
    for (size_t i = 0; i < C::Fr::N; ++i) r[i] = C::Fr::params::modulus(i);
    return ec::mul_vartime(J::from(q), r, C::Fr::N).to_affine();
  }
  static void expect_agree(const A& p, const char* what, int i) {
    const bool want = ec::in_subgroup_by_order(p);
    EXPECT_EQ(ec::in_subgroup(p), want) << what << " " << i;
    EXPECT_EQ(ec::in_subgroup(-p), want) << "-(" << what << ") " << i;
  }
};

using Curves = ::testing::Types<ec::bls12_381::G1, ec::bls12_381::G2, ec::bn254::G2>;
TYPED_TEST_SUITE(SubgroupTest, Curves);

TYPED_TEST(SubgroupTest, AgreesWithROrder) {
  using T = TestFixture;
  using A = typename T::A;
  using J = typename T::J;
  SEED_TRACE();
  auto rng = test_rng();
  EXPECT_TRUE(ec::in_subgroup(A::infinity()));
  EXPECT_TRUE(ec::in_subgroup(ec::generator<TypeParam>()));
  for (int i = 0; i < 24; ++i) {
    const A s = T::random_subgroup_point(rng);
    ASSERT_TRUE(ec::in_subgroup_by_order(s));
    EXPECT_TRUE(ec::in_subgroup(s)) << "subgroup point " << i;

    const A q = T::random_curve_point(rng);
    ASSERT_TRUE(q.on_curve());
    T::expect_agree(q, "random curve point", i);
    EXPECT_FALSE(ec::in_subgroup(q)) << "random curve point " << i << " (outside the subgroup but with odds ~1/h)";

    const A t = T::torsion_of(q);
    T::expect_agree(t, "cofactor torsion", i);
    if (!t.is_inf()) {
      EXPECT_FALSE(ec::in_subgroup(t)) << "cofactor torsion " << i;
      const A st = J::from(s).add(J::from(t)).to_affine();
      T::expect_agree(st, "subgroup point + torsion", i);
      EXPECT_FALSE(ec::in_subgroup(st)) << "subgroup point + torsion " << i;
      // Multiples of the torsion point: its subgroups of smaller order.
      J m = J::from(t);
      for (int k = 2; k <= 13; ++k) {
        m = m.add(J::from(t));
        T::expect_agree(m.to_affine(), "multiple of a torsion point", k);
      }
    }
  }
}

}  // namespace
}  // namespace cuzk::test
