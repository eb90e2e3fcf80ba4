// The optimal ate pairing against @noble/curves, plus the algebraic properties
// that hold whatever the oracle says: bilinearity, non-degeneracy, order r, the
// multi-pairing and final_exponentiation(miller_loop) = product of pairings.
//
// cuzk's pairing returns noble's/snarkjs's value e^k, e the exact reduced pairing
// (see cuzk/ec/pairing.hpp); the oracle emits e and k, and the vectors test
// compares with e^k. Replay a failure with CUZK_TEST_SEED=<the printed seed>.
#include "cuzk/ec/pairing.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/ff/bigint.hpp"
#include "cuzk/ff/encode.hpp"
#include "noble.hpp"

namespace cuzk {
namespace {

using test::json;

struct Bn254 {
  static constexpr const char* key = "bn254";
  using G1 = ec::bn254::G1;
  using G2 = ec::bn254::G2;
  using G1A = ec::bn254::G1Affine;
  using G2A = ec::bn254::G2Affine;
  using Fq = ff::bn254::Fq;
  using Fr = ff::bn254::Fr;
  using Fq12 = ff::bn254::Fq12;
  static G1A g1() { return ec::bn254::g1_generator(); }
  static G2A g2() { return ec::bn254::g2_generator(); }
  static Fq12 pairing(const G1A& p, const G2A& q) { return ec::bn254::pairing(p, q); }
  static Fq12 miller_loop(std::span<const G1A> p, std::span<const G2A> q) { return ec::bn254::miller_loop(p, q); }
  static Fq12 final_exponentiation(const Fq12& f) { return ec::bn254::final_exponentiation(f); }
  static bool product_is_one(std::span<const G1A> p, std::span<const G2A> q) {
    return ec::bn254::pairing_product_is_one(p, q);
  }
  using Prepared = ec::bn254::G2Prepared;
  static Prepared prepare(const G2A& q) { return ec::bn254::prepare(q); }
  static Fq12 prepared_miller_loop(std::span<const G1A> p, std::span<const Prepared* const> q) {
    return ec::bn254::prepared_miller_loop(p, q);
  }
};

struct Bls12_381 {
  static constexpr const char* key = "bls12_381";
  using G1 = ec::bls12_381::G1;
  using G2 = ec::bls12_381::G2;
  using G1A = ec::bls12_381::G1Affine;
  using G2A = ec::bls12_381::G2Affine;
  using Fq = ff::bls12_381::Fq;
  using Fr = ff::bls12_381::Fr;
  using Fq12 = ff::bls12_381::Fq12;
  static G1A g1() { return ec::bls12_381::g1_generator(); }
  static G2A g2() { return ec::bls12_381::g2_generator(); }
  static Fq12 pairing(const G1A& p, const G2A& q) { return ec::bls12_381::pairing(p, q); }
  static Fq12 miller_loop(std::span<const G1A> p, std::span<const G2A> q) { return ec::bls12_381::miller_loop(p, q); }
  static Fq12 final_exponentiation(const Fq12& f) { return ec::bls12_381::final_exponentiation(f); }
  static bool product_is_one(std::span<const G1A> p, std::span<const G2A> q) {
    return ec::bls12_381::pairing_product_is_one(p, q);
  }
  using Prepared = ec::bls12_381::G2Prepared;
  static Prepared prepare(const G2A& q) { return ec::bls12_381::prepare(q); }
  static Fq12 prepared_miller_loop(std::span<const G1A> p, std::span<const Prepared* const> q) {
    return ec::bls12_381::prepared_miller_loop(p, q);
  }
};

template <class F12>
std::string show(const F12& a) {
  std::string s = "[";
  for (const auto* f6 : {&a.c0, &a.c1})
    for (const auto* f2 : {&f6->c0, &f6->c1, &f6->c2})
      s += ff::to_decimal(f2->c0) + ", " + ff::to_decimal(f2->c1) + (f6 == &a.c1 && f2 == &f6->c2 ? "]" : ", ");
  return s;
}

template <class F12>
::testing::AssertionResult same(const F12& got, const F12& want) {
  if (got == want) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\n  got  " << show(got) << "\n  want " << show(want);
}

template <class F12>
F12 pow_big(const F12& a, const ff::BigUint& k) {
  const auto& l = k.limbs();
  return l.empty() ? F12::one() : a.pow(l.data(), l.size());
}

template <class F12, class Fr>
F12 pow_fr(const F12& a, const Fr& k) {
  uint64_t v[Fr::N];
  k.to_canonical(v);
  return a.pow(v, Fr::N);
}

template <class C>
class PairingTest : public ::testing::Test {
 protected:
  using G1A = typename C::G1A;
  using G2A = typename C::G2A;
  using Fr = typename C::Fr;
  using Fq12 = typename C::Fq12;

