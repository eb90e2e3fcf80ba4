// The CPU prover on the circom/snarkjs fixtures of both curves: a/b/c against
// the circuit's own .r1cs, proofs that verify (and that snarkjs verifies, in
// interop_test), the assembly against Groth16's definition computed here,
// randomness that changes the proof but not its validity, an unsatisfied
// witness refused, and the constant-time scalar multiplication against the
// variable-time one.
#include "cuzk/groth16/prover.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <new>
#include <random>
#include <span>
#include <thread>
#include <utility>

#include "../io/io_test_support.hpp"
#include "cuzk/ec/consttime.hpp"
#include "cuzk/ec/ops.hpp"
#include "cuzk/groth16/detail/assemble.hpp"
#include "cuzk/ff/encode.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/r1cs.hpp"
#include "cuzk/io/zkey.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

template <class E>
struct Proving {
  using Fr = typename E::Fr;
  io::Zkey zkey;
  groth16::SharedKey<E> shared;
  const groth16::PreparedKey<E>& key;
  std::vector<Fr> w;

  Proving(const std::string& curve, const std::string& circuit)
      : zkey(io::Zkey::open(fixture(curve, circuit, "circuit.zkey"))),
        shared(groth16::PreparedKey<E>::make(zkey.share<E>())),
        key(*shared),
        w(io::read_wtns(fixture(curve, circuit, "witness.wtns")).as<E>()) {}

  groth16::PendingProof<E> start(const std::vector<Fr>& witness) const {
    const size_t n = key.key().domain_size();
    std::vector<Fr> a(n), b(n), c(n);
    key.evaluate_abc(witness, a, b, c);
    return groth16::prove_start(key, std::span<const Fr>(witness), std::span<Fr>(a), std::span<Fr>(b),
                                std::span<Fr>(c));
  }
};

template <class E>
void check_fixture(const std::string& curve, const CircuitFacts& facts) {
  using Fr = typename E::Fr;
  SCOPED_TRACE(curve + "/" + facts.name);
  const Proving<E> p(curve, facts.name);
  const auto& pk = p.key.key();

  // a and b from the zkey's coefficients equal <A_i, w> and <B_i, w> from the
  // circuit's .r1cs (an independent file), c = a·b equals <C_i, w>, and row
  // n_constraints + s carries w[s] in a (snarkjs's public-input rows).
  const auto r1cs = io::R1cs::open(fixture(curve, facts.name, "circuit.r1cs"));
  const auto& m = r1cs.as<E>();
  const size_t n = pk.domain_size();
  std::vector<Fr> a(n), b(n), c(n);
  p.key.evaluate_abc(p.w, a, b, c);
  const auto dot = [&](size_t i, int mat) {
    Fr s = Fr::zero();
    for (const auto& t : m.lc(i, mat)) s += t.coef * p.w[t.wire];
    return s;
  };
  for (size_t i = 0; i < m.n_constraints(); ++i) {
    ASSERT_EQ(a[i], dot(i, 0)) << "row " << i;
    ASSERT_EQ(b[i], dot(i, 1)) << "row " << i;
    ASSERT_EQ(c[i], dot(i, 2)) << "row " << i;
  }
  for (size_t s = 0; s <= pk.n_public(); ++s) {
    EXPECT_EQ(a[m.n_constraints() + s], p.w[s]);
    EXPECT_TRUE(b[m.n_constraints() + s].is_zero());
  }
  for (size_t i = m.n_constraints() + pk.n_public() + 1; i < n; ++i) ASSERT_TRUE(a[i].is_zero() && b[i].is_zero());

  // Proofs verify; fresh randomness gives a different, equally valid proof.
  const auto pending = p.start(p.w);
  EXPECT_EQ(pending.publics, std::vector<Fr>(p.w.begin() + 1, p.w.begin() + 1 + facts.n_public));
  const auto proof1 = groth16::prove_finish(p.key, pending);
  const auto proof2 = groth16::prove_finish(p.key, pending);
  EXPECT_TRUE(groth16::verify<E>(p.key.vk(), pending.publics, proof1));
  EXPECT_TRUE(groth16::verify<E>(p.key.vk(), pending.publics, proof2));
  EXPECT_NE(proof1, proof2);

  // r = s = 0 is still a valid proof (the randomness hides the witness; it
  // is not what makes the proof valid); AssemblyFollowsTheDefinition checks
  // the assembly itself.
  const groth16::Randomness<Fr> zero{Fr::zero(), Fr::zero()};
  EXPECT_TRUE(groth16::verify<E>(p.key.vk(), pending.publics, groth16::detail::assemble(p.key, pending, zero)));

  // A witness that breaks one constraint is refused, not proved. The last
  // signal is private in every fixture, and used in some constraint.
  std::vector<Fr> bad = p.w;
  bad.back() += Fr::one();
  EXPECT_THROW(groth16::prove_finish(p.key, p.start(bad)), groth16::ProofError);
}

