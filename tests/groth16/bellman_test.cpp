// Keys in bellman's convention (groth16/keys.hpp), checked against what
// bellperson's generator and prover compute, from first principles: the
// domain's roots are zkcrypto's, H is [τ^i Z(τ)/δ]₁ and A [u_i(τ)]₁ by the
// product formula for the Lagrange basis, the prover's h equals the quotient
// of (A·B − C)(X) by Z(X) found by naive polynomial division, a circuit with
// variables absent from A or B yields shorter queries that still prove, and
// the same circuit and toxic waste prove under both conventions.
#include <gtest/gtest.h>

#include <vector>

#include "cuzk/circuit/examples/hash_chain.hpp"
#include "cuzk/circuit/matrices.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/ec/ops.hpp"
#include "cuzk/ff/encode.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "seed.hpp"
#include "setup_support.hpp"

namespace cuzk::test {
namespace {

using E = ec::Bls12_381;
using Fr = E::Fr;
using circuit::Variable;
using groth16::Convention;

// x public; a in A only, b in B only, z in C only, and x in no B row:
//   a · b = y,  (y + x) · 1 = z.
// Wires: 0 one, 1 x, 2 a, 3 b, 4 y, 5 z.
struct Sparse {
  using Curve = E;
  uint64_t seed = 0;

