// The two scalar fields as a GoogleTest type list, named after their curves in
// the test names (DeviceNtt/bn254.…), for the tests that run once per Fr.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"

namespace cuzk::test {

struct Bn254Fr {
  static constexpr const char* name = "bn254";
  using Fr = ff::bn254::Fr;
};
struct Bls12Fr {
  static constexpr const char* name = "bls12_381";
  using Fr = ff::bls12_381::Fr;
};
using ScalarFields = ::testing::Types<Bn254Fr, Bls12Fr>;

struct ScalarFieldNames {
  template <class T>
  static std::string GetName(int) {
    return T::name;
  }
};

}  // namespace cuzk::test
