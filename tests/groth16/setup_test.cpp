// The development setup and the zkey writer, on both curves: every point
// against its definition with known toxic waste (Lagrange bases by the product
// formula), the QAP identity at τ for a fixture witness, the shape of
// snarkjs's own keys for the fixture circuits, write/read round trips, and
// dev keys that our prover and snarkjs both prove and verify with.
#include "cuzk/groth16/setup.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>

#include "../io/io_test_support.hpp"
#include "cuzk/ff/encode.hpp"
#include "cuzk/groth16/detail/assemble.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/r1cs.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey.hpp"
#include "cuzk/io/zkey_writer.hpp"
#include "cuzk/msm/pippenger_host.hpp"
#include "cuzk/poly/ntt.hpp"
#include "cuzk/util/progress.hpp"
#include "seed.hpp"
#include "setup_support.hpp"

namespace cuzk::test {
namespace {

using r1cs::ConstraintMatrices;
using groth16::ToxicWaste;

template <class E>
class Setup : public ::testing::Test {};
using Curves = ::testing::Types<ec::Bn254, ec::Bls12_381>;
TYPED_TEST_SUITE(Setup, Curves);

template <class C>
ec::Affine<C> times(const ec::Affine<C>& p, const typename C::Fr& k) {
  return ec::mul_vartime(p, k).to_affine();
}

// L_j(τ) for the points y, from the product formula.
template <class Fr>
std::vector<Fr> naive_lagrange(const std::vector<Fr>& y, const Fr& tau) {
  std::vector<Fr> l(y.size());
  for (size_t j = 0; j < y.size(); ++j) {
    Fr num = Fr::one(), den = Fr::one();
    for (size_t k = 0; k < y.size(); ++k)
      if (k != j) num *= tau - y[k], den *= y[j] - y[k];
    l[j] = num * den.inverse();
  }
  return l;
}

template <class Fr>
Fr power(const Fr& x, uint64_t e) {
  return x.pow(&e, 1);
}

template <class E>
auto coef_key(const groth16::Coef<E>& c) {
  std::array<uint64_t, E::Fr::N> v;
  std::copy(std::begin(c.value.limb), std::end(c.value.limb), v.begin());
  return std::tuple(c.matrix, c.constraint, c.signal, v);
}

template <class E>
auto sorted_coefs(const groth16::ProvingKey<E>& k) {
  std::vector<decltype(coef_key(k.coefs[0]))> v;
  for (const auto& c : k.coefs) v.push_back(coef_key(c));
  std::sort(v.begin(), v.end());
  return v;
}

template <class E>
groth16::DevKey<E> fixture_key(const std::string& circuit) {
  const auto r1cs = io::R1cs::open(fixture(ec::curve_name(E::id), circuit, "circuit.r1cs"));
  return groth16::dev_setup(r1cs.template as<E>(), ToxicWaste<E>::draw());
}

template <class E>
std::vector<typename E::Fr> fixture_witness(const std::string& circuit) {
  return io::read_wtns(fixture(ec::curve_name(E::id), circuit, "witness.wtns")).template as<E>();
}

template <class P>
std::vector<bool> infinities(std::span<const P> p) {
  std::vector<bool> v;
  for (const auto& x : p) v.push_back(x.is_inf());
  return v;
}

TYPED_TEST(Setup, PointsAreTheQapAtTau) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  SEED_TRACE();
  auto rng = test_rng();
  // 13 constraints and 2 publics fill all 16 rows of the domain.
  const auto m = random_r1cs<E>(13, 12, 2, rng);
  const auto t = toxic<E>(rng);
  const auto d = groth16::dev_setup(m, t);
  const auto& k = d.key;
  ASSERT_EQ(k.domain_size(), 16u);
  ASSERT_EQ(k.n_vars(), 12u);
  ASSERT_EQ(k.n_public(), 2u);

  const poly::Domain<Fr> dom(4);
  std::vector<Fr> roots(16), coset(16);
  for (size_t j = 0; j < 16; ++j) roots[j] = power(dom.omega(), j), coset[j] = dom.coset_shift() * roots[j];
  const auto lag = naive_lagrange(roots, t.tau), lag_coset = naive_lagrange(coset, t.tau);

