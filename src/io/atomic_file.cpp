#include "cuzk/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <system_error>
#include <utility>
#include <vector>

namespace cuzk::io {

AtomicFile::AtomicFile(std::filesystem::path target)
    : target_(std::move(target)), temp_(target_.string() + ".tmpXXXXXX") {
  fd_ = ::mkostemp(temp_.data(), O_CLOEXEC);
  if (fd_ < 0) fail("cannot create a temporary file beside it", errno);
}

AtomicFile::AtomicFile(AtomicFile&& o) noexcept
    : target_(std::move(o.target_)), temp_(std::exchange(o.temp_, {})), fd_(std::exchange(o.fd_, -1)) {}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

void AtomicFile::write(std::span<const uint8_t> bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("cannot write", errno);
    bytes = bytes.subspan((size_t)n);
  }
}

void AtomicFile::finish() {
  // mkstemp makes the file 0600; the outputs (keys, proofs, witnesses) are
  // ordinary files for other tools and users to read.
  if (::fchmod(fd_, 0644) != 0) fail("cannot set its mode", errno);
  if (::fsync(fd_) != 0) fail("fsync failed", errno);
  if (::close(std::exchange(fd_, -1)) != 0) fail("close failed", errno);
}

void AtomicFile::publish() {
  if (std::rename(temp_.c_str(), target_.c_str()) != 0) fail("rename failed", errno);
  temp_.clear();
}

void AtomicFile::commit() {
  finish();
  publish();
}

void AtomicFile::commit_together(std::span<AtomicFile> files) {
  // Renaming onto a directory fails, which would leave the files renamed
  // before it on their own; so a directory is refused before any rename. A
  // target that cannot be examined is left for rename to report.
  for (const AtomicFile& f : files) {
    std::error_code ec;
    if (std::filesystem::is_directory(f.target_, ec)) f.fail("cannot write", EISDIR);
  }
  for (AtomicFile& f : files) f.finish();
  for (AtomicFile& f : files) f.publish();
}

void write_together(std::span<const FileContents> files) {
  std::vector<AtomicFile> out;
  out.reserve(files.size());
  for (const FileContents& f : files) out.emplace_back(f.path).write(f.bytes);
  AtomicFile::commit_together(out);
}

void AtomicFile::fail(const char* what, int err) const {
  throw std::system_error(err, std::generic_category(), target_.string() + ": " + what);
}

}  // namespace cuzk::io
