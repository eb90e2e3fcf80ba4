// AtomicFile's promises beyond "whole or not at all": the rename is made
// durable by syncing the directory, and the temporary files a killed writer
// left beside its target are removed by the next writer of that target, and
// nothing else is.
#include "cuzk/io/atomic_file.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "io_test_support.hpp"

namespace {

// The inodes of the directories this program fsynced. cuzk_core is linked
// statically, so this definition is the one its calls reach; it passes every
// call on to the C library's.
std::vector<ino_t> synced_directories;

}  // namespace

extern "C" int fsync(int fd) {
  static const auto real = reinterpret_cast<int (*)(int)>(::dlsym(RTLD_NEXT, "fsync"));
  struct stat st{};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) synced_directories.push_back(st.st_ino);
  return real(fd);
}

namespace cuzk::test {
namespace {

const uint8_t kBytes[] = {'{', '}', '\n'};

ino_t inode(const fs::path& p) {
  struct stat st{};
  EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
  return st.st_ino;
}

// Sets a file's (or a link's own) modification time an hour back: what a
// writer killed before this process started left.
void age(const fs::path& p) {
  const timespec times[2] = {{0, UTIME_OMIT}, {::time(nullptr) - 3600, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, p.c_str(), times, AT_SYMLINK_NOFOLLOW), 0) << p;
}

// before: the directory was never synced, so a crash after commit could bring back the old file
TEST(AtomicFile, CommitSyncsTheDirectory) {
  TempDir dir;
  synced_directories.clear();
  io::AtomicFile f(dir.path() / "proof.json");
  f.write(kBytes);
  f.commit();
  EXPECT_EQ(synced_directories, std::vector<ino_t>{inode(dir.path())});

  synced_directories.clear();
  const io::FileContents both[] = {{dir.path() / "proof.json", kBytes}, {dir.path() / "public.json", kBytes}};
  io::write_together(both);
  EXPECT_EQ(synced_directories, (std::vector<ino_t>{inode(dir.path()), inode(dir.path())}));
}

// before: a killed `cuzk prove` left proof.json.tmpXXXXXX behind for good
TEST(AtomicFile, StaleTemporariesOfTheTargetAreRemovedAndNothingElse) {
  TempDir dir;
  const fs::path d = dir.path();
  const fs::path outside = d / "outside.txt";
  write_bytes(outside, {1, 2, 3});
  const auto plant = [&](const std::string& name) {
    write_bytes(d / name, {9});
    age(d / name);
  };
  plant("proof.json.tmpAb12Cd");        // a killed writer's: removed
  plant("public.json.tmpAb12Cd");       // another target's: kept until that one is written
  plant("proof.json.tmpAb12C");         // not mkstemp's pattern
  plant("proof.json.tmpAb12C-");        // nor this
  plant("xproof.json.tmpAb12Cd");       // nor a longer name
  write_bytes(d / "proof.json.tmpFresh1", {9});  // as a live writer's: written after this process started
  fs::create_symlink(outside, d / "proof.json.tmpLink01");
  age(d / "proof.json.tmpLink01");
  fs::create_directory(d / "proof.json.tmpDir001");
  age(d / "proof.json.tmpDir001");

  io::AtomicFile f(d / "proof.json");
  f.write(kBytes);
  f.commit();

  EXPECT_FALSE(fs::exists(fs::symlink_status(d / "proof.json.tmpAb12Cd")));
  for (const char* kept : {"public.json.tmpAb12Cd", "proof.json.tmpAb12C", "proof.json.tmpAb12C-",
                           "xproof.json.tmpAb12Cd", "proof.json.tmpFresh1", "proof.json.tmpLink01",
                           "proof.json.tmpDir001"})
    EXPECT_TRUE(fs::exists(fs::symlink_status(d / kept))) << kept;
  EXPECT_EQ(read_bytes(outside), (Bytes{1, 2, 3}));
  EXPECT_EQ(read_bytes(d / "proof.json"), Bytes(std::begin(kBytes), std::end(kBytes)));
}

// A write that fails leaves no temporary file: a directory in the way of one
// of two files fails both before either is renamed.
TEST(AtomicFile, AFailedWriteLeavesNoTemporaryFile) {
  TempDir dir;
  fs::create_directory(dir.path() / "public.json");
  const io::FileContents both[] = {{dir.path() / "proof.json", kBytes}, {dir.path() / "public.json", kBytes}};
  EXPECT_THROW(io::write_together(both), std::system_error);
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(dir.path())) left.push_back(e.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"public.json"});
}

}  // namespace
}  // namespace cuzk::test