  std::vector<Fr> uvw[3];
  for (auto& x : uvw) x.assign(12, Fr::zero());
  for (size_t c = 0; c < 13; ++c)
    for (int mat = 0; mat < 3; ++mat)
      for (const auto& term : m.lc(c, mat)) uvw[mat][term.wire] += term.coef * lag[c];
  for (size_t s = 0; s <= 2; ++s) uvw[0][s] += lag[13 + s];

  const auto g1 = ec::generator<typename E::G1>();
  const auto g2 = ec::generator<typename E::G2>();
  for (size_t i = 0; i < 12; ++i) {
    SCOPED_TRACE("signal " + std::to_string(i));
    EXPECT_EQ(k.a[i], times(g1, uvw[0][i]));
    EXPECT_EQ(k.b1[i], times(g1, uvw[1][i]));
    EXPECT_EQ(k.b2[i], times(g2, uvw[1][i]));
    const Fr kk = t.beta * uvw[0][i] + t.alpha * uvw[1][i] + uvw[2][i];
    EXPECT_EQ(i <= 2 ? k.ic[i] : k.c[i - 3], times(g1, kk * (i <= 2 ? t.gamma : t.delta).inverse()));
  }
  EXPECT_TRUE(k.a.back().is_inf() && k.b1.back().is_inf() && k.b2.back().is_inf() && k.c.back().is_inf());

  const Fr g_n = power(dom.coset_shift(), 16), z = power(t.tau, 16) - Fr::one();
  const Fr h_scale = z * ((g_n - Fr::one()) * t.delta).inverse();
  ec::Jacobian<typename E::G1> sum = ec::Jacobian<typename E::G1>::infinity();
  for (size_t j = 0; j < 16; ++j) {
    EXPECT_EQ(k.h[j], times(g1, lag_coset[j] * h_scale)) << "H " << j;
    sum = sum.add(k.h[j]);
  }
  // The coset's Lagrange basis sums to 1.
  EXPECT_EQ(sum.to_affine(), times(g1, h_scale));

  EXPECT_EQ(k.alpha1, times(g1, t.alpha));
  EXPECT_EQ(k.beta1, times(g1, t.beta));
  EXPECT_EQ(k.delta1, times(g1, t.delta));
  EXPECT_EQ(k.beta2, times(g2, t.beta));
  EXPECT_EQ(k.gamma2, times(g2, t.gamma));
  EXPECT_EQ(k.delta2, times(g2, t.delta));
}

// For a satisfying witness, Σ w_i A_i = [A(τ)]₁ (and so on), and the H points
// turn the prover's h, computed on the coset, into [(A(τ)B(τ) - C(τ))/δ]₁.
TYPED_TEST(Setup, QapIdentityHoldsAtTau) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  using G1 = typename E::G1;
  SEED_TRACE();
  auto rng = test_rng();
  const std::string curve = ec::curve_name(E::id);
  const auto r1cs = io::R1cs::open(fixture(curve, "multiplier", "circuit.r1cs"));
  const auto& m = r1cs.as<E>();
  const auto w = fixture_witness<E>("multiplier");
  const auto t = toxic<E>(rng);
  const auto d = groth16::dev_setup(m, t);
  const auto& k = d.key;
  const size_t n = k.domain_size(), nc = m.n_constraints(), np = k.n_public();
  const auto dom = poly::Domain<Fr>::of_size(n);

  // a, b, c on the rows from the .r1cs, then A, B, C(τ) from their coefficients.
  std::vector<Fr> abc[3];
  Fr at_tau[3];
  for (int mat = 0; mat < 3; ++mat) {
    abc[mat].assign(n, Fr::zero());
    for (size_t c = 0; c < nc; ++c)
      for (const auto& term : m.lc(c, mat)) abc[mat][c] += term.coef * w[term.wire];
    if (mat == 0)
      for (size_t s = 0; s <= np; ++s) abc[0][nc + s] = w[s];
    poly::intt(dom, std::span<Fr>(abc[mat]));
    at_tau[mat] = Fr::zero();
    for (size_t i = n; i-- > 0;) at_tau[mat] = at_tau[mat] * t.tau + abc[mat][i];
  }
  const auto& [A, B, C] = at_tau;
  ASSERT_FALSE((A * B - C).is_zero());

