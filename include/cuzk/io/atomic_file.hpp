// An output file that appears whole or not at all: written to a temporary
// file beside the target (same directory, so the final rename cannot cross
// file systems) and renamed over the target by commit(). The writers of
// .zkey, .wtns and the JSON files share it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <type_traits>

namespace cuzk::io {

// Every failure is a std::system_error (a std::runtime_error) whose message is
// one line, "<target>: <what failed>: <strerror>", fit to print after "error: ".
class AtomicFile {
 public:
  // Creates "<target>.tmpXXXXXX" (mkstemp) beside `target`, first removing
  // such files that a killed writer of the same target left there: regular
  // files of this user last written before this process started (never a
  // link, never a live writer's).
  explicit AtomicFile(std::filesystem::path target);
  // Move-only; the moved-from object owns nothing.
  AtomicFile(AtomicFile&& o) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  // Closes and removes the temporary file unless it was committed.
  ~AtomicFile();

  // Unbuffered: one write(2) per call (retried until all is written), so the
  // callers pass large blocks, which go from their memory to the file as they
  // are, and only a few small ones.
  void write(std::span<const uint8_t> bytes);

  // Mode 0644, fsync, close, rename over the target, fsync the directory.
  // fsync comes before the rename, or a crash could leave the target's name
  // on an empty file; the directory's after it, or a crash could undo it.
  void commit();

  // Commits several files that must appear together (proof.json and
  // public.json): refuses any target that is a directory, then syncs and
  // closes every file, and only then renames them and syncs their
  // directories. Every failure short of an unlikely rename or directory sync
  // error thus comes before the first rename.
  static void commit_together(std::span<AtomicFile> files);

 private:
  void finish();   // fchmod, fsync, close
  void publish();  // rename
  void sync_directory() const;
  [[noreturn]] void fail(const char* what, int err) const;

  std::filesystem::path target_;
  std::string temp_;  // empty once committed or moved from
  int fd_ = -1;
};

// One file for write_together: where it goes and what it holds.
struct FileContents {
  std::filesystem::path path;
  std::span<const uint8_t> bytes;
};
// Writes files that must appear together or not at all (a proof and its
// public signals): each to its temporary file, then commit_together.
void write_together(std::span<const FileContents> files);

// The bytes of trivially copyable values (integers, limbs, curve points), for
// AtomicFile::write.
template <class T, size_t N>
  requires std::is_trivially_copyable_v<T>
std::span<const uint8_t> bytes_of(std::span<T, N> values) {
  return {reinterpret_cast<const uint8_t*>(values.data()), values.size_bytes()};
}

}  // namespace cuzk::io
