// What the tests of Fp<P> against GMP share (fp_gmp_test.cpp,
// fp_gmp_power_test.cpp): the published parameters of the four prime fields,
// edge values, and the fixture that builds inputs from Montgomery limbs
// computed by GMP and reads results back the same way.
#pragma once

#include <gmp.h>
#include <gmpxx.h>
#include <gtest/gtest.h>

#include "seed.hpp"

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"
#include "cuzk/ff/inverse_vartime.hpp"

namespace {

using namespace cuzk::ff;

constexpr int kRandom = 10000;

// ---------------------------------------------------------------------------
// The published parameters, as written in the curve specifications.

template <class F>
struct Spec;

// BN254 / alt_bn128 (EIP-196, snarkjs "bn128"), u = 4965661367192848881:
// q = 36u^4 + 36u^3 + 24u^2 + 6u + 1, r = 36u^4 + 36u^3 + 18u^2 + 6u + 1,
// which differ only in the coefficient c of u^2.
mpz_class bn254_prime(int c) {
  const mpz_class u("4965661367192848881", 10);
  return 36 * u * u * u * u + 36 * u * u * u + c * u * u + 6 * u + 1;
}
// BLS12-381 (draft-irtf-cfrg-pairing-friendly-curves), x = -0xd201000000010000:
// p = (x - 1)^2 (x^4 - x^2 + 1) / 3 + x, r = x^4 - x^2 + 1.
mpz_class bls12_381_x() { return -mpz_class("d201000000010000", 16); }
mpz_class bls12_381_r() {
  const mpz_class x = bls12_381_x();
  return x * x * x * x - x * x + 1;
}

template <>
struct Spec<bn254::Fq> {
  static constexpr const char* name = "bn254_fq";
  static constexpr const char* modulus = "21888242871839275222246405745257275088696311157297823662689037894645226208583";
  static constexpr int base = 10;
  static mpz_class from_curve_parameter() { return bn254_prime(24); }
};
template <>
struct Spec<bn254::Fr> {
  static constexpr const char* name = "bn254_fr";
  static constexpr const char* modulus = "21888242871839275222246405745257275088548364400416034343698204186575808495617";
  static constexpr int base = 10;
  static mpz_class from_curve_parameter() { return bn254_prime(18); }
};
template <>
struct Spec<bls12_381::Fq> {
  static constexpr const char* name = "bls12_381_fq";
  static constexpr const char* modulus =
      "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";
  static constexpr int base = 16;
  static mpz_class from_curve_parameter() {
    const mpz_class x = bls12_381_x();
    return mpz_class((x - 1) * (x - 1) * bls12_381_r() / 3) + x;
  }
};
template <>
struct Spec<bls12_381::Fr> {
  static constexpr const char* name = "bls12_381_fr";
  static constexpr const char* modulus = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";
  static constexpr int base = 16;
  static mpz_class from_curve_parameter() { return bls12_381_r(); }
};

// ---------------------------------------------------------------------------
// GMP helpers.

mpz_class from_limbs(const uint64_t* v, size_t n) {
  mpz_class z;
  mpz_import(z.get_mpz_t(), n, -1, sizeof(uint64_t), 0, 0, v);
  return z;
}

// z must satisfy 0 <= z < 2^(64 n).
template <size_t N>
std::array<uint64_t, N> to_limbs(const mpz_class& z) {
  std::array<uint64_t, N> v{};
  EXPECT_GE(sgn(z), 0);
  EXPECT_LE(mpz_sizeinbase(z.get_mpz_t(), 2), 64 * N);
  size_t count = 0;
  if (sgn(z) != 0) mpz_export(v.data(), &count, -1, sizeof(uint64_t), 0, 0, z.get_mpz_t());
  return v;
}

mpz_class mod(const mpz_class& a, const mpz_class& p) {
  mpz_class r;
  mpz_mod(r.get_mpz_t(), a.get_mpz_t(), p.get_mpz_t());
  return r;
}

std::string hex(const mpz_class& z) { return "0x" + z.get_str(16); }

template <size_t N>
std::string hex_limbs(const uint64_t (&v)[N]) {
  return hex(from_limbs(v, N));
}

// ---------------------------------------------------------------------------
// The fixture: the modulus and R from GMP, and a seeded generator.

template <class F>
class FpGmp : public ::testing::Test {
 protected:
  using P = typename F::params;
  static constexpr size_t N = F::N;

  mpz_class p, R, Rinv;
  std::mt19937_64 rng;
  std::vector<mpz_class> edges;

  void SetUp() override {
    uint64_t m[N];
    for (size_t i = 0; i < N; ++i) m[i] = P::modulus(i);
    p = from_limbs(m, N);
    R = mpz_class(1) << (64 * N);
    mpz_invert(Rinv.get_mpz_t(), R.get_mpz_t(), p.get_mpz_t());
    rng = cuzk::test::test_rng();
    build_edges();
  }