  const auto g1 = ec::generator<typename E::G1>();
  const auto g2 = ec::generator<typename E::G2>();
  const std::span<const Fr> ws(w);
  EXPECT_EQ(msm::msm<G1>(k.a, ws).to_affine(), times(g1, A));
  EXPECT_EQ(msm::msm<G1>(k.b1, ws).to_affine(), times(g1, B));
  EXPECT_EQ(msm::msm<typename E::G2>(k.b2, ws).to_affine(), times(g2, B));
  const auto ic = msm::msm<G1>(k.ic, ws.first(np + 1)).to_affine();
  const auto cc = msm::msm<G1>(k.c, ws.subspan(np + 1)).to_affine();
  EXPECT_EQ(ec::mul_vartime(ic, t.gamma).add(ec::mul_vartime(cc, t.delta)).to_affine(),
            times(g1, t.beta * A + t.alpha * B + C));

  std::vector<Fr> h(n);
  for (auto& x : abc) poly::coset_ntt(dom, std::span<Fr>(x), dom.coset_shift());
  for (size_t j = 0; j < n; ++j) h[j] = abc[0][j] * abc[1][j] - abc[2][j];
  EXPECT_EQ(msm::msm<G1>(k.h, std::span<const Fr>(h)).to_affine(), times(g1, (A * B - C) * t.delta.inverse()));
}

// snarkjs's keys for the fixture circuits, whose toxic waste is unknown, agree
// with ours wherever the toxic waste does not matter.
TYPED_TEST(Setup, ShapeMatchesSnarkjs) {
  using E = TypeParam;
  const std::string curve = ec::curve_name(E::id);
  for (const auto& facts : kCircuits) {
    SCOPED_TRACE(curve + "/" + facts.name);
    const auto zkey = io::Zkey::open(fixture(curve, facts.name, "circuit.zkey"));
    const auto& theirs = zkey.as<E>();
    const auto d = fixture_key<E>(facts.name);
    const auto& ours = d.key;
    EXPECT_EQ(ours.n_vars(), theirs.n_vars());
    EXPECT_EQ(ours.n_public(), theirs.n_public());
    EXPECT_EQ(ours.domain_size(), theirs.domain_size());
    EXPECT_EQ(sorted_coefs(ours), sorted_coefs(theirs));
    EXPECT_EQ(infinities(ours.a), infinities(theirs.a));
    EXPECT_EQ(infinities(ours.b1), infinities(theirs.b1));
    EXPECT_EQ(infinities(ours.b2), infinities(theirs.b2));
    EXPECT_EQ(infinities(ours.c), infinities(theirs.c));
    EXPECT_EQ(infinities(ours.ic), infinities(theirs.ic));
  }
}

TYPED_TEST(Setup, ZkeyRoundTrip) {
  using E = TypeParam;
  SEED_TRACE();
  auto rng = test_rng();
  auto made = groth16::dev_setup(random_r1cs<E>(40, 30, 3, rng), toxic<E>(rng));
  // A move keeps the vectors' buffers, so the key's spans still view them.
  const groth16::DevKey<E> d = std::move(made);
  ASSERT_EQ(d.key.a.data(), d.a.data());
  ASSERT_EQ(d.key.h.data(), d.h.data());
  const auto& k = d.key;

  TempDir tmp;
  io::write_zkey(tmp / "k.zkey", k);
  io::write_zkey(tmp / "k.zkey", k);  // over an existing file
  const auto zkey = io::Zkey::open(tmp / "k.zkey");
  const auto& h = zkey.header();
  EXPECT_EQ(h.curve, E::id);
  EXPECT_EQ(h.n_vars, 30u);
  EXPECT_EQ(h.n_public, 3u);
  EXPECT_EQ(h.domain_size, 64u);
  EXPECT_EQ(h.n_coefs, k.coefs.size());
  const auto& r = zkey.as<E>();
  EXPECT_TRUE(r.alpha1 == k.alpha1 && r.beta1 == k.beta1 && r.delta1 == k.delta1);
  EXPECT_TRUE(r.beta2 == k.beta2 && r.gamma2 == k.gamma2 && r.delta2 == k.delta2);
  EXPECT_TRUE(std::ranges::equal(r.ic, k.ic));
  EXPECT_TRUE(std::ranges::equal(r.a, k.a));
  EXPECT_TRUE(std::ranges::equal(r.b1, k.b1));
  EXPECT_TRUE(std::ranges::equal(r.b2, k.b2));
  EXPECT_TRUE(std::ranges::equal(r.c, k.c));
  EXPECT_TRUE(std::ranges::equal(r.h, k.h));
  ASSERT_EQ(r.coefs.size(), k.coefs.size());
  for (size_t i = 0; i < k.coefs.size(); ++i) ASSERT_EQ(coef_key(r.coefs[i]), coef_key(k.coefs[i])) << i;
  EXPECT_TRUE(r.a.back().is_inf());
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 1);
}

