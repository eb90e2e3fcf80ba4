// The rule of the switches front ends read from the environment (CUZK_TIMING,
// CUZK_SPANS, CUZK_PROGRESS): the default when unset or empty, off for "0",
// on for anything else.
#include <gtest/gtest.h>

#include <cstdlib>

#include "cuzk/util/env_flag.hpp"

namespace cuzk {
namespace {

TEST(EnvFlag, ZeroIsOffAnyOtherValueOnAndUnsetOrEmptyTheDefault) {
  const char* name = "CUZK_ENV_FLAG_TEST";
  for (const bool otherwise : {false, true}) {
    SCOPED_TRACE(otherwise);
    ::unsetenv(name);
    EXPECT_EQ(env_flag(name, otherwise), otherwise);
    ::setenv(name, "", 1);
    EXPECT_EQ(env_flag(name, otherwise), otherwise);
    ::setenv(name, "0", 1);
    EXPECT_FALSE(env_flag(name, otherwise));
    ::setenv(name, "1", 1);
    EXPECT_TRUE(env_flag(name, otherwise));
    ::setenv(name, "yes", 1);
    EXPECT_TRUE(env_flag(name, otherwise));
  }
  ::unsetenv(name);
}

}  // namespace
}  // namespace cuzk
