// Curve arithmetic against @noble/curves, over the four groups BN254 G1/G2 and
// BLS12-381 G1/G2: generators, scalar multiplication through three coordinate
// systems, every addition formula (including doubling, P + (-P) and infinity),
// on-curve and subgroup checks, batch normalisation and the group laws; then the
// ZCash serialisation of BLS12-381 points (noble's bytes exactly, and a table of
// malformed inputs) and BN254's uncompressed form.
//
// Replay a failure with CUZK_TEST_SEED=<the printed seed>.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/ec/ops.hpp"
#include "cuzk/ec/random_points.hpp"
#include "cuzk/ff/encode.hpp"
#include "noble.hpp"

namespace cuzk {
namespace {

using test::json;

// ---------------------------------------------------------------------------
// The four groups.

struct Bn254G1 {
  static constexpr const char* name = "Bn254G1";
  static constexpr const char* curve = "bn254";
  static constexpr const char* group = "g1";
  using C = ec::bn254::G1;
  static ec::Affine<C> generator() { return ec::bn254::g1_generator(); }
};
struct Bn254G2 {
  static constexpr const char* name = "Bn254G2";
  static constexpr const char* curve = "bn254";
  static constexpr const char* group = "g2";
  using C = ec::bn254::G2;
  static ec::Affine<C> generator() { return ec::bn254::g2_generator(); }
};
struct Bls12G1 {
  static constexpr const char* name = "Bls12_381G1";
  static constexpr const char* curve = "bls12_381";
  static constexpr const char* group = "g1";
  using C = ec::bls12_381::G1;
  static ec::Affine<C> generator() { return ec::bls12_381::g1_generator(); }
};
struct Bls12G2 {
  static constexpr const char* name = "Bls12_381G2";
  static constexpr const char* curve = "bls12_381";
  static constexpr const char* group = "g2";
  using C = ec::bls12_381::G2;
  static ec::Affine<C> generator() { return ec::bls12_381::g2_generator(); }
};

class GroupNames {
 public:
  template <class T>
  static std::string GetName(int) {
    return T::name;
  }
};

// ---------------------------------------------------------------------------
// Field and point helpers.

template <class F>
constexpr bool is_ext = requires { typename F::Base; };

template <class F>
std::string show(const F& a) {
  if constexpr (is_ext<F>) {
    return "(" + ff::to_decimal(a.c0) + " + " + ff::to_decimal(a.c1) + "u)";
  } else {
    return ff::to_decimal(a);
  }
}

template <class C>
std::string show(const ec::Affine<C>& p) {
  return p.is_inf() ? std::string("infinity") : "(" + show(p.x) + ", " + show(p.y) + ")";
}

template <class C>
::testing::AssertionResult same(const ec::Affine<C>& got, const ec::Affine<C>& want) {
  if (got == want) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\n  got  " << show(got) << "\n  want " << show(want);
}

template <class F, class Rng>
F random_nonzero(Rng& rng) {
  for (;;) {
    const F f = ff::random_element<F>(rng);
    if (!f.is_zero()) return f;
  }
}

template <class F>
F small(uint64_t k) {
  if constexpr (is_ext<F>) {
    return {F::Base::from_uint(k), F::Base::zero()};
  } else {
    return F::from_uint(k);
  }
}

// The same point with a non-trivial Z: (l^2 x, l^3 y, l). Infinity keeps Z = 0
// with arbitrary X, Y, which must still read as infinity.
template <class C>
ec::Jacobian<C> jac(const ec::Affine<C>& a, const typename C::F& l) {
  if (a.is_inf()) return {l, l.sqr(), C::F::zero()};
  const auto l2 = l.sqr();
  return {a.x * l2, a.y * l2 * l, l};
}
template <class C>
ec::Xyzz<C> xyzz(const ec::Affine<C>& a, const typename C::F& l) {
  if (a.is_inf()) return {l, l.sqr(), C::F::zero(), C::F::zero()};
  const auto l2 = l.sqr(), l3 = l2 * l;
  return {a.x * l2, a.y * l3, l2, l3};
}

template <class Fr>
std::array<uint64_t, Fr::N> limbs(const Fr& k) {
  std::array<uint64_t, Fr::N> v;
  k.to_canonical(v.data());
  return v;
}
template <class Fr>
std::array<uint64_t, Fr::N> modulus_limbs() {
  std::array<uint64_t, Fr::N> v;
  for (size_t i = 0; i < Fr::N; ++i) v[i] = Fr::params::modulus(i);
  return v;
}

// Plain double-and-add, most significant bit first, with the mixed addition of
// the coordinate system P (Jacobian or Xyzz): an independent path from
// mul_vartime's 4-bit windows and Jacobian+Jacobian additions.
template <class P, class C, size_t N>
P double_and_add(const ec::Affine<C>& g, const std::array<uint64_t, N>& k) {
  P acc = P::infinity();
  for (size_t i = 64 * N; i-- > 0;) {
    acc = acc.dbl();
    if ((k[i / 64] >> (i % 64)) & 1) acc = acc.add(g);
  }
  return acc;
}

// ---------------------------------------------------------------------------
// Fixture: seed, per-test random stream, the oracle's vectors for this group.

template <class T>
class CurveTest : public ::testing::Test {
 protected:
  using C = typename T::C;
  using F = typename C::F;
  using Fr = typename C::Fr;
  using A = ec::Affine<C>;
  using J = ec::Jacobian<C>;
  using X = ec::Xyzz<C>;