  template <class CS>
  void synthesize(CS& cs) const {
    const Fr x = Fr::from_uint(seed + 3), a = Fr::from_uint(seed + 5), b = Fr::from_uint(2 * seed + 7);
    const Variable xv = cs.alloc_input("x", [=](const auto&) { return x; });
    const Variable av = cs.alloc("a", [=](const auto&) { return a; });
    const Variable bv = cs.alloc("b", [=](const auto&) { return b; });
    const Variable y = cs.alloc("y", [&](const auto& v) { return v[av] * v[bv]; });
    cs.enforce("a*b=y", av, bv, y);
    const Variable z = cs.alloc("z", [&](const auto& v) { return v[y] + v[xv]; });
    cs.enforce("(y+x)*1=z", [&](auto lc) { return lc + y + xv; }, Variable::one(), z);
  }
};

ec::Affine<E::G1> times(const ec::Affine<E::G1>& p, const Fr& k) { return ec::mul_vartime(p, k).to_affine(); }

Fr power(const Fr& x, uint64_t e) { return x.pow(&e, 1); }

// zkcrypto bls12_381 / blstrs Scalar::ROOT_OF_UNITY, 7^((r-1)/2^32), as
// published (canonical limbs, least significant first).
Fr zkcrypto_root_of_unity() {
  const uint64_t limbs[4] = {0x3829971f439f0d2b, 0xb63683508c2280b9, 0xd09b681922c813b4, 0x16a2a19edfe81f20};
  Fr r;
  EXPECT_TRUE(Fr::from_canonical(limbs, r));
  return r;
}

// bellperson's ω for a domain of 2^k: ROOT_OF_UNITY squared 32 − k times.
Fr bellperson_omega(unsigned k) {
  Fr w = zkcrypto_root_of_unity();
  for (unsigned j = 32; j > k; --j) w = w.sqr();
  return w;
}

groth16::SharedKey<E> prepare(groth16::DevKey<E> dev) { return groth16::PreparedKey<E>::make(groth16::share(std::move(dev))); }

template <class C>
groth16::Proof<E> prove(const groth16::PreparedKey<E>& key, const C& circuit, std::vector<Fr>* publics = nullptr) {
  auto in = circuit::synthesize_assignment(circuit);
  const auto pending = groth16::prove_start(key, std::span<const Fr>(in.w), std::span<Fr>(in.a), std::span<Fr>(in.b),
                                            std::span<Fr>(in.c));
  if (publics) *publics = pending.publics;
  return groth16::prove_finish(key, pending);
}

TEST(BellmanConvention, DomainRootsAreZkcryptos) {
  EXPECT_EQ(poly::Domain<Fr>::two_adic_root(poly::Roots::bellman), zkcrypto_root_of_unity());
  for (unsigned k : {1u, 4u, 13u, 31u}) {
    const poly::Domain<Fr> d(k, poly::Roots::bellman);
    EXPECT_EQ(d.omega(), bellperson_omega(k)) << k;
    EXPECT_EQ(d.coset_shift(), Fr::from_uint(7)) << "MULTIPLICATIVE_GENERATOR";
    if (k > 1) {
      EXPECT_NE(d.omega(), poly::Domain<Fr>(k).omega()) << "snarkjs's roots differ from bellman's (but −1)";
    }
  }
  EXPECT_THROW(poly::Domain<ec::Bn254::Fr>(4, poly::Roots::bellman), std::invalid_argument);
}

// H_i = [τ^i Z(τ)/δ]₁ and A, B over the dense variables, u and v by the
// product formula on bellperson's domain, the input rows included.
TEST(BellmanConvention, KeyIsBellpersonsGenerator) {
  SEED_TRACE();
  auto rng = test_rng();
  const auto t = toxic<E>(rng);
  const auto m = circuit::constraint_matrices(Sparse{});
  const auto dev = groth16::dev_setup(m, t, 0, Convention::bellman);
  const auto& k = dev.key;
  const size_t n = 4;  // 2 constraints and 2 input constraints
  ASSERT_EQ(k.domain_size(), n);
  ASSERT_EQ(k.h.size(), n - 1);
  const auto g1 = ec::generator<E::G1>();
  const auto g2 = ec::generator<E::G2>();
  const Fr z = power(t.tau, n) - Fr::one(), delta_inv = t.delta.inverse();
  for (size_t i = 0; i + 1 < n; ++i) EXPECT_EQ(k.h[i], times(g1, power(t.tau, i) * z * delta_inv)) << "H " << i;

  std::vector<Fr> y(n), lag(n);
  for (size_t j = 0; j < n; ++j) y[j] = power(bellperson_omega(2), j);
  for (size_t j = 0; j < n; ++j) {
    Fr num = Fr::one(), den = Fr::one();
    for (size_t i = 0; i < n; ++i)
      if (i != j) num *= t.tau - y[i], den *= y[j] - y[i];
    lag[j] = num * den.inverse();
  }
  std::vector<Fr> u(m.n_vars, Fr::zero()), v(m.n_vars, Fr::zero());
  for (size_t c = 0; c < m.n_constraints(); ++c) {
    for (const auto& term : m.lc(c, 0)) u[term.wire] += term.coef * lag[c];
    for (const auto& term : m.lc(c, 1)) v[term.wire] += term.coef * lag[c];
  }
  for (uint32_t s = 0; s <= m.n_public; ++s) u[s] += lag[m.n_constraints() + s];  // x · 0 = 0

  const std::vector<uint32_t> in_a = {0, 1, 2, 4}, in_b = {0, 3};
  ASSERT_EQ(k.a.size(), in_a.size());
  ASSERT_EQ(k.b1.size(), in_b.size());
  ASSERT_EQ(k.b2.size(), in_b.size());
  for (size_t i = 0; i < in_a.size(); ++i) EXPECT_EQ(k.a[i], times(g1, u[in_a[i]])) << "A of wire " << in_a[i];
  for (size_t i = 0; i < in_b.size(); ++i) {
    EXPECT_EQ(k.b1[i], times(g1, v[in_b[i]])) << "B1 of wire " << in_b[i];
    EXPECT_EQ(k.b2[i], ec::mul_vartime(g2, v[in_b[i]]).to_affine()) << "B2 of wire " << in_b[i];
  }
  for (uint32_t w = 0; w < m.n_vars; ++w) {
    EXPECT_EQ(k.a_density.has(w), std::ranges::count(in_a, w) == 1) << w;
    EXPECT_EQ(k.b_density.has(w), std::ranges::count(in_b, w) == 1) << w;
  }
  EXPECT_EQ(k.c.size(), m.n_vars - m.n_public - 1) << "L covers every private variable";
}

// A variable absent from A (b, z) or from B (x, a, y, z) has no point there,
// and the shorter queries still prove and verify.
TEST(BellmanConvention, SparseCircuitProvesWithShorterQueries) {
  const auto key = prepare(groth16::dev_setup(circuit::constraint_matrices(Sparse{}), groth16::ToxicWaste<E>::draw(), 0,
                                              Convention::bellman));
  ASSERT_EQ(key->key().n_vars(), 6u);
  EXPECT_EQ(key->key().a.size(), 4u);
  EXPECT_EQ(key->key().b1.size(), 2u);
  std::vector<Fr> publics, other;
  const auto proof = prove(*key, Sparse{1}, &publics);
  EXPECT_TRUE(groth16::verify<E>(key->vk(), publics, proof));
  const auto proof2 = prove(*key, Sparse{2}, &other);
  EXPECT_TRUE(groth16::verify<E>(key->vk(), other, proof2));
  ASSERT_NE(publics, other);
  EXPECT_FALSE(groth16::verify<E>(key->vk(), publics, proof2));
}

// One circuit, one toxic waste, both conventions: each proof verifies under
// its own key, and not under the other's (their IC differ with the roots).
TEST(BellmanConvention, BothConventionsProveTheSameCircuit) {
  const auto m = circuit::constraint_matrices(circuit::HashChain<E>::for_constraints(64, 0));
  const auto t = groth16::ToxicWaste<E>::draw();
  const auto bellman = prepare(groth16::dev_setup(m, t, 0, Convention::bellman));
  const auto snarkjs = prepare(groth16::dev_setup(m, t, 0, Convention::snarkjs));
  EXPECT_EQ(bellman->key().convention, Convention::bellman);
  EXPECT_EQ(snarkjs->key().convention, Convention::snarkjs);
  EXPECT_EQ(bellman->vk().alpha1, snarkjs->vk().alpha1);
  EXPECT_EQ(bellman->vk().delta2, snarkjs->vk().delta2);
  EXPECT_EQ(bellman->key().h.size() + 1, snarkjs->key().h.size());
  const auto chain = circuit::HashChain<E>::for_constraints(64, 5);
  std::vector<Fr> pb, ps;
  const auto by_bellman = prove(*bellman, chain, &pb), by_snarkjs = prove(*snarkjs, chain, &ps);
  ASSERT_EQ(pb, ps);
  EXPECT_TRUE(groth16::verify<E>(bellman->vk(), pb, by_bellman));
  EXPECT_TRUE(groth16::verify<E>(snarkjs->vk(), ps, by_snarkjs));
  EXPECT_FALSE(groth16::verify<E>(snarkjs->vk(), ps, by_bellman));
  EXPECT_FALSE(groth16::verify<E>(bellman->vk(), pb, by_snarkjs));
}

// prove_start leaves h in a: under bellman's convention its coefficients,
// which must be the quotient of A(X)·B(X) − C(X) by Xⁿ − 1 for the
// polynomials through a, b, c on bellperson's domain, by naive interpolation
// and long division.
TEST(BellmanConvention, QuotientIsNaivePolynomialDivision) {
  SEED_TRACE();
  auto rng = test_rng();
  const auto key = prepare(groth16::dev_setup(
      circuit::constraint_matrices(circuit::HashChain<E>::for_constraints(32, 0)), groth16::ToxicWaste<E>::draw(), 0,
      Convention::bellman));
  const size_t n = key->key().domain_size();
  ASSERT_EQ(n, 32u);
  std::vector<Fr> a(n), b(n), c(n), w(key->key().n_vars());
  for (size_t j = 0; j < n; ++j) a[j] = ff::random_element<Fr>(rng), b[j] = ff::random_element<Fr>(rng), c[j] = a[j] * b[j];
  for (auto& x : w) x = ff::random_element<Fr>(rng);

  // Coefficients by the inverse DFT's definition, ω^-1 from bellperson's ω.
  const Fr omega_inv = bellperson_omega(5).inverse(), n_inv = Fr::from_uint(n).inverse();
  const auto interpolate = [&](const std::vector<Fr>& values) {
    std::vector<Fr> coef(n, Fr::zero());
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) coef[i] += values[j] * power(omega_inv, (i * j) % n);
      coef[i] *= n_inv;
    }
    return coef;
  };
  const auto pa = interpolate(a), pb = interpolate(b), pc = interpolate(c);
  std::vector<Fr> p(2 * n - 1, Fr::zero());
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) p[i + j] += pa[i] * pb[j];
  for (size_t i = 0; i < n; ++i) p[i] -= pc[i];
  std::vector<Fr> q(n - 1, Fr::zero());  // p = q·(Xⁿ − 1) + remainder
  for (size_t d = 2 * n - 2; d >= n; --d) {
    q[d - n] = p[d];
    p[d - n] += p[d];
    p[d] = Fr::zero();
  }
  for (size_t i = 0; i < n; ++i) ASSERT_TRUE(p[i].is_zero()) << "Xⁿ − 1 divides A·B − C, remainder " << i;

  groth16::prove_start(*key, std::span<const Fr>(w), std::span<Fr>(a), std::span<Fr>(b), std::span<Fr>(c));
  for (size_t i = 0; i + 1 < n; ++i) EXPECT_EQ(a[i], q[i]) << "coefficient " << i;
  EXPECT_TRUE(a[n - 1].is_zero()) << "deg h ≤ n − 2: the top coefficient, which has no H point";
}

