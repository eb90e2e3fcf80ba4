// What every fuzz target shares: the check of a reader's error message, and,
// for the readers that take only a path, each input as a file: one in-memory
// file (memfd) per process, rewritten per input and named through
// /proc/self/fd, so executions cost no disk traffic and leave nothing behind.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

// A guarantee the reader documents for what it returns; a broken one is a
// finding, reported as a crash that names the condition.
#define CUZK_FUZZ_REQUIRE(cond)                                                         \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      std::fprintf(stderr, "%s:%d: broken guarantee: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                     \
    }                                                                                   \
  } while (0)

namespace cuzk::fuzz {

// A reader's error is one line that starts with the name of its input.
inline bool one_line_naming(const std::string& message, const std::string& name) {
  return message.rfind(name + ": ", 0) == 0 && message.find('\n') == std::string::npos;
}

// The path of a file holding exactly data[0, size). A failure here is the
// harness's, so it aborts with the system's reason rather than pass silently.
inline std::string input_file(const uint8_t* data, size_t size) {
  const auto fail = [](const char* what) {
    std::perror(what);
    std::abort();
  };
  static const int fd = memfd_create("cuzk-fuzz-input", MFD_CLOEXEC);
  if (fd < 0) fail("memfd_create");
  if (ftruncate(fd, 0) != 0) fail("ftruncate");
  for (size_t done = 0; done < size;) {
    const ssize_t n = pwrite(fd, data + done, size - done, (off_t)done);
    if (n <= 0) fail("pwrite");
    done += (size_t)n;
  }
  return "/proc/self/fd/" + std::to_string(fd);
}

}  // namespace cuzk::fuzz