  // The element whose canonical value is a (0 <= a < p), by writing its
  // Montgomery limbs a·R mod p directly.
  F make(const mpz_class& a) const { return raw(mod(a * R, p)); }
  // An element by its raw Montgomery limbs.
  static F raw(const mpz_class& m) {
    const auto v = to_limbs<N>(m);
    F x;
    for (size_t i = 0; i < N; ++i) x.limb[i] = v[i];
    return x;
  }
  mpz_class montgomery_limbs(const F& x) const { return from_limbs(x.limb, N); }

  // Checks that x is fully reduced and represents want (mod p).
  ::testing::AssertionResult is(const F& x, const mpz_class& want) const {
    const mpz_class m = montgomery_limbs(x);
    if (m >= p) return ::testing::AssertionFailure() << "not reduced: Montgomery limbs " << hex(m) << " >= p";
    const mpz_class got = mod(m * Rinv, p);
    const mpz_class w = mod(want, p);
    if (got != w) return ::testing::AssertionFailure() << "got " << hex(got) << ", expected " << hex(w);
    return ::testing::AssertionSuccess();
  }

  uint64_t limb_value() {
    switch (rng() % 8) {
      case 0: return 0;
      case 1: return ~0ull;
      case 2: return ~0ull - (rng() % 4);
      case 3: return rng() % 4;
      case 4: return 1ull << 63;
      case 5: return (1ull << 63) - 1;
      default: return rng();
    }
  }
  mpz_class random_limbs(size_t n, bool structured) {
    std::vector<uint64_t> v(n);
    for (auto& l : v) l = structured ? limb_value() : rng();
    return from_limbs(v.data(), n);
  }
  mpz_class uniform() {
    const size_t top = P::bits - 64 * (N - 1);
    for (;;) {
      mpz_class z = random_limbs(N, false);
      mpz_fdiv_r_2exp(z.get_mpz_t(), z.get_mpz_t(), 64 * (N - 1) + top);
      if (z < p) return z;
    }
  }
  // A canonical value in [0, p): uniform half of the time, otherwise with
  // boundary limbs in its canonical or its Montgomery form, or an edge value.
  mpz_class sample() {
    switch (rng() % 8) {
      case 0:
      case 1:
      case 2:
      case 3: return uniform();
      case 4:
      case 5: return mod(random_limbs(N, true), p);
      case 6: return mod(random_limbs(N, true) * Rinv, p);
      default: return edges[rng() % edges.size()];
    }
  }

  void build_edges() {
    std::vector<mpz_class> v;
    auto add = [&](const mpz_class& z) { v.push_back(mod(z, p)); };
    for (int k = 0; k < 4; ++k) add(k);
    for (int k = 1; k < 4; ++k) add(p - k);
    add((p - 1) / 2);
    add((p + 1) / 2);
    add((p - 1) / 2 - 1);
    add((p + 1) / 2 + 1);
    for (size_t k = 1; k <= N; ++k) {
      const mpz_class b = mpz_class(1) << (64 * k);
      add(b - 1);
      add(b);
      add(b + 1);
    }
    add(mpz_class(1) << (P::bits - 1));
    add((mpz_class(1) << (P::bits - 1)) - 1);
    add((mpz_class(1) << P::bits) - 1);
    const mpz_class rm = mod(R, p);
    add(rm);
    add(rm - 1);
    add(rm + 1);
    add(p - rm);
    add(R * R);
    // Values sharing p's top limb (just under p in the top limb).
    add((p >> 64 * (N - 1)) << 64 * (N - 1));
    add(((p >> 64 * (N - 1)) << 64 * (N - 1)) - 1);
    // Each value both as a canonical value and as the Montgomery limbs.
    edges.clear();
    for (const auto& z : v) {
      edges.push_back(z);
      edges.push_back(mod(z * Rinv, p));
    }
  }

  // The checks use ASSERT_* inside fn, which only leaves fn; the loops stop at
  // the first fatal failure so a bug is reported once, with its inputs.
  template <class Fn>
  void for_each_input(Fn&& fn) {
    for (const auto& a : edges) {
      fn(a);
      if (HasFatalFailure()) return;
    }
    for (int i = 0; i < kRandom; ++i) {
      fn(sample());
      if (HasFatalFailure()) return;
    }
  }
  template <class Fn>
  void for_each_pair(Fn&& fn) {
    for (const auto& a : edges)
      for (const auto& b : edges) {
        fn(a, b);
        if (HasFatalFailure()) return;
      }
    for (int i = 0; i < kRandom; ++i) {
      const mpz_class a = sample();
      fn(a, rng() % 16 == 0 ? a : sample());
      if (HasFatalFailure()) return;
    }
  }
};

using Fields = ::testing::Types<bn254::Fq, bn254::Fr, bls12_381::Fq, bls12_381::Fr>;
struct FieldName {
  template <class F>
  static std::string GetName(int) {
    return Spec<F>::name;
  }
};

}  // namespace
