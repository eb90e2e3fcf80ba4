// Runs a program as a child process the way a user's shell would, minus the
// shell: argv goes to the program as given (no quoting, no injection), stdin is
// /dev/null (so a program that prompts fails instead of hanging), stdout and
// stderr are captured separately, and a program that outlives its timeout is
// killed and reported as such.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace cuzk::test {

struct ProcessResult {
  int exit_code = -1;  // meaningful only when exited()
  int signal = 0;      // the signal that ended the process; 0 if it exited
  bool timed_out = false;
  std::string out, err;

  bool exited() const { return signal == 0 && !timed_out; }
};

// argv[0] is a path (not looked up in PATH). A program that cannot be started
// at all is a std::runtime_error, not a result.
ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::seconds timeout);

// The command line and everything the process said, for failure messages.
std::string describe(const std::vector<std::string>& argv, const ProcessResult& r);

}  // namespace cuzk::test