TYPED_TEST(Setup, DevKeysProveAndVerify) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const std::string curve = ec::curve_name(E::id);
  for (const auto& facts : kCircuits) {
    SCOPED_TRACE(curve + "/" + facts.name);
    const auto shared = groth16::PreparedKey<E>::make(groth16::share(fixture_key<E>(facts.name)));
    const auto& key = *shared;
    const auto w = fixture_witness<E>(facts.name);
    const size_t n = key.key().domain_size();
    std::vector<Fr> a(n), b(n), c(n);
    key.evaluate_abc(w, a, b, c);
    const auto pending =
        groth16::prove_start(key, std::span<const Fr>(w), std::span<Fr>(a), std::span<Fr>(b), std::span<Fr>(c));
    const auto proof = groth16::detail::assemble(key, pending, groth16::Randomness<Fr>::draw());
    EXPECT_TRUE(groth16::verify<E>(key.vk(), pending.publics, proof));
    EXPECT_NO_THROW(groth16::prove_finish(key, pending));
  }
}

// snarkjs takes a dev zkey as its own: it exports our verifying key, and its
// proof verifies in snarkjs and in our verifier.
TYPED_TEST(Setup, SnarkjsProvesWithDevZkey) {
  using E = TypeParam;
  const std::string curve = ec::curve_name(E::id);
  const auto d = fixture_key<E>("multiplier");
  TempDir tmp;
  io::write_zkey(tmp / "dev.zkey", d.key);
  const auto snarkjs = [&](const std::string& args) {
    const std::string cmd = "cd '" + tmp.path().string() + "' && '" + CUZK_SOURCE_DIR + "/node_modules/.bin/snarkjs' " +
                            args + " > snarkjs.log 2>&1";
    const int status = std::system(cmd.c_str());
    const Bytes log = read_bytes(tmp / "snarkjs.log");
    EXPECT_EQ(status, 0) << "snarkjs " << args << ":\n" << std::string(log.begin(), log.end());
    return status == 0;
  };
  ASSERT_TRUE(snarkjs("zkey export verificationkey dev.zkey vk.json"));
  ASSERT_TRUE(snarkjs("groth16 prove dev.zkey '" + fixture(curve, "multiplier", "witness.wtns").string() +
                      "' proof.json public.json"));
  ASSERT_TRUE(snarkjs("groth16 verify vk.json public.json proof.json"));
  const auto vk = groth16::verifying_key(d.key);
  EXPECT_EQ(io::read_vk_json<E>(tmp / "vk.json"), vk);
  EXPECT_TRUE(
      groth16::verify<E>(vk, io::read_public_json<E>(tmp / "public.json"), io::read_proof_json<E>(tmp / "proof.json")));
}

