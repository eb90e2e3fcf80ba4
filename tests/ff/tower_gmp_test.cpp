// Fq2, Fq6 and Fq12 products of both towers against an independent schoolbook
// model over GMP integers (Fq2 = Fq[u]/(u^2 + 1), Fq12 = Fq2[w]/(w^6 - xi)),
// and the Fq2 inverse and quadratic character through the norm.
//
// The seed comes from cuzk::test::test_seed() (CUZK_TEST_SEED replays a run).
#include <gmp.h>
#include <gmpxx.h>

#include "tower_fixture.hpp"

namespace {

TYPED_TEST_SUITE(Tower, Towers, TowerName);

// Against an independent schoolbook model over GMP integers.

template <class Tw>
struct Model {
  using Fq = typename Tw::Fq;
  using Fq2 = typename Tw::Fq2;
  using Fq6 = typename Tw::Fq6;
  using Fq12 = typename Tw::Fq12;
  static constexpr size_t N = Fq::N;

  struct G2 {
    mpz_class a, b;  // a + b u
  };

  mpz_class p;
  G2 xi;

  Model() {
    const auto pl = modulus_limbs<Fq>();
    mpz_import(p.get_mpz_t(), N, -1, 8, 0, 0, pl.data());
    xi = {mpz_class(CurveName<Tw>::xi_c0), mpz_class(1)};  // the published non-residue
  }

  mpz_class mod(const mpz_class& z) const {
    mpz_class r;
    mpz_mod(r.get_mpz_t(), z.get_mpz_t(), p.get_mpz_t());
    return r;
  }
  mpz_class of(const Fq& x) const {
    uint64_t v[N];
    x.to_canonical(v);
    mpz_class z;
    mpz_import(z.get_mpz_t(), N, -1, 8, 0, 0, v);
    return z;
  }
  Fq to_fq(const mpz_class& z) const {
    const mpz_class r = mod(z);
    uint64_t v[N] = {};
    size_t count = 0;
    if (sgn(r) != 0) mpz_export(v, &count, -1, 8, 0, 0, r.get_mpz_t());
    Fq x;
    EXPECT_TRUE(Fq::from_canonical(v, x));
    return x;
  }
  G2 of(const Fq2& x) const { return {of(x.c0), of(x.c1)}; }
  Fq2 to_fq2(const G2& g) const { return {to_fq(g.a), to_fq(g.b)}; }

  G2 add(const G2& x, const G2& y) const { return {mod(x.a + y.a), mod(x.b + y.b)}; }
  G2 sub(const G2& x, const G2& y) const { return {mod(x.a - y.a), mod(x.b - y.b)}; }
  // (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + (a0 b1 + a1 b0) u, as u^2 = -1.
  G2 mul(const G2& x, const G2& y) const { return {mod(x.a * y.a - x.b * y.b), mod(x.a * y.b + x.b * y.a)}; }
  G2 inv(const G2& x) const {
    mpz_class n = mod(x.a * x.a + x.b * x.b), ni;
    if (mpz_invert(ni.get_mpz_t(), n.get_mpz_t(), p.get_mpz_t()) == 0) ni = 0;
    return {mod(x.a * ni), mod(-x.b * ni)};
  }

  // Fq12 as sum_k a_k w^k over Fq2 with w^6 = xi; Fq6 as its even part in v = w^2.
  std::vector<G2> poly(const Fq12& x) const {
    return {of(x.c0.c0), of(x.c1.c0), of(x.c0.c1), of(x.c1.c1), of(x.c0.c2), of(x.c1.c2)};
  }
  Fq12 to_fq12(const std::vector<G2>& a) const {
    return {{to_fq2(a[0]), to_fq2(a[2]), to_fq2(a[4])}, {to_fq2(a[1]), to_fq2(a[3]), to_fq2(a[5])}};
  }
  std::vector<G2> poly(const Fq6& x) const { return {of(x.c0), of(x.c1), of(x.c2)}; }
  Fq6 to_fq6(const std::vector<G2>& a) const { return {to_fq2(a[0]), to_fq2(a[1]), to_fq2(a[2])}; }

  // Schoolbook product modulo X^n - xi.
  std::vector<G2> mul(const std::vector<G2>& x, const std::vector<G2>& y) const {
    const size_t n = x.size();
    std::vector<G2> full(2 * n - 1, G2{0, 0});
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j) full[i + j] = add(full[i + j], mul(x[i], y[j]));
    std::vector<G2> r(full.begin(), full.begin() + n);
    for (size_t k = n; k < 2 * n - 1; ++k) r[k - n] = add(r[k - n], mul(xi, full[k]));
    return r;
  }
};

TYPED_TEST(Tower, Fq2AgainstSchoolbookGmp) {
  SEED_TRACE();
  using Tw = TypeParam;
  using Fq2 = typename Tw::Fq2;
  const Model<Tw> m;
  auto rng = test_rng();
  auto same = [&](const Fq2& got, const typename Model<Tw>::G2& want) {
    return m.of(got.c0) == want.a && m.of(got.c1) == want.b;
  };
  for (int i = 0; i < 5000; ++i) {
    const Fq2 x = rnd<Fq2>(rng), y = rnd<Fq2>(rng);
    const auto gx = m.of(x), gy = m.of(y);
    ASSERT_EQ(m.to_fq2(gx), x);
    ASSERT_TRUE(same(x + y, m.add(gx, gy)));
    ASSERT_TRUE(same(x - y, m.sub(gx, gy)));
    ASSERT_TRUE(same(-x, m.sub({0, 0}, gx)));
    ASSERT_TRUE(same(x * y, m.mul(gx, gy))) << "Fq2 product differs from schoolbook";
    ASSERT_TRUE(same(x.sqr(), m.mul(gx, gx))) << "Fq2 square differs from schoolbook";
    ASSERT_TRUE(same(Tw::mul_by_xi(x), m.mul(m.xi, gx)));
    ASSERT_EQ(m.of(x.norm()), m.mod(gx.a * gx.a + gx.b * gx.b));
    if (i < 1000) {
      ASSERT_TRUE(same(x.inverse(), m.inv(gx))) << "Fq2 inverse differs";
    }
    // The character through the norm, by GMP.
    if (i < 1000) {
      const mpz_class n = m.mod(gx.a * gx.a + gx.b * gx.b);
      ASSERT_EQ(x.legendre(), mpz_legendre(n.get_mpz_t(), m.p.get_mpz_t()));
    }
  }
}

TYPED_TEST(Tower, Fq6AndFq12AgainstSchoolbookGmp) {
  SEED_TRACE();
  using Tw = TypeParam;
  using Fq6 = typename Tw::Fq6;
  using Fq12 = typename Tw::Fq12;
  const Model<Tw> m;
  auto rng = test_rng();
  for (int i = 0; i < 300; ++i) {
    const Fq6 a = rnd<Fq6>(rng), b = rnd<Fq6>(rng);
    ASSERT_EQ(a * b, m.to_fq6(m.mul(m.poly(a), m.poly(b)))) << "Fq6 product differs from schoolbook";
    ASSERT_EQ(a.sqr(), m.to_fq6(m.mul(m.poly(a), m.poly(a))));
    const Fq12 x = rnd<Fq12>(rng), y = rnd<Fq12>(rng);
    ASSERT_EQ(x * y, m.to_fq12(m.mul(m.poly(x), m.poly(y)))) << "Fq12 product differs from schoolbook";
    ASSERT_EQ(x.sqr(), m.to_fq12(m.mul(m.poly(x), m.poly(x)))) << "Fq12 square differs from schoolbook";
  }
}

}  // namespace
