#include "signals.hpp"

#include <pthread.h>
#include <signal.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace cuzk::daemon {

namespace {

sigset_t handled() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGHUP);
  return set;
}

}  // namespace

void block_signals() {
  // A peer that closes its connection must not kill the process.
  ::signal(SIGPIPE, SIG_IGN);
  const sigset_t set = handled();
  if (const int rc = ::pthread_sigmask(SIG_BLOCK, &set, nullptr); rc != 0)
    throw std::runtime_error(std::string("pthread_sigmask: ") + std::strerror(rc));
}

int wait_signal() {
  const sigset_t set = handled();
  for (;;) {
    int sig = 0;
    if (::sigwait(&set, &sig) == 0) return sig;
  }
}

}  // namespace cuzk::daemon
