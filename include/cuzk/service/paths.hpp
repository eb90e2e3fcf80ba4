// Server-side paths a client names, opened only beneath the directories a
// service allows (docs/SECURITY.md): the service's witness and key paths and
// cuzkd's queue registrations go through open_allowed.
#pragma once

#include <filesystem>
#include <utility>
#include <vector>

namespace cuzk::service {

// A descriptor that closes itself.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd = -1) : fd_(fd) {}
  FileDescriptor(FileDescriptor&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  FileDescriptor& operator=(FileDescriptor&& o) noexcept;
  ~FileDescriptor();
  int get() const { return fd_; }

 private:
  int fd_;
};

// A client's server-side path opened for reading beneath one of `dirs`
// (`what`: "witness" or "key", for messages): the path must name a place
// under a directory, and it is resolved from that directory's descriptor with
// RESOLVE_BENEATH (or O_NOFOLLOW on every component where openat2 is
// missing), so no "..", link or swap made after a check leads out of it.
// With `dirs` empty, `any_path` says whether the path is opened as given (the
// CLI's own files) or refused (a service for strangers). Only a regular file
// is opened, without blocking. Throws Error: invalid_argument (not allowed,
// not a regular file), not_found (no such file).
FileDescriptor open_allowed(const std::filesystem::path& path, const std::vector<std::filesystem::path>& dirs,
                            bool any_path, const char* what);

}  // namespace cuzk::service
