// Test randomness: one seed per run (CUZK_TEST_SEED replays it), and a
// generator per test derived from the seed and the test's name, so a failing
// test reproduces alone.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

namespace cuzk::test {

// CUZK_TEST_SEED if set, else fresh for this process.
uint64_t test_seed();

// A generator for the running test: test_seed() mixed with its full name.
std::mt19937_64 test_rng();

}  // namespace cuzk::test

// Prints the seed with any failure in the enclosing scope.
#define SEED_TRACE() SCOPED_TRACE("CUZK_TEST_SEED=" + std::to_string(::cuzk::test::test_seed()))
