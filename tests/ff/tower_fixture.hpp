// What the tower tests share (tower_test.cpp, tower_gmp_test.cpp): random
// elements at any level of the tower, the modulus' limbs, and the fixture
// typed over the two towers.
#pragma once

#include <gtest/gtest.h>

#include "seed.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ff/bigint.hpp"
#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"
#include "cuzk/ff/encode.hpp"
#include "cuzk/ff/inverse_vartime.hpp"

#if CUZK_TEST_HAVE_GMP
#include <gmp.h>
#include <gmpxx.h>
#endif

namespace {

using namespace cuzk::ff;
using cuzk::test::test_rng;

// Random elements at any level of the tower. Mostly uniform, with some zero,
// one and minus-one coefficients so sparse elements are exercised too.
template <class T, class Rng>
T rnd(Rng& rng) {
  if constexpr (requires { typename T::F6; }) {
    return T{rnd<typename T::F6>(rng), rnd<typename T::F6>(rng)};
  } else if constexpr (requires { typename T::F2; }) {
    using F2 = typename T::F2;
    return T{rnd<F2>(rng), rnd<F2>(rng), rnd<F2>(rng)};
  } else if constexpr (requires { typename T::Base; }) {
    using B = typename T::Base;
    return T{rnd<B>(rng), rnd<B>(rng)};
  } else {
    switch (rng() % 16) {
      case 0: return T::zero();
      case 1: return T::one();
      case 2: return -T::one();
      default: return random_element<T>(rng);
    }
  }
}

// Uniform elements (no sparse coefficients), for statistics.
template <class T, class Rng>
T uniform(Rng& rng) {
  if constexpr (requires { typename T::Base; }) {
    using B = typename T::Base;
    return T{random_element<B>(rng), random_element<B>(rng)};
  } else {
    return random_element<T>(rng);
  }
}

template <class Fq>
std::vector<uint64_t> modulus_limbs() {
  std::vector<uint64_t> v(Fq::N);
  for (size_t i = 0; i < Fq::N; ++i) v[i] = Fq::params::modulus(i);
  return v;
}

template <class Tw>
struct CurveName;
template <>
struct CurveName<bn254::Tower> {
  static constexpr const char* name = "bn254";
  static constexpr unsigned xi_c0 = 9;  // xi = 9 + u (EIP-197)
};
template <>
struct CurveName<bls12_381::Tower> {
  static constexpr const char* name = "bls12_381";
  static constexpr unsigned xi_c0 = 1;  // xi = 1 + u
};
struct TowerName {
  template <class Tw>
  static std::string GetName(int) {
    return CurveName<Tw>::name;
  }
};

template <class Tw>
class Tower : public ::testing::Test {
 protected:
  using Fq = typename Tw::Fq;
  using Fq2 = typename Tw::Fq2;
  using Fq6 = typename Tw::Fq6;
  using Fq12 = typename Tw::Fq12;
};
using Towers = ::testing::Types<bn254::Tower, bls12_381::Tower>;
}  // namespace
