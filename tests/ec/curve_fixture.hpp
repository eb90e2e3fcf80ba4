// What the curve tests share (curve_test.cpp, encoding_test.cpp): the four
// groups BN254 G1/G2 and BLS12-381 G1/G2 as typed-test parameters, field and
// point helpers, and the fixture that gives each test its seed, random stream
// and the @noble/curves vectors of its group.
#pragma once

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

}  // namespace
}  // namespace cuzk