  void SetUp() override {
    seed_ = test::test_seed();
    RecordProperty("seed", std::to_string(seed_));
    rng_ = test::test_rng();  // per test, so one test's draws do not shift another's
  }
  std::string trace() const { return std::string("CUZK_TEST_SEED=") + std::to_string(seed_) + " curve=" + C::key; }

  Fr scalar() {
    for (;;) {
      const Fr k = ff::random_element<Fr>(rng_);
      if (!k.is_zero()) return k;
    }
  }
  static G1A g1_mul(const G1A& p, const Fr& k) { return ec::mul_vartime(p, k).to_affine(); }
  static G2A g2_mul(const G2A& q, const Fr& k) { return ec::mul_vartime(q, k).to_affine(); }
  G1A random_g1() { return g1_mul(C::g1(), scalar()); }
  G2A random_g2() { return g2_mul(C::g2(), scalar()); }
  static Fr parse_fr(const json& j) { return test::parse_fq<Fr>(j); }

  uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};

using Curves = ::testing::Types<Bn254, Bls12_381>;
class CurveNames {
 public:
  template <class T>
  static std::string GetName(int) {
    return T::key;
  }
};
TYPED_TEST_SUITE(PairingTest, Curves, CurveNames);

// Every pairing vector of the oracle: cuzk's value is noble's own output e^k.
TYPED_TEST(PairingTest, MatchesNobleVectors) {
  using C = TypeParam;
  using Fq12 = typename C::Fq12;
  SCOPED_TRACE(this->trace());
  const json& v = test::noble_vectors(this->seed_).at(C::key);
  ff::BigUint k;
  ASSERT_TRUE(ff::BigUint::from_decimal(v.at("noble_final_exp_multiplier").template get<std::string>(), k));

  const json& pairs = v.at("pairing");
  ASSERT_GE(pairs.size(), 3u);
  size_t infinities = 0;
  for (size_t i = 0; i < pairs.size(); ++i) {
    SCOPED_TRACE("pairing vector " + std::to_string(i));
    const auto p = test::parse_point<typename C::G1>(pairs[i].at("p"));
    const auto q = test::parse_point<typename C::G2>(pairs[i].at("q"));
    ASSERT_TRUE(ec::in_subgroup(p));
    ASSERT_TRUE(ec::in_subgroup(q));
    const Fq12 e = test::parse_fq12<Fq12>(pairs[i].at("e"));
    const Fq12 got = C::pairing(p, q);
    EXPECT_TRUE(same(got, pow_big(e, k)));
    if (p.is_inf() || q.is_inf()) {
      ++infinities;
      EXPECT_TRUE(got.is_one());
      EXPECT_TRUE(e.is_one());
    }
  }
  EXPECT_EQ(infinities, 2u);  // the oracle ends with (O, Q) and (P, O)

  // The first vector is e(G1, G2).
  EXPECT_TRUE(test::parse_point<typename C::G1>(pairs[0].at("p")) == C::g1());
  EXPECT_TRUE(test::parse_point<typename C::G2>(pairs[0].at("q")) == C::g2());

  // "bilinear": e(a G1, b G2) = e_ab^k = e(G1, G2)^(ab).
  const json& bl = v.at("bilinear");
  const auto a = this->parse_fr(bl.at("a")), b = this->parse_fr(bl.at("b"));
  const Fq12 e_ab = pow_big(test::parse_fq12<Fq12>(bl.at("e_ab")), k);
  EXPECT_TRUE(same(C::pairing(this->g1_mul(C::g1(), a), this->g2_mul(C::g2(), b)), e_ab));
  EXPECT_TRUE(same(pow_fr(C::pairing(C::g1(), C::g2()), a * b), e_ab));
}

// e(aP, Q) = e(P, aQ) = e(P, Q)^a, and e(-P, Q) = e(P, -Q) = e(P, Q)^-1.
TYPED_TEST(PairingTest, Bilinear) {
  using C = TypeParam;
  SCOPED_TRACE(this->trace());
  for (int i = 0; i < 2; ++i) {
    const auto p = this->random_g1();
    const auto q = this->random_g2();
    const auto a = this->scalar();
    const auto e = C::pairing(p, q);
    const auto want = pow_fr(e, a);
    EXPECT_TRUE(same(C::pairing(this->g1_mul(p, a), q), want));
    EXPECT_TRUE(same(C::pairing(p, this->g2_mul(q, a)), want));
    EXPECT_TRUE(same(C::pairing(-p, q), e.inverse()));
    EXPECT_TRUE(same(C::pairing(p, -q), e.conj()));  // GT is unitary
  }
}

// e(G1, G2) != 1 and e(G1, G2)^r = 1: a non-trivial r-th root of unity.
TYPED_TEST(PairingTest, NonDegenerateOfOrderR) {
  using C = TypeParam;
  using Fr = typename C::Fr;
  SCOPED_TRACE(this->trace());
  const auto e = C::pairing(C::g1(), C::g2());
  EXPECT_FALSE(e.is_one());
  uint64_t r[Fr::N];
  for (size_t i = 0; i < Fr::N; ++i) r[i] = Fr::params::modulus(i);
  EXPECT_TRUE(e.pow(r, Fr::N).is_one());
  // and so for a random pair
  const auto e2 = C::pairing(this->random_g1(), this->random_g2());
  EXPECT_FALSE(e2.is_one());
  EXPECT_TRUE(e2.pow(r, Fr::N).is_one());
}

// e(aP, bQ) e(-abP, Q) = 1, and a tampered product is not 1.
TYPED_TEST(PairingTest, MultiPairing) {
  using C = TypeParam;
  using G1A = typename C::G1A;
  using G2A = typename C::G2A;
  SCOPED_TRACE(this->trace());
  const auto p = this->random_g1();
  const auto q = this->random_g2();
  const auto a = this->scalar(), b = this->scalar();
  const G1A ap = this->g1_mul(p, a), abp_neg = -this->g1_mul(p, a * b);
  const G2A bq = this->g2_mul(q, b);
  {
    const G1A ps[] = {ap, abp_neg};
    const G2A qs[] = {bq, q};
    EXPECT_TRUE(C::product_is_one(ps, qs));
  }
  {  // pairs with an infinity point contribute 1
    const G1A ps[] = {G1A::infinity(), ap, p, abp_neg};
    const G2A qs[] = {q, bq, G2A::infinity(), q};
    EXPECT_TRUE(C::product_is_one(ps, qs));
  }
  {  // tampered on the G1 side: -(ab + 1)P
    const G1A ps[] = {ap, -this->g1_mul(p, a * b + C::Fr::one())};
    const G2A qs[] = {bq, q};
    EXPECT_FALSE(C::product_is_one(ps, qs));
  }
  {  // tampered on the G2 side: 2Q
    const G1A ps[] = {ap, abp_neg};
    const G2A qs[] = {bq, ec::Jacobian<typename C::G2>::from(q).dbl().to_affine()};
    EXPECT_FALSE(C::product_is_one(ps, qs));
  }
  {  // swapped pairs
    const G1A ps[] = {abp_neg, ap};
    const G2A qs[] = {bq, q};
    EXPECT_FALSE(C::product_is_one(ps, qs));
  }
  EXPECT_TRUE(C::product_is_one({}, {}));
  EXPECT_TRUE(C::miller_loop({}, {}).is_one());
  {
    const G1A ps[] = {ap, abp_neg};
    const G2A qs[] = {bq};
    EXPECT_THROW(C::product_is_one(ps, qs), std::invalid_argument);
  }
}

// Q's lines made once serve every P they meet, alone or beside other pairs,
// as a verifying key's gamma and delta do: the pairings come out as
// pairing() gives them (which MatchesNobleVectors checks against noble).
TYPED_TEST(PairingTest, PreparedLinesServeManyPoints) {
  using C = TypeParam;
  using G1A = typename C::G1A;
  using G2A = typename C::G2A;
  using Fq12 = typename C::Fq12;
  using Prepared = typename C::Prepared;
  SCOPED_TRACE(this->trace());
  const G2A q = this->random_g2(), r = this->random_g2();
  const Prepared pq = C::prepare(q), pr = C::prepare(r), none = C::prepare(G2A::infinity());
  EXPECT_TRUE(none.lines.empty());
  for (int i = 0; i < 3; ++i) {
    const G1A p = this->random_g1(), s = this->random_g1();
    const G1A one_p[] = {p};
    const Prepared* one_q[] = {&pq};
    EXPECT_TRUE(same(C::final_exponentiation(C::prepared_miller_loop(one_p, one_q)), C::pairing(p, q)));
    // Beside another prepared pair and pairs that contribute 1.
    const G1A ps[] = {p, s, s, G1A::infinity()};
    const Prepared* qs[] = {&pq, &pr, &none, &pr};
    const Fq12 want = C::pairing(p, q) * C::pairing(s, r);
    EXPECT_TRUE(same(C::final_exponentiation(C::prepared_miller_loop(ps, qs)), want));
    // A prepared pair and the points' loop give one Miller loop value.
    const G2A qs_affine[] = {q, r, G2A::infinity(), r};
    EXPECT_TRUE(same(C::prepared_miller_loop(ps, qs), C::miller_loop(ps, qs_affine)));
  }
  const G1A two[] = {C::g1(), C::g1()};
  const Prepared* one[] = {&pq};
  EXPECT_THROW(C::prepared_miller_loop(two, one), std::invalid_argument);
}

// final_exponentiation(miller_loop(P_i, Q_i)) = prod_i e(P_i, Q_i).
TYPED_TEST(PairingTest, FinalExponentiationOfProduct) {
  using C = TypeParam;
  using G1A = typename C::G1A;
  using G2A = typename C::G2A;
  using Fq12 = typename C::Fq12;
  SCOPED_TRACE(this->trace());
  std::vector<G1A> ps = {this->random_g1(), this->random_g1(), G1A::infinity(), this->random_g1(), C::g1()};
  std::vector<G2A> qs = {this->random_g2(), this->random_g2(), this->random_g2(), G2A::infinity(), C::g2()};
  Fq12 want = Fq12::one();
  for (size_t i = 0; i < ps.size(); ++i) want *= C::pairing(ps[i], qs[i]);
  EXPECT_TRUE(same(C::final_exponentiation(C::miller_loop(ps, qs)), want));
  // one pair at a time agrees with pairing()
  EXPECT_TRUE(same(C::final_exponentiation(C::miller_loop(std::span(ps).first(1), std::span(qs).first(1))),
                   C::pairing(ps[0], qs[0])));
}

// Granger-Scott squaring agrees with the general one on cyclotomic elements.
TYPED_TEST(PairingTest, CyclotomicSquare) {
  using C = TypeParam;
  using Fq = typename C::Fq;
  using Fq12 = typename C::Fq12;
  SCOPED_TRACE(this->trace());
  auto rnd2 = [&] { return typename Fq12::F2{ff::random_element<Fq>(this->rng_), ff::random_element<Fq>(this->rng_)}; };
  for (int i = 0; i < 4; ++i) {
    const Fq12 x{{rnd2(), rnd2(), rnd2()}, {rnd2(), rnd2(), rnd2()}};
    Fq12 m = x.conj() * x.inverse();  // x^((p^6 - 1)(p^2 + 1)): cyclotomic
    m = m.frobenius(2) * m;
    EXPECT_TRUE(same(ec::cyclotomic_sqr(m), m.sqr()));
    EXPECT_TRUE(same(m * m.conj(), Fq12::one()));
  }
  const Fq12 e = C::pairing(this->random_g1(), this->random_g2());
  EXPECT_TRUE(same(ec::cyclotomic_sqr(e), e.sqr()));
}

// BN254's twist Frobenius psi^-1 pi psi, used for the two extra lines, is
// multiplication by p on G2 and keeps points on the twist.
TEST(PairingBn254, TwistFrobeniusIsMultiplicationByP) {
  using namespace ec::bn254;
  const uint64_t seed = test::test_seed();
  SCOPED_TRACE("CUZK_TEST_SEED=" + std::to_string(seed));
  RecordProperty("seed", std::to_string(seed));
  std::mt19937_64 rng(seed);
  uint64_t p[Fq::N];
  for (size_t i = 0; i < Fq::N; ++i) p[i] = Fq::params::modulus(i);
  for (int i = 0; i < 3; ++i) {
    const G2Affine q =
        i == 0 ? g2_generator() : ec::mul_vartime(g2_generator(), ff::random_element<Fr>(rng)).to_affine();
    const G2Affine fq = twist_frobenius(q);
    EXPECT_TRUE(fq.on_curve());
    EXPECT_TRUE(fq == ec::mul_vartime(G2Jacobian::from(q), p, Fq::N).to_affine());
  }
  EXPECT_TRUE(twist_frobenius(G2Affine::infinity()).is_inf());
}

}  // namespace
}  // namespace cuzk