  void SetUp() override {
    seed_ = test::test_seed();
    RecordProperty("seed", std::to_string(seed_));
    rng_ = test::test_rng();  // per test, so one test's draws do not shift another's
  }
  std::string trace() const { return std::string("CUZK_TEST_SEED=") + std::to_string(seed_) + " group=" + T::name; }
  const json& vectors() const { return test::noble_vectors(seed_).at(T::curve).at(T::group); }
  static A parse(const json& j) { return test::parse_point<C>(j); }

  Fr scalar() { return ff::random_element<Fr>(rng_); }
  F lambda() { return random_nonzero<F>(rng_); }
  std::vector<A> points(size_t n) { return ec::random_points<C>(n, T::generator(), rng_()); }
  static A mul(const A& p, const Fr& k) { return ec::mul_vartime(p, k).to_affine(); }

  // Every point the oracle emits that must lie in the subgroup.
  std::vector<A> all_noble_points() const {
    const json& v = vectors();
    std::vector<A> out{parse(v.at("generator"))};
    for (const auto& m : v.at("mul")) out.push_back(parse(m.at("p")));
    for (const auto& a : v.at("add"))
      for (const char* k : {"a", "b", "sum"}) out.push_back(parse(a.at(k)));
    for (const char* form : {"uncompressed", "compressed"})
      for (const auto& e : v.at(form)) out.push_back(parse(e.at("p")));
    return out;
  }

  uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};

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

// ---------------------------------------------------------------------------
// BLS12-381: the ZCash serialisation.

std::string to_hex(std::span<const uint8_t> b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (uint8_t c : b) s += d[c >> 4], s += d[c & 15];
  return s;
}
std::vector<uint8_t> from_hex(const std::string& s) {
  auto nib = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::runtime_error("bad hex from the oracle");
  };
  if (s.size() % 2) throw std::runtime_error("odd hex length from the oracle");
  std::vector<uint8_t> out(s.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) out[i] = (uint8_t)(nib(s[2 * i]) << 4 | nib(s[2 * i + 1]));
  return out;
}

template <class T>
class ZcashTest : public CurveTest<T> {
 protected:
  using C = typename T::C;
  using F = typename C::F;
  using A = ec::Affine<C>;
  static constexpr size_t NC = ec::zcash::compressed_size<C>;
  static constexpr size_t NU = ec::zcash::uncompressed_size<C>;