// Groth16's proof from its definition (Groth 2016, §3.2; snarkjs's C adds
// its own H term), with sums over the key's points by the variable-time
// multiplication, sharing no code with prove_start's MSMs or the
// constant-time assembly; only the quotient's MSM H is the prover's:
//   A = α + Σ w_i A_i + r δ,   B = β + Σ w_i B_i + s δ (in G2, and B1 in G1),
//   C = Σ_{i > ℓ} w_i C_i + H + s A + r B1 − r s δ.
template <class C>
ec::Jacobian<C> sum_vartime(std::span<const ec::Affine<C>> points, std::span<const typename C::Fr> w) {
  ec::Jacobian<C> acc = ec::Jacobian<C>::infinity();
  for (size_t i = 0; i < points.size(); ++i) acc = acc.add(ec::mul_vartime(points[i], w[i]));
  return acc;
}

template <class E>
groth16::Proof<E> proof_by_definition(const groth16::ProvingKey<E>& pk, const std::vector<typename E::Fr>& w,
                                      const ec::Jacobian<typename E::G1>& h, const typename E::Fr& r,
                                      const typename E::Fr& s) {
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  const std::span<const typename E::Fr> all(w), secret = all.subspan(pk.n_public() + 1);
  const ec::Jacobian<G1> a = sum_vartime<G1>(pk.a, all).add(pk.alpha1).add(ec::mul_vartime(pk.delta1, r));
  const ec::Jacobian<G2> b = sum_vartime<G2>(pk.b2, all).add(pk.beta2).add(ec::mul_vartime(pk.delta2, s));
  const ec::Jacobian<G1> b1 = sum_vartime<G1>(pk.b1, all).add(pk.beta1).add(ec::mul_vartime(pk.delta1, s));
  const ec::Jacobian<G1> c = sum_vartime<G1>(pk.c, secret)
                                 .add(h)
                                 .add(ec::mul_vartime(a.to_affine(), s))
                                 .add(ec::mul_vartime(b1.to_affine(), r))
                                 .add(-ec::mul_vartime(pk.delta1, r * s));
  return {a.to_affine(), b.to_affine(), c.to_affine()};
}

template <class E>
void check_assembly(const std::string& curve, std::mt19937_64& rng) {
  using Fr = typename E::Fr;
  SCOPED_TRACE(curve);
  const Proving<E> p(curve, "linear");
  const auto pending = p.start(p.w);
  for (const auto& [r, s] : {std::pair{Fr::zero(), Fr::zero()},
                             std::pair{ff::random_element<Fr>(rng), ff::random_element<Fr>(rng)}}) {
    SCOPED_TRACE("r = " + ff::to_decimal(r) + ", s = " + ff::to_decimal(s));
    const auto proof = groth16::detail::assemble(p.key, pending, groth16::Randomness<Fr>{r, s});
    EXPECT_TRUE(proof == proof_by_definition<E>(p.key.key(), p.w, pending.h, r, s));
    EXPECT_TRUE(groth16::verify<E>(p.key.vk(), pending.publics, proof));
  }
}

