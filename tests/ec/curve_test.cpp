// Curve arithmetic against @noble/curves, over the four groups BN254 G1/G2 and
// BLS12-381 G1/G2: generators, scalar multiplication through three coordinate
// systems, every addition formula (including doubling, P + (-P) and infinity),
// on-curve and subgroup checks, batch normalisation and the group laws
// (encoding_test.cpp: the points' serialisations).
//
// Replay a failure with CUZK_TEST_SEED=<the printed seed>.
#include "curve_fixture.hpp"

namespace cuzk {
namespace {

using AllGroups = ::testing::Types<Bn254G1, Bn254G2, Bls12G1, Bls12G2>;
TYPED_TEST_SUITE(CurveTest, AllGroups, GroupNames);

TYPED_TEST(CurveTest, GeneratorMatchesNoble) {
  SCOPED_TRACE(this->trace());
  const auto g = TypeParam::generator();
  EXPECT_TRUE(same(g, this->parse(this->vectors().at("generator"))));
  EXPECT_FALSE(g.is_inf());
  EXPECT_TRUE(g.on_curve());
  EXPECT_TRUE(ec::in_subgroup(g));
}

// Every mul vector k·G = p through mul_vartime, a Jacobian double-and-add and an
// Xyzz double-and-add; the oracle's edge scalars 0, 1, 2, r-1 lead the list.
TYPED_TEST(CurveTest, MulMatchesNoble) {
  using Fr = typename TestFixture::Fr;
  using A = typename TestFixture::A;
  using J = typename TestFixture::J;
  using X = typename TestFixture::X;
  SCOPED_TRACE(this->trace());
  const A g = TypeParam::generator();
  const json& muls = this->vectors().at("mul");
  ASSERT_GE(muls.size(), 5u);
  const Fr r_minus_1 = Fr::zero() - Fr::one();
  bool saw[4] = {};  // 0, 1, 2, r-1
  for (size_t i = 0; i < muls.size(); ++i) {
    SCOPED_TRACE("mul vector " + std::to_string(i) + " k=" + muls[i].at("k").template get<std::string>());
    const Fr k = test::parse_fq<Fr>(muls[i].at("k"));
    const A want = this->parse(muls[i].at("p"));
    const auto kl = limbs(k);

    const J viaj = ec::mul_vartime(g, k);
    EXPECT_TRUE(viaj.on_curve());
    EXPECT_TRUE(same(viaj.to_affine(), want));
    // the limb entry point from a non-normalised Jacobian base
    EXPECT_TRUE(same(ec::mul_vartime(jac(g, this->lambda()), kl.data(), kl.size()).to_affine(), want));
    EXPECT_TRUE(same(double_and_add<J>(g, kl).to_affine(), want));
    const X viax = double_and_add<X>(g, kl);
    EXPECT_TRUE(same(viax.to_affine(), want));
    EXPECT_TRUE(same(viax.to_jacobian().to_affine(), want));
    EXPECT_TRUE(viax.to_jacobian() == viaj);

    if (k.is_zero()) {
      saw[0] = true;
      EXPECT_TRUE(want.is_inf());
      EXPECT_TRUE(viaj.is_inf());
      EXPECT_TRUE(viax.is_inf());
    }
    if (k == Fr::one()) {
      saw[1] = true;
      EXPECT_TRUE(same(want, g));
    }
    if (k == Fr::from_uint(2)) {
      saw[2] = true;
      EXPECT_TRUE(same(J::from(g).dbl().to_affine(), want));
    }
    if (k == r_minus_1) {
      saw[3] = true;
      EXPECT_TRUE(same(want, -g));
    }
  }
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(saw[i]) << "the oracle no longer emits edge scalar #" << i;

  // The edge scalars directly, whatever the oracle emits.
  EXPECT_TRUE(ec::mul_vartime(g, Fr::zero()).is_inf());
  EXPECT_TRUE(ec::mul_vartime(A::infinity(), this->scalar()).is_inf());
  EXPECT_TRUE(same(ec::mul_vartime(g, Fr::one()).to_affine(), g));
  EXPECT_TRUE(same(ec::mul_vartime(g, r_minus_1).to_affine(), -g));
  EXPECT_TRUE(same(double_and_add<X>(g, limbs(r_minus_1)).to_affine(), -g));
  EXPECT_TRUE(same(double_and_add<J>(g, limbs(r_minus_1)).to_affine(), -g));
  EXPECT_TRUE(ec::mul_vartime(J::from(g), modulus_limbs<Fr>().data(), Fr::N).is_inf());
  EXPECT_TRUE(double_and_add<X>(g, modulus_limbs<Fr>()).is_inf());
}

// Every add vector through each formula, both operand orders, with unit and
// random Z; the oracle includes a doubling, a + (-a) and O + b.
TYPED_TEST(CurveTest, AddMatchesNoble) {
  using A = typename TestFixture::A;
  using J = typename TestFixture::J;
  using X = typename TestFixture::X;
  SCOPED_TRACE(this->trace());
  const json& adds = this->vectors().at("add");
  ASSERT_GE(adds.size(), 4u);
  int doublings = 0, opposites = 0, infinities = 0;
  for (size_t i = 0; i < adds.size(); ++i) {
    SCOPED_TRACE("add vector " + std::to_string(i));
    const A a = this->parse(adds[i].at("a")), b = this->parse(adds[i].at("b")), want = this->parse(adds[i].at("sum"));
    if (!a.is_inf() && a == b) ++doublings;
    if (!a.is_inf() && a == -b) ++opposites;
    if (a.is_inf() || b.is_inf()) ++infinities;
    if (a == -b) {
      EXPECT_TRUE(want.is_inf());
    }

    for (const auto& [p, q] : {std::pair{a, b}, std::pair{b, a}}) {
      const auto l1 = this->lambda(), l2 = this->lambda();
      // Jacobian + Jacobian
      EXPECT_TRUE(same(J::from(p).add(J::from(q)).to_affine(), want));
      const J jj = jac(p, l1).add(jac(q, l2));
      EXPECT_TRUE(jj.on_curve());
      EXPECT_TRUE(same(jj.to_affine(), want));
      EXPECT_TRUE(jj == jac(want, this->lambda()));
      // Jacobian + affine
      EXPECT_TRUE(same(J::from(p).add(q).to_affine(), want));
      EXPECT_TRUE(same(jac(p, l1).add(q).to_affine(), want));
      // Xyzz + Xyzz
      EXPECT_TRUE(same(X::from(p).add(X::from(q)).to_affine(), want));
      const X xx = xyzz(p, l1).add(xyzz(q, l2));
      EXPECT_TRUE(same(xx.to_affine(), want));
      EXPECT_TRUE(same(xx.to_jacobian().to_affine(), want));
      // Xyzz + affine
      EXPECT_TRUE(same(X::from(p).add(q).to_affine(), want));
      EXPECT_TRUE(same(xyzz(p, l1).add(q).to_affine(), want));
    }
  }
  EXPECT_GE(doublings, 1) << "the oracle no longer emits a doubling";
  EXPECT_GE(opposites, 1) << "the oracle no longer emits a + (-a)";
  EXPECT_GE(infinities, 1) << "the oracle no longer emits an infinity operand";
}

TYPED_TEST(CurveTest, OnCurveAndSubgroup) {
  using C = typename TestFixture::C;
  using F = typename TestFixture::F;
  using A = typename TestFixture::A;
  SCOPED_TRACE(this->trace());
  const auto pts = this->all_noble_points();
  ASSERT_GE(pts.size(), 20u);
  for (size_t i = 0; i < pts.size(); ++i) {
    SCOPED_TRACE("noble point " + std::to_string(i) + " " + show(pts[i]));
    EXPECT_TRUE(pts[i].on_curve());
    EXPECT_TRUE(ec::in_subgroup(pts[i]));
    if (pts[i].is_inf()) continue;
    // x tweaked (and y tweaked) is off the curve, hence not in the subgroup
    const A bad_x{pts[i].x + F::one(), pts[i].y}, bad_y{pts[i].x, pts[i].y + F::one()};
    EXPECT_FALSE(bad_x.on_curve());
    EXPECT_FALSE(ec::in_subgroup(bad_x));
    EXPECT_FALSE(bad_y.on_curve());
    EXPECT_FALSE(ec::in_subgroup(bad_y));
    EXPECT_FALSE(jac(bad_x, this->lambda()).on_curve());
    EXPECT_TRUE(jac(pts[i], this->lambda()).on_curve());
  }

  const json& ns = this->vectors().at("non_subgroup");
  if constexpr (C::cofactor_is_one) {
    EXPECT_TRUE(ns.empty());
  } else {
    ASSERT_GE(ns.size(), 1u);
    for (size_t i = 0; i < ns.size(); ++i) {
      SCOPED_TRACE("non-subgroup point " + std::to_string(i));
      const A p = this->parse(ns[i]);
      EXPECT_FALSE(p.is_inf());
      EXPECT_TRUE(p.on_curve());
      EXPECT_FALSE(ec::in_subgroup(p));
      EXPECT_FALSE(ec::in_subgroup(-p));
    }
  }
}

TYPED_TEST(CurveTest, Infinity) {
  using F = typename TestFixture::F;
  using A = typename TestFixture::A;
  using J = typename TestFixture::J;
  using X = typename TestFixture::X;
  SCOPED_TRACE(this->trace());
  const A zero{F::zero(), F::zero()};
  EXPECT_TRUE(zero.is_inf());
  EXPECT_TRUE(A::infinity() == zero);
  EXPECT_TRUE(zero.on_curve());
  EXPECT_TRUE(ec::in_subgroup(zero));
  EXPECT_TRUE((-zero).is_inf());
  EXPECT_FALSE((A{F::zero(), F::one()}).is_inf());
  EXPECT_FALSE((A{F::one(), F::zero()}).is_inf());

  EXPECT_TRUE(J::infinity().is_inf());
  EXPECT_TRUE(J::infinity().on_curve());
  EXPECT_TRUE(same(J::infinity().to_affine(), zero));
  EXPECT_TRUE(J::from(zero).is_inf());
  EXPECT_TRUE(J::infinity().dbl().is_inf());
  EXPECT_TRUE((-J::infinity()).is_inf());
  const J jinf = jac(zero, this->lambda());  // Z = 0, random X and Y
  EXPECT_TRUE(jinf.is_inf());
  EXPECT_TRUE(same(jinf.to_affine(), zero));
  EXPECT_TRUE(jinf == J::infinity());
  EXPECT_FALSE(jinf == J::from(TypeParam::generator()));

  EXPECT_TRUE(X::infinity().is_inf());
  EXPECT_TRUE(same(X::infinity().to_affine(), zero));
  EXPECT_TRUE(X::from(zero).is_inf());
  EXPECT_TRUE(X::infinity().dbl().is_inf());
  EXPECT_TRUE(X::infinity().to_jacobian().is_inf());
  const X xinf = xyzz(zero, this->lambda());
  EXPECT_TRUE(xinf.is_inf());
  EXPECT_TRUE(same(xinf.to_affine(), zero));
  EXPECT_TRUE(xinf.to_jacobian().is_inf());
}

TYPED_TEST(CurveTest, BatchToAffine) {
  using A = typename TestFixture::A;
  using J = typename TestFixture::J;
  SCOPED_TRACE(this->trace());
  const auto pts = this->points(40);
  // infinity first, last, in a run and scattered
  std::vector<J> in;
  for (size_t i = 0; i < pts.size(); ++i) {
    const bool inf = i == 0 || i == 1 || i == 2 || i % 7 == 3 || i + 1 == pts.size();
    in.push_back(inf ? jac(A::infinity(), this->lambda()) : jac(pts[i], this->lambda()));
  }
  in.push_back(J::infinity());
  std::vector<A> out(in.size(), TypeParam::generator());
  ec::batch_to_affine<typename TestFixture::C>(in, out);
  size_t infs = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    SCOPED_TRACE("entry " + std::to_string(i));
    EXPECT_TRUE(same(out[i], in[i].to_affine()));
    if (i < pts.size() && !in[i].is_inf()) {
      EXPECT_TRUE(same(out[i], pts[i]));
    }
    infs += out[i].is_inf();
  }
  EXPECT_GE(infs, 8u);