TEST(BellmanConvention, RefusesWhatBellpersonRefuses) {
  auto m = circuit::constraint_matrices(Sparse{});
  m.n_vars += 1;  // a private variable in no constraint: bellperson's UnconstrainedVariable
  try {
    groth16::dev_setup(m, groth16::ToxicWaste<E>::draw(), 0, Convention::bellman);
    ADD_FAILURE() << "an unconstrained variable was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("private signal 6 is in no constraint"), std::string::npos) << e.what();
  }
  // The same matrices make a snarkjs key, where that variable's points are infinity.
  EXPECT_NO_THROW(groth16::dev_setup(m, groth16::ToxicWaste<E>::draw(), 0, Convention::snarkjs));
  r1cs::ConstraintMatrices<ec::Bn254> bn;
  EXPECT_THROW(groth16::dev_setup(bn, groth16::ToxicWaste<ec::Bn254>::draw(), 0, Convention::bellman),
               std::invalid_argument);
}

// A key whose A holds fewer points than its density names is refused when
// prepared, not proved into a wrong proof.
TEST(BellmanConvention, PreparedKeyChecksTheDensities) {
  auto dev = groth16::dev_setup(circuit::constraint_matrices(Sparse{}), groth16::ToxicWaste<E>::draw(), 0,
                                Convention::bellman);
  dev.key.a = dev.key.a.first(dev.key.a.size() - 1);
  EXPECT_THROW(prepare(std::move(dev)), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::test