TEST(Groth16Prove, AssemblyFollowsTheDefinition) {
  SEED_TRACE();
  auto rng = test_rng();
  check_assembly<ec::Bn254>("bn128", rng);
  check_assembly<ec::Bls12_381>("bls12381", rng);
}

TEST(Groth16Prove, Bn128Fixtures) {
  for (const auto& f : kCircuits) check_fixture<ec::Bn254>("bn128", f);
}
TEST(Groth16Prove, Bls12381Fixtures) {
  for (const auto& f : kCircuits) check_fixture<ec::Bls12_381>("bls12381", f);
}

// A PreparedKey has one identity (no copies, no moves), and it keeps the
// memory its points view: a key from a .zkey proves after the Zkey is gone,
// and lets the mapping go with its last handle.
static_assert(!std::is_copy_constructible_v<groth16::PreparedKey<ec::Bn254>> &&
              !std::is_move_constructible_v<groth16::PreparedKey<ec::Bn254>> &&
              !std::is_copy_assignable_v<groth16::PreparedKey<ec::Bn254>>);
TEST(Groth16Prove, APreparedKeyOwnsItsZkeysMemory) {
  using E = ec::Bn254;
  using Fr = E::Fr;
  groth16::SharedKey<E> key;
  std::weak_ptr<const groth16::ProvingKey<E>> mapping;
  {
    const io::Zkey zkey = io::Zkey::open(fixture("bn128", "multiplier", "circuit.zkey"));
    key = groth16::PreparedKey<E>::make(zkey.share<E>());
    mapping = zkey.share<E>();
  }
  ASSERT_FALSE(mapping.expired());
  std::vector<Fr> w = io::read_wtns(fixture("bn128", "multiplier", "witness.wtns")).as<E>();
  const size_t n = key->key().domain_size();
  std::vector<Fr> a(n), b(n), c(n);
  key->evaluate_abc(w, a, b, c);
  const auto pending =
      groth16::prove_start(*key, std::span<const Fr>(w), std::span<Fr>(a), std::span<Fr>(b), std::span<Fr>(c));
  EXPECT_TRUE(groth16::verify<E>(key->vk(), pending.publics, groth16::prove_finish(*key, pending)));
  key.reset();
  EXPECT_TRUE(mapping.expired());
  EXPECT_THROW(groth16::PreparedKey<E>::make(nullptr), std::invalid_argument);
}

// The rows are sorted on first use, once, whichever threads ask at the same
// time: every caller sees the same arrays, rows_bytes() (known before the
// sort) is their size, and row i of each matrix holds that row's
// coefficients in the key's order.
TEST(Groth16Prove, RowsAreSortedOnceForEveryThreadThatAsks) {
  using E = ec::Bls12_381;
  const io::Zkey zkey = io::Zkey::open(fixture("bls12381", "multiplier", "circuit.zkey"));
  const auto key = groth16::PreparedKey<E>::make(zkey.share<E>());
  constexpr int kThreads = 8;
  std::array<groth16::PreparedKey<E>::Rows, 2 * kThreads> seen;
  {
    std::vector<std::jthread> askers;
    for (int t = 0; t < 2 * kThreads; ++t) askers.emplace_back([&, t] { seen[t] = key->rows(t % 2); });
  }
  const auto& pk = key->key();
  size_t bytes = 0;
  for (int m = 0; m < 2; ++m) {
    const auto rows = key->rows(m);
    bytes += rows.start.size_bytes() + rows.entries.size_bytes();
    for (int t = m; t < 2 * kThreads; t += 2) {
      EXPECT_EQ(seen[t].start.data(), rows.start.data());
      EXPECT_EQ(seen[t].entries.data(), rows.entries.data());
    }
    ASSERT_EQ(rows.start.size(), pk.domain_size() + 1);
    std::vector<size_t> next(rows.start.begin(), rows.start.end() - 1);
    for (const auto& c : pk.coefs) {
      if ((int)c.matrix != m) continue;
      ASSERT_LT(next[c.constraint], rows.start[c.constraint + 1]);
      const auto& e = rows.entries[next[c.constraint]++];
      EXPECT_EQ(e.signal, c.signal);
      EXPECT_EQ(e.value, c.value);
    }
    for (size_t i = 0; i < pk.domain_size(); ++i) ASSERT_EQ(next[i], rows.start[i + 1]) << "row " << i;
  }
  EXPECT_EQ(key->rows_bytes(), bytes);
}