  static std::vector<uint8_t> compressed(const A& p) {
    std::array<uint8_t, NC> b;
    ec::zcash::encode_compressed<C>(p, b);
    return {b.begin(), b.end()};
  }
  static std::vector<uint8_t> uncompressed(const A& p) {
    std::array<uint8_t, NU> b;
    ec::zcash::encode_uncompressed<C>(p, b);
    return {b.begin(), b.end()};
  }
  static ec::DecodeError decode(const std::vector<uint8_t>& in, A& out, bool check_subgroup = true) {
    return ec::zcash::decode<C>(std::span<const uint8_t>(in), out, check_subgroup);
  }
  // A coordinate as ZCash writes it (Fq2: c1 || c0), 48 or 96 bytes.
  static std::vector<uint8_t> coord(const F& f) {
    std::vector<uint8_t> out(NC);
    ec::zcash::detail::write(f, out.data());
    return out;
  }
  static std::vector<uint8_t> fq_modulus_be() {
    using Fq = ff::bls12_381::Fq;
    std::vector<uint8_t> out(Fq::bytes);
    for (size_t i = 0; i < Fq::bytes; ++i) out[Fq::bytes - 1 - i] = (uint8_t)(Fq::params::modulus(i / 8) >> (8 * (i % 8)));
    return out;
  }
};

template <class T>
class Bn254Test : public CurveTest<T> {};

using Bls12Groups = ::testing::Types<Bls12G1, Bls12G2>;
using Bn254Groups = ::testing::Types<Bn254G1, Bn254G2>;
TYPED_TEST_SUITE(ZcashTest, Bls12Groups, GroupNames);
TYPED_TEST_SUITE(Bn254Test, Bn254Groups, GroupNames);

std::string decode_result(ec::DecodeError e) { return ec::describe(e); }

#define EXPECT_DECODE(got, want) EXPECT_EQ(decode_result(got), decode_result(want))

TYPED_TEST(ZcashTest, EncodingMatchesNoble) {
  using A = typename TestFixture::A;
  SCOPED_TRACE(this->trace());
  EXPECT_EQ(TestFixture::NC, TestFixture::NU / 2);
  EXPECT_EQ(TestFixture::NC, std::string(TypeParam::group) == "g1" ? 48u : 96u);
  for (const bool is_compressed : {false, true}) {
    const json& vs = this->vectors().at(is_compressed ? "compressed" : "uncompressed");
    ASSERT_GE(vs.size(), 2u);
    EXPECT_TRUE(this->parse(vs.back().at("p")).is_inf()) << "the oracle's last encoding vector is infinity";
    for (size_t i = 0; i < vs.size(); ++i) {
      SCOPED_TRACE(std::string(is_compressed ? "compressed" : "uncompressed") + " vector " + std::to_string(i));
      const A p = this->parse(vs[i].at("p"));
      const std::string hex = vs[i].at("hex").template get<std::string>();
      const auto bytes = is_compressed ? this->compressed(p) : this->uncompressed(p);
      EXPECT_EQ(to_hex(bytes), hex);
      A back = TypeParam::generator();
      EXPECT_DECODE(this->decode(from_hex(hex), back), ec::DecodeError::ok);
      EXPECT_TRUE(same(back, p));
      A back2 = TypeParam::generator();
      EXPECT_DECODE(this->decode(from_hex(hex), back2, false), ec::DecodeError::ok);
      EXPECT_TRUE(same(back2, p));
      if (p.is_inf()) {
        std::vector<uint8_t> want(is_compressed ? TestFixture::NC : TestFixture::NU, 0);
        want[0] = is_compressed ? 0xc0 : 0x40;
        EXPECT_EQ(to_hex(bytes), to_hex(want));
      } else if (is_compressed) {
        // flipping the sort flag gives -p
        auto flipped = from_hex(hex);
        flipped[0] ^= 0x20;
        A neg;
        EXPECT_DECODE(this->decode(flipped, neg), ec::DecodeError::ok);
        EXPECT_TRUE(same(neg, -p));
        EXPECT_EQ(to_hex(this->compressed(-p)), to_hex(flipped));
      }
    }
  }
  // Round trips of random subgroup points, both forms.
  for (const A& p : this->points(8)) {
    A back;
    EXPECT_DECODE(this->decode(this->compressed(p), back), ec::DecodeError::ok);
    EXPECT_TRUE(same(back, p));
    EXPECT_DECODE(this->decode(this->uncompressed(p), back), ec::DecodeError::ok);
    EXPECT_TRUE(same(back, p));
  }
}

TYPED_TEST(ZcashTest, DecodeRejectsBadInput) {
  using C = typename TestFixture::C;
  using F = typename TestFixture::F;
  using A = typename TestFixture::A;
  using E = ec::DecodeError;
  SCOPED_TRACE(this->trace());
  constexpr size_t NC = TestFixture::NC, NU = TestFixture::NU;
  const A p = this->mul(TypeParam::generator(), this->scalar());
  ASSERT_FALSE(p.is_inf());
  const auto enc_c = this->compressed(p), enc_u = this->uncompressed(p);
  std::vector<uint8_t> inf_c(NC, 0), inf_u(NU, 0);
  inf_c[0] = 0xc0, inf_u[0] = 0x40;

  struct Case {
    std::string what;
    std::vector<uint8_t> bytes;
    E want;
  };
  std::vector<Case> cases;
  auto with = [](std::vector<uint8_t> b, size_t i, uint8_t v) {
    b[i] = v;
    return b;
  };
  auto cat = [](std::vector<uint8_t> a, const std::vector<uint8_t>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };

  // lengths
  cases.push_back({"empty", {}, E::bad_length});
  cases.push_back({"compressed, one byte short", {enc_c.begin(), enc_c.end() - 1}, E::bad_length});
  cases.push_back({"compressed, one byte long", cat(enc_c, {0}), E::bad_length});
  cases.push_back({"uncompressed, one byte short", {enc_u.begin(), enc_u.end() - 1}, E::bad_length});
  cases.push_back({"uncompressed, one byte long", cat(enc_u, {0}), E::bad_length});
  cases.push_back({"infinity, one byte long", cat(inf_c, {0}), E::bad_length});
  // flags
  cases.push_back({"compressed flag on an uncompressed-length string", with(enc_u, 0, enc_u[0] | 0x80), E::bad_flags});
  cases.push_back({"compressed flag clear on a compressed-length string", with(enc_c, 0, enc_c[0] & 0x7f), E::bad_flags});
  cases.push_back({"compressed infinity with a non-zero last byte", with(inf_c, NC - 1, 1), E::bad_flags});
  cases.push_back({"compressed infinity with a non-zero low first byte", with(inf_c, 0, 0xc1), E::bad_flags});
  cases.push_back({"uncompressed infinity with a non-zero y byte", with(inf_u, NC, 1), E::bad_flags});
  cases.push_back({"uncompressed infinity with a non-zero last byte", with(inf_u, NU - 1, 0x80), E::bad_flags});
  cases.push_back({"infinity flag on a real compressed point", with(enc_c, 0, enc_c[0] | 0x40), E::bad_flags});
  cases.push_back({"infinity flag on a real uncompressed point", with(enc_u, 0, enc_u[0] | 0x40), E::bad_flags});
  cases.push_back({"compressed infinity with the sort flag", with(inf_c, 0, 0xe0), E::bad_flags});
  cases.push_back({"uncompressed infinity with the sort flag", with(inf_u, 0, 0x60), E::bad_flags});
  cases.push_back({"sort flag on an uncompressed point", with(enc_u, 0, enc_u[0] | 0x20), E::bad_flags});
  // non-canonical coordinates
  {
    std::vector<uint8_t> c(NC, 0xff);
    c[0] = 0x9f;  // compressed, no other flag, 0x1f after masking
    cases.push_back({"compressed x = 1fff..ff", c, E::not_canonical});
    cases.push_back({"compressed x = 1fff..ff with the sort flag", with(c, 0, 0xbf), E::not_canonical});
    std::vector<uint8_t> u = cat(with(std::vector<uint8_t>(NC, 0xff), 0, 0x1f), this->coord(p.y));
    cases.push_back({"uncompressed x = 1fff..ff", u, E::not_canonical});
  }
  const auto pbe = TestFixture::fq_modulus_be();  // p, 48 bytes big-endian
  {
    // x = p exactly (every Fq limb of x is p for G1; for G2 each half in turn)
    const auto x = this->coord(p.x);
    if constexpr (is_ext<F>) {
      auto hi = cat(pbe, std::vector<uint8_t>(x.begin() + 48, x.end()));  // x.c1 = p
      auto lo = cat(std::vector<uint8_t>(x.begin(), x.begin() + 48), pbe);  // x.c0 = p
      cases.push_back({"compressed x.c1 = p", with(hi, 0, hi[0] | 0x80), E::not_canonical});
      cases.push_back({"compressed x.c0 = p", with(lo, 0, lo[0] | 0x80), E::not_canonical});
      cases.push_back({"compressed x.c0 = ff..ff", with(cat(std::vector<uint8_t>(x.begin(), x.begin() + 48), std::vector<uint8_t>(48, 0xff)), 0, x[0] | 0x80), E::not_canonical});
      cases.push_back({"uncompressed x.c1 = p", cat(hi, this->coord(p.y)), E::not_canonical});
      cases.push_back({"uncompressed x.c0 = p", cat(lo, this->coord(p.y)), E::not_canonical});
      const auto y = this->coord(p.y);
      cases.push_back({"uncompressed y.c1 = p", cat(x, cat(pbe, std::vector<uint8_t>(y.begin() + 48, y.end()))), E::not_canonical});
      cases.push_back({"uncompressed y.c0 = p", cat(x, cat(std::vector<uint8_t>(y.begin(), y.begin() + 48), pbe)), E::not_canonical});
    } else {
      cases.push_back({"compressed x = p", with(pbe, 0, pbe[0] | 0x80), E::not_canonical});
      cases.push_back({"uncompressed x = p", cat(pbe, this->coord(p.y)), E::not_canonical});
      cases.push_back({"uncompressed y = p", cat(x, pbe), E::not_canonical});
      cases.push_back({"uncompressed y = ff..ff", cat(x, std::vector<uint8_t>(NC, 0xff)), E::not_canonical});
    }
  }
  // x with no point on the curve: the first x = 1, 2, ... with x^3 + b a non-square
  {
    uint64_t k = 1;
    F y;
    while ((small<F>(k).sqr() * small<F>(k) + C::b()).sqrt(y)) ++k;
    ASSERT_LT(k, 1000u);
    auto c = this->coord(small<F>(k));
    c[0] |= 0x80;
    cases.push_back({"compressed x = " + std::to_string(k) + " (x^3 + b a non-square)", c, E::not_on_curve});
    cases.push_back({"the same with the sort flag", with(c, 0, c[0] | 0x20), E::not_on_curve});
  }
  // uncompressed points off the curve
  cases.push_back({"uncompressed, y + 1", cat(this->coord(p.x), this->coord(p.y + F::one())), E::not_on_curve});
  cases.push_back({"uncompressed, x + 1", cat(this->coord(p.x + F::one()), this->coord(p.y)), E::not_on_curve});
  cases.push_back({"uncompressed, y = 0", cat(this->coord(p.x), this->coord(F::zero())), E::not_on_curve});
  cases.push_back({"uncompressed, x = 0 and y = 0 without the infinity flag", std::vector<uint8_t>(NU, 0), E::not_on_curve});

  for (const auto& c : cases) {
    SCOPED_TRACE(c.what + ": " + to_hex(c.bytes));
    for (const bool check : {true, false}) {
      A out = TypeParam::generator();
      EXPECT_DECODE(this->decode(c.bytes, out, check), c.want) << "check_subgroup=" << check;
      EXPECT_TRUE(same(out, TypeParam::generator())) << "a failed decode wrote its output";
    }
  }

  // x = 0 compressed: a curve point (0, +-sqrt(b)) exists for G1 (of order 3,
  // outside the subgroup), none for G2 (b = 4 + 4u is a non-square).
  {
    std::vector<uint8_t> c(NC, 0);
    c[0] = 0x80;
    A out;
    F y;
    if (C::b().sqrt(y)) {
      EXPECT_DECODE(this->decode(c, out), E::not_in_subgroup);
      EXPECT_DECODE(this->decode(c, out, false), E::ok);
      EXPECT_TRUE(out.on_curve());
      EXPECT_FALSE(out.is_inf());
      EXPECT_TRUE(out.x.is_zero());
    } else {
      EXPECT_DECODE(this->decode(c, out), E::not_on_curve);
    }
  }
}

// The oracle's points outside the subgroup, in both forms from our encoder.
TYPED_TEST(ZcashTest, NonSubgroupPoints) {
  using A = typename TestFixture::A;
  using E = ec::DecodeError;
  SCOPED_TRACE(this->trace());
  const json& ns = this->vectors().at("non_subgroup");
  ASSERT_GE(ns.size(), 1u);
  for (size_t i = 0; i < ns.size(); ++i) {
    SCOPED_TRACE("non-subgroup point " + std::to_string(i));
    const A p = this->parse(ns[i]);
    for (const auto& bytes : {this->compressed(p), this->uncompressed(p)}) {
      SCOPED_TRACE(to_hex(bytes));
      A out = TypeParam::generator();
      EXPECT_DECODE(this->decode(bytes, out), E::not_in_subgroup);
      EXPECT_TRUE(same(out, TypeParam::generator()));
      EXPECT_DECODE(this->decode(bytes, out, false), E::ok);
      EXPECT_TRUE(same(out, p));
    }
    auto flipped = this->compressed(p);
    flipped[0] ^= 0x20;
    A out;
    EXPECT_DECODE(this->decode(flipped, out, false), E::ok);
    EXPECT_TRUE(same(out, -p));
  }
}

// Random strings never crash; whatever decodes is a valid point that encodes
// back to exactly the input (every accepted encoding is canonical).
TYPED_TEST(ZcashTest, RandomBytes) {
  using A = typename TestFixture::A;
  using E = ec::DecodeError;
  SCOPED_TRACE(this->trace());
  constexpr size_t NC = TestFixture::NC, NU = TestFixture::NU;
  std::uniform_int_distribution<int> byte(0, 255);
  int decoded = 0, decoded_unchecked = 0;
  for (const size_t n : {NC, NU}) {
    for (int i = 0; i < 1200; ++i) {
      std::vector<uint8_t> b(n);
      for (auto& c : b) c = (uint8_t)byte(this->rng_);
      if (i >= 1000) {
        // 200 more with plausible flags and a top byte below p's, so that the
        // curve equation and the subgroup check are reached
        b[0] = (uint8_t)((n == NC ? 0x80 : 0) | (n == NC ? (b[0] & 0x20) : 0) | (b[0] % 0x1a));
        if constexpr (is_ext<typename TestFixture::F>) b[48] %= 0x1a;
      }
      SCOPED_TRACE(to_hex(b));
      A out, out_unchecked;
      const E e = this->decode(b, out), eu = this->decode(b, out_unchecked, false);
      if (eu != E::ok) {
        EXPECT_DECODE(e, eu);
        continue;
      }
      ++decoded_unchecked;
      EXPECT_TRUE(out_unchecked.on_curve());
      EXPECT_EQ(to_hex(n == NC ? this->compressed(out_unchecked) : this->uncompressed(out_unchecked)), to_hex(b));
      if (e == E::ok) {
        ++decoded;
        EXPECT_TRUE(same(out, out_unchecked));
        EXPECT_TRUE(ec::in_subgroup(out));
      } else {
        EXPECT_DECODE(e, E::not_in_subgroup);
      }
    }
  }
  // random compressed x has a curve point about half the time
  EXPECT_GE(decoded_unchecked, 20);
  this->RecordProperty("decoded", decoded);
}

// ---------------------------------------------------------------------------
// BN254: noble's SEC1-style uncompressed form 04 || x || y (Fq2 as c0 || c1).

template <class F>
std::string be_hex(const F& f) {
  if constexpr (is_ext<F>) {
    return be_hex(f.c0) + be_hex(f.c1);
  } else {
    std::array<uint8_t, F::bytes> b;
    ff::to_bytes_be(f, std::span<uint8_t, F::bytes>(b));
    return to_hex(b);
  }
}

TYPED_TEST(Bn254Test, UncompressedMatchesNoble) {
  using A = typename TestFixture::A;
  SCOPED_TRACE(this->trace());
  const json& vs = this->vectors().at("uncompressed");
  ASSERT_GE(vs.size(), 2u);
  int finite = 0;
  for (size_t i = 0; i < vs.size(); ++i) {
    SCOPED_TRACE("uncompressed vector " + std::to_string(i));
    const A p = this->parse(vs[i].at("p"));
    const std::string hex = vs[i].at("hex").template get<std::string>();
    if (p.is_inf()) {
      EXPECT_EQ(hex, "00");
      continue;
    }
    ++finite;
    EXPECT_EQ(hex, "04" + be_hex(p.x) + be_hex(p.y));
    EXPECT_EQ(hex.size(), 2 + 4 * sizeof(typename TestFixture::F));
  }
  EXPECT_GE(finite, 1);
  EXPECT_TRUE(this->parse(vs.back().at("p")).is_inf());
}

// The twist constants are literals in the headers; they must be b/xi (BN254,
// D-type) and b*xi (BLS12-381, M-type) for the tower's xi.
TEST(TwistConstant, MatchesXi) {
  using ff::bn254::Fq;
  EXPECT_EQ(ec::bn254::G2::b() * ff::bn254::Tower::xi(), (ff::bn254::Fq2{Fq::from_uint(3), Fq::zero()}));
  using Fq381 = ff::bls12_381::Fq;
  EXPECT_EQ(ec::bls12_381::G2::b(), (ff::bls12_381::Fq2{Fq381::from_uint(4), Fq381::zero()} * ff::bls12_381::Tower::xi()));
}

}  // namespace
}  // namespace cuzk
