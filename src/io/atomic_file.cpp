#include "cuzk/io/atomic_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace cuzk::io {

namespace {

constexpr std::string_view kTempSuffix = ".tmpXXXXXX";

// When this program started (its static initialisation): a temporary file
// last written before it belongs to no writer that began with or after us.
const timespec process_start = [] {
  timespec t{};
  ::clock_gettime(CLOCK_REALTIME, &t);
  return t;
}();

bool before_process_start(const timespec& t) {
  return t.tv_sec < process_start.tv_sec || (t.tv_sec == process_start.tv_sec && t.tv_nsec < process_start.tv_nsec);
}

// Whether `name` is "<target_name>.tmp" and mkstemp's six letters or digits.
bool temp_name_of(std::string_view name, std::string_view target_name) {
  if (name.size() != target_name.size() + kTempSuffix.size() || !name.starts_with(target_name)) return false;
  name.remove_prefix(target_name.size());
  if (!name.starts_with(".tmp")) return false;
  for (const char c : name.substr(4))
    if (!std::isalnum((unsigned char)c)) return false;
  return true;
}

std::filesystem::path directory_of(const std::filesystem::path& target) {
  return target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
}

// Removes the temporary files a killed writer of `target` left beside it: only
// names of our own pattern for this target, regular files (a link is never
// followed nor removed), owned by this user and last written before this
// process started, so never a live writer's. Best effort: what cannot be
// examined or removed stays, and the write goes on.
void remove_stale_temporaries(const std::filesystem::path& target) {
  const int dir = ::open(directory_of(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return;
  DIR* d = ::fdopendir(dir);
  if (!d) {
    ::close(dir);
    return;
  }
  const std::string target_name = target.filename().string();
  while (const dirent* e = ::readdir(d)) {
    struct stat st{};
    if (!temp_name_of(e->d_name, target_name) || ::fstatat(dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (S_ISREG(st.st_mode) && st.st_uid == ::geteuid() && before_process_start(st.st_mtim))
      ::unlinkat(dir, e->d_name, 0);
  }
  ::closedir(d);  // closes dir too
}

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path target)
    : target_(std::move(target)), temp_(target_.string() + std::string(kTempSuffix)) {
  remove_stale_temporaries(target_);
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

void AtomicFile::sync_directory() const {
  // A rename is an entry in the directory: until the directory is synced, a
  // crash can bring back the old file (or none) under the target's name.
  const int dir = ::open(directory_of(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) fail("cannot open its directory to sync it", errno);
  const int synced = ::fsync(dir);
  const int err = errno;
  ::close(dir);
  if (synced != 0) fail("fsync of its directory failed", err);
}

void AtomicFile::commit() {
  finish();
  publish();
  sync_directory();
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
  for (const AtomicFile& f : files) f.sync_directory();
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
