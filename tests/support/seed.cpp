#include "seed.hpp"

#include <cstdlib>

namespace cuzk::test {

uint64_t test_seed() {
  static const uint64_t seed = [] {
    if (const char* s = std::getenv("CUZK_TEST_SEED")) return std::strtoull(s, nullptr, 10);
    return std::random_device{}() * 0x100000001ull + std::random_device{}();
  }();
  return seed;
}

std::mt19937_64 test_rng() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string name = std::string(info->test_suite_name()) + "." + info->name();
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a of the name
  for (unsigned char c : name) h = (h ^ c) * 0x100000001b3ull;
  return std::mt19937_64(test_seed() ^ h);
}

}  // namespace cuzk::test
