// The process-wide switches a front end applies from its environment
// (service/environment.hpp): CUZK_IFMA=0 turns the host arithmetic's IFMA
// path off, and a malformed CUZK_LOGICAL_GPUS is refused naming the variable.
#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "cuzk/ff/detail/mont52x8.hpp"
#include "cuzk/service/environment.hpp"

namespace cuzk::service {
namespace {

// Sets (or, with nullptr, unsets) a variable for one scope.
class EnvScope {
 public:
  EnvScope(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    value ? ::setenv(name, value, 1) : ::unsetenv(name);
  }
  ~EnvScope() { old_.empty() ? ::unsetenv(name_) : ::setenv(name_, old_.c_str(), 1); }

 private:
  const char* name_;
  std::string old_;
};

TEST(EnvironmentSwitches, IfmaFollowsCuzkIfma) {
  const EnvScope logical("CUZK_LOGICAL_GPUS", nullptr);
  {
    const EnvScope off("CUZK_IFMA", "0");
    apply_environment_switches();
    EXPECT_FALSE(ff::mont52x8::use_ifma()) << "CUZK_IFMA=0";
  }
  {
    const EnvScope unset("CUZK_IFMA", nullptr);
    apply_environment_switches();
    EXPECT_EQ(ff::mont52x8::use_ifma(), ff::mont52x8::have_ifma()) << "unset: wherever the CPU has it";
  }
}

TEST(EnvironmentSwitches, AMalformedLogicalGpuCountIsRefusedByName) {
  for (const char* bad : {"two", "-1", "65", "2x", "99999999999999999999"}) {
    const EnvScope logical("CUZK_LOGICAL_GPUS", bad);
    try {
      apply_environment_switches();
      ADD_FAILURE() << bad << " was taken";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()),
                std::string("CUZK_LOGICAL_GPUS=") + bad + ": not a number of GPUs from 0 to 64");
    }
  }
  for (const char* good : {"", "0"}) {
    const EnvScope logical("CUZK_LOGICAL_GPUS", good);
    EXPECT_NO_THROW(apply_environment_switches()) << good;
  }
}

}  // namespace
}  // namespace cuzk::service
