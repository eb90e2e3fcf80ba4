// The @noble/curves oracle: runs tests/oracle/noble_vectors.mjs with a seed and
// hands the parsed vectors to the tests, plus parsers from its JSON to cuzk types.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "cuzk/ec/point.hpp"
#include "cuzk/ff/encode.hpp"
#include "seed.hpp"

namespace cuzk::test {

using json = nlohmann::json;

// Runs the oracle once per (seed, count) and caches the result for the process.
const json& noble_vectors(uint64_t seed, int count = 4);

// An oracle script's output: `command` (e.g. "python3 tests/oracle/mimc.py ...")
// run by the shell in the source tree; its stdout. Throws, naming the command,
// when it cannot start or does not exit 0.
std::string oracle_output(const std::string& command);

template <class F>
F parse_fq(const json& j) {
  F out;
  if (!ff::from_decimal(j.get<std::string>(), out)) throw std::runtime_error("oracle gave a bad field element");
  return out;
}

template <class F2>
F2 parse_fq2(const json& j) {
  return {parse_fq<typename F2::Base>(j.at(0)), parse_fq<typename F2::Base>(j.at(1))};
}

template <class F>
F parse_coord(const json& j) {
  if constexpr (requires { typename F::Base; }) {
    return parse_fq2<F>(j);
  } else {
    return parse_fq<F>(j);
  }
}

template <class C>
ec::Affine<C> parse_point(const json& j) {
  return {parse_coord<typename C::F>(j.at(0)), parse_coord<typename C::F>(j.at(1))};
}

template <class F12>
F12 parse_fq12(const json& j) {
  using F2 = typename F12::F2;
  auto c = [&](int i) { return F2{parse_fq<typename F2::Base>(j.at(2 * i)), parse_fq<typename F2::Base>(j.at(2 * i + 1))}; };
  return {{c(0), c(1), c(2)}, {c(3), c(4), c(5)}};
}

}  // namespace cuzk::test