  // all infinity, a single point, and nothing at all
  std::vector<J> all_inf(3, J::infinity());
  std::vector<A> out_inf(3, TypeParam::generator());
  ec::batch_to_affine<typename TestFixture::C>(all_inf, out_inf);
  for (const auto& p : out_inf) EXPECT_TRUE(p.is_inf());
  std::vector<J> one{jac(pts[5], this->lambda())};
  std::vector<A> out_one(1);
  ec::batch_to_affine<typename TestFixture::C>(one, out_one);
  EXPECT_TRUE(same(out_one[0], pts[5]));
  std::vector<J> none;
  std::vector<A> out_none;
  ec::batch_to_affine<typename TestFixture::C>(none, out_none);
}

TYPED_TEST(CurveTest, GroupLaws) {
  using Fr = typename TestFixture::Fr;
  using A = typename TestFixture::A;
  using J = typename TestFixture::J;
  using X = typename TestFixture::X;
  SCOPED_TRACE(this->trace());
  const auto pts = this->points(9);
  auto add = [](const A& p, const A& q) { return J::from(p).add(J::from(q)).to_affine(); };
  const auto r = modulus_limbs<Fr>();
  for (size_t i = 0; i + 2 < pts.size(); i += 3) {
    SCOPED_TRACE("triple " + std::to_string(i / 3));
    const A p = pts[i], q = pts[i + 1], s = pts[i + 2];
    ASSERT_TRUE(ec::in_subgroup(p));
    EXPECT_TRUE(same(add(add(p, q), s), add(p, add(q, s))));  // associativity
    EXPECT_TRUE(same(X::from(p).add(q).add(s).to_affine(), X::from(q).add(s).add(p).to_affine()));
    EXPECT_TRUE(same(add(p, q), add(q, p)));  // commutativity
    EXPECT_TRUE(same(xyzz(p, this->lambda()).add(xyzz(q, this->lambda())).to_affine(),
                     xyzz(q, this->lambda()).add(xyzz(p, this->lambda())).to_affine()));
    // P + (-P) = O and P + O = P
    EXPECT_TRUE(jac(p, this->lambda()).add(jac(-p, this->lambda())).is_inf());
    EXPECT_TRUE(jac(p, this->lambda()).add(-p).is_inf());
    EXPECT_TRUE(xyzz(p, this->lambda()).add(xyzz(-p, this->lambda())).is_inf());
    EXPECT_TRUE(xyzz(p, this->lambda()).add(-p).is_inf());
    EXPECT_TRUE(same(add(p, A::infinity()), p));
    EXPECT_TRUE(same(X::from(p).add(A::infinity()).to_affine(), p));
    // 2P = P + P, with differently scaled copies so the equal-x branch sees real Z
    const A two_p = J::from(p).dbl().to_affine();
    EXPECT_TRUE(same(add(p, p), two_p));
    EXPECT_TRUE(same(jac(p, this->lambda()).add(jac(p, this->lambda())).to_affine(), two_p));
    EXPECT_TRUE(same(jac(p, this->lambda()).add(p).to_affine(), two_p));
    EXPECT_TRUE(same(jac(p, this->lambda()).dbl().to_affine(), two_p));
    EXPECT_TRUE(same(xyzz(p, this->lambda()).dbl().to_affine(), two_p));
    EXPECT_TRUE(same(xyzz(p, this->lambda()).add(xyzz(p, this->lambda())).to_affine(), two_p));
    EXPECT_TRUE(same(xyzz(p, this->lambda()).add(p).to_affine(), two_p));
    EXPECT_TRUE(same(this->mul(p, Fr::from_uint(2)), two_p));
    // [a]P + [b]P = [a+b]P and [a]([b]P) = [ab]P
    const Fr a = this->scalar(), b = this->scalar();
    EXPECT_TRUE(same(add(this->mul(p, a), this->mul(p, b)), this->mul(p, a + b)));
    EXPECT_TRUE(same(this->mul(this->mul(p, a), b), this->mul(p, a * b)));
    EXPECT_TRUE(same(this->mul(p, -a), -this->mul(p, a)));
    // [r]P = O
    EXPECT_TRUE(ec::mul_vartime(jac(p, this->lambda()), r.data(), r.size()).is_inf());
  }
}
}  // namespace
}  // namespace cuzk
