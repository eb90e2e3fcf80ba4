#include "exit_early.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cuzk/util/env_flag.hpp"
#include "timing.hpp"

namespace cuzk::cli {

namespace {

pid_t process_left;
// The helper's stack, in the memory it shares with the process.
alignas(64) char helper_stack[64 * 1024];

// The helper runs on the process's thread pointer and memory, so it makes raw
// system calls and nothing else. It asks for SIGKILL when the thread that made
// it ends; if that happened before the request, its parent is already
// another process (the reaper) and it ends at once.
int hold_until_process_ends(void*) {
  syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  if ((pid_t)syscall(SYS_getppid) == process_left)
    for (;;) syscall(SYS_pause);
  syscall(SYS_exit, 0);
  return 0;
}

}  // namespace

void exit_leaving_teardown(int status) {
  std::fflush(nullptr);
  if (env_flag("CUZK_WAIT_TEARDOWN", false)) std::_Exit(status);
  process_left = getpid();
  // CLONE_VM and CLONE_FILES: the helper holds the process's memory and file
  // table, so that the process's exit only drops its references and the
  // helper's does the release. No page tables are copied, as fork would.
  const pid_t helper =
      clone(hold_until_process_ends, helper_stack + sizeof helper_stack, CLONE_VM | CLONE_FILES | SIGCHLD, nullptr);
  if (timing_lines()) {
    if (helper == -1) std::fprintf(stderr, "cuzk timing: no teardown helper (%s)\n", std::strerror(errno));
    else std::fprintf(stderr, "cuzk timing: teardown left to helper %d\n", (int)helper);
  }
  if (helper != -1)
    // The table is shared: closed here, the caller's pipes and terminal see
    // their end when the process exits, not when the helper does.
    for (int fd = 0; fd <= 2; ++fd) close(fd);
  std::_Exit(status);
}

}  // namespace cuzk::cli