template <class Fn>
void expect_invalid(Fn fn, const std::string& text) {
  try {
    fn();
    ADD_FAILURE() << "no error, expected: " << text;
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(text), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

TYPED_TEST(Setup, ToxicWasteIsDrawnNonZero) {
  using E = TypeParam;
  const auto a = ToxicWaste<E>::draw(), b = ToxicWaste<E>::draw();
  for (const auto& x : {a.tau, a.alpha, a.beta, a.gamma, a.delta}) EXPECT_FALSE(x.is_zero());
  EXPECT_NE(a.tau, a.alpha);
  EXPECT_NE(a.tau, b.tau);
}

// The step reports every point of the key, over several chunks, weighting
// G2 as three: 3 · 4500 G1 points of A, B1, IC and C, 8192 of H, 3 · 4500
// for B2 make 35.2 k.
TYPED_TEST(Setup, ReportsProgressPerPoint) {
  using E = TypeParam;
  SEED_TRACE();
  auto rng = test_rng();
  const auto m = random_r1cs<E>(5000, 4500, 2, rng);
  std::FILE* f = std::tmpfile();
  set_progress_output({.out = f, .delay = 0, .line_period = 600});
  const auto d = groth16::dev_setup(m, toxic<E>(rng));
  set_progress_output({});
  ASSERT_EQ(d.key.domain_size(), 8192u);
  std::string text(std::ftell(f), '\0');
  std::rewind(f);
  text.resize(std::fread(text.data(), 1, text.size(), f));
  std::fclose(f);
  EXPECT_TRUE(text.starts_with("setup: ")) << text;
  EXPECT_NE(text.find(" of 35.2 k points), "), std::string::npos) << text;
  EXPECT_NE(text.find("\nsetup: done, 35.2 k points in "), std::string::npos) << text;
}

TYPED_TEST(Setup, RefusesDegenerateInputs) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  SEED_TRACE();
  auto rng = test_rng();
  // 2^s public signals need a domain of 2^(s+1): refused before anything is
  // allocated. (BLS12-381's s = 32 is out of reach of u32 signal counts.)
  if constexpr (E::id == ec::Curve::bn254) {
    constexpr unsigned s = poly::Domain<Fr>::max_log_size;
    ConstraintMatrices<E> huge;
    huge.n_public = 1u << s;
    huge.n_vars = huge.n_public + 1;
    expect_invalid([&] { groth16::dev_setup(huge, toxic<E>(rng)); },
                   "need a domain of 2^" + std::to_string(s + 1) + ", beyond the 2^" + std::to_string(s));
  }

  // 5 constraints + 2 publics: a domain of 8.
  const auto m = random_r1cs<E>(5, 6, 2, rng);
  const poly::Domain<Fr> dom(3);
  auto t = toxic<E>(rng);
  t.tau = power(dom.omega(), 3);
  expect_invalid([&] { groth16::dev_setup(m, t); }, "τ lies on the domain of size 2^3");
  t.tau = dom.coset_shift() * dom.omega();
  expect_invalid([&] { groth16::dev_setup(m, t); }, "or on its coset");
  t = toxic<E>(rng);
  t.delta = Fr::zero();
  expect_invalid([&] { groth16::dev_setup(m, t); }, "γ or δ zero");

  t = toxic<E>(rng);
  auto bad = m;
  bad.terms[0].wire = 6;
  expect_invalid([&] { groth16::dev_setup(bad, t); }, "uses wire 6 but n_vars is 6");
  bad = m;
  bad.n_public = 6;
  expect_invalid([&] { groth16::dev_setup(bad, t); }, "n_public 6 is not below n_vars 6");
}

// An unwritable path is an error naming it, and leaves nothing behind; so is
// a key whose arrays disagree.
TYPED_TEST(Setup, WriterFailsCleanly) {
  using E = TypeParam;
  SEED_TRACE();
  auto rng = test_rng();
  TempDir tmp;
  const auto d = groth16::dev_setup(random_r1cs<E>(5, 6, 2, rng), toxic<E>(rng));
  for (const fs::path& p : {tmp / "no-such-dir" / "k.zkey", tmp.path()}) {
    try {
      io::write_zkey(p, d.key);
      ADD_FAILURE() << "no error writing " << p;
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(p.string() + ": ", 0), 0u) << e.what();
    }
  }
  EXPECT_TRUE(fs::is_empty(tmp.path()));
  groth16::ProvingKey<E> bad = d.key;
  bad.c = bad.c.first(1);
  expect_invalid([&] { io::write_zkey(tmp / "bad.zkey", bad); }, "not n_vars, n_vars, n_vars and 3");
}

}  // namespace
}  // namespace cuzk::test