TEST(Groth16Prove, WrongLengthsAreRefused) {
  using E = ec::Bn254;
  using Fr = E::Fr;
  const Proving<E> p("bn128", "multiplier");
  const size_t n = p.key.key().domain_size();
  std::vector<Fr> a(n), b(n), c(n), short_w(p.w.begin(), p.w.end() - 1), short_a(n - 1);
  EXPECT_THROW(p.key.evaluate_abc(short_w, a, b, c), std::invalid_argument);
  EXPECT_THROW(p.key.evaluate_abc(p.w, short_a, b, c), std::invalid_argument);
  EXPECT_THROW(groth16::prove_start(p.key, std::span<const Fr>(p.w), std::span<Fr>(short_a), std::span<Fr>(b),
                                    std::span<Fr>(c)),
               std::invalid_argument);
}

// r and s do not outlive their Randomness: its storage is zero once it goes.
TEST(Groth16Prove, RandomnessIsZeroedWhenItGoes) {
  using R = groth16::Randomness<ec::Bls12_381::Fr>;
  alignas(R) unsigned char storage[sizeof(R)];
  R* rs = new (storage) R(R::draw());
  ASSERT_FALSE(rs->r.is_zero() || rs->s.is_zero());
  rs->~R();
  EXPECT_EQ(std::count(storage, storage + sizeof storage, 0), (std::ptrdiff_t)sizeof storage);
}

TEST(Groth16Prove, RandomnessIsFreshAndReduced) {
  using Fr = ec::Bls12_381::Fr;  // 255 bits: the top-limb mask matters
  std::vector<Fr> seen;
  for (int i = 0; i < 64; ++i) {
    const auto rs = groth16::Randomness<Fr>::draw();
    EXPECT_NE(rs.r, rs.s);
    for (const Fr& x : {rs.r, rs.s}) {
      uint64_t v[Fr::N];
      x.to_canonical(v);
      EXPECT_TRUE(Fr::less_than_modulus(v));
      for (const Fr& y : seen) ASSERT_NE(x, y);
      seen.push_back(x);
    }
  }
}

template <class C>
void check_consttime(std::mt19937_64& rng) {
  using Fr = typename C::Fr;
  EXPECT_TRUE(ec::mul_consttime(ec::Affine<C>::infinity(), Fr::from_uint(7)).is_inf());
  const auto g = ec::mul_vartime(ec::generator<C>(), ff::random_element<Fr>(rng)).to_affine();
  std::vector<Fr> ks = {Fr::zero(), Fr::one(), Fr::from_uint(2), Fr::from_uint(15), Fr::from_uint(16), -Fr::one()};
  for (int i = 0; i < 20; ++i) ks.push_back(ff::random_element<Fr>(rng));
  for (const Fr& k : ks) ASSERT_EQ(ec::mul_consttime(g, k), ec::mul_vartime(g, k)) << ff::to_decimal(k);
}

TEST(ConstTimeMul, MatchesVartimeOnAllGroups) {
  SEED_TRACE();
  auto rng = test_rng();
  check_consttime<ec::bn254::G1>(rng);
  check_consttime<ec::bn254::G2>(rng);
  check_consttime<ec::bls12_381::G1>(rng);
  check_consttime<ec::bls12_381::G2>(rng);
}

}  // namespace
}  // namespace cuzk::test
