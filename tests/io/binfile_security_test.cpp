// The container reader facing files a stranger chose (issue 34, docs/SECURITY.md):
// a FIFO is refused without blocking, a message never quotes the bytes of a
// file that is not the format asked for, and a large file of the wrong kind
// costs no memory before its header is checked.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <string>

#include "cuzk/io/binfile.hpp"
#include "io_test_support.hpp"
#include "vm_flags.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

// The message of the FormatError that f throws ("" when it throws none).
template <class F>
std::string format_error(F f) {
  try {
    f();
  } catch (const io::FormatError& e) {
    return e.what();
  }
  return "";
}

TEST(BinFileSecurity, AFifoIsRefusedWithoutBlocking) {
  TempDir dir;
  const fs::path fifo = dir / "witness.wtns";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const auto residency : {io::Residency::copy, io::Residency::map}) {
    auto opening = std::async(std::launch::async, [&] {
      return format_error([&] { io::BinFile::open(fifo, "wtns", 2, residency); });
    });
    if (opening.wait_for(10s) != std::future_status::ready) {
      ADD_FAILURE() << "opening a FIFO blocked";
      // A writer that comes and goes lets the blocked open return.
      const int w = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
      if (w >= 0) ::close(w);
    }
    EXPECT_NE(opening.get().find("not a regular file"), std::string::npos);
  }
}

TEST(BinFileSecurity, AWrongMagicIsNotQuoted) {
  TempDir dir;
  const fs::path file = dir / "shadow";
  std::ofstream(file) << "root:$6$secret:19000:0:99999:7:::\n";
  const std::string message = format_error([&] { io::BinFile::open(file, "zkey", 1, io::Residency::copy); });
  EXPECT_NE(message.find("wrong magic"), std::string::npos) << message;
  EXPECT_EQ(message.find("root"), std::string::npos) << message;
  const std::string from_bytes = format_error([&] {
    const std::string text = "root:x:0:0:root:/root:/bin/bash\n";
    io::BinFile::from_bytes("upload", std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()), "wtns", 2);
  });
  EXPECT_EQ(from_bytes.find("root"), std::string::npos) << from_bytes;
}

long max_rss_kib() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

TEST(BinFileSecurity, ALargeFileOfTheWrongKindCostsNoMemory) {
  TempDir dir;
  const fs::path file = dir / "sparse.wtns";
  {
    std::ofstream(file) << "nope";
  }
  fs::resize_file(file, size_t{1} << 30);  // sparse: no disk, but 1 GiB to read
  const long before = max_rss_kib();
  const std::string message = format_error([&] { io::BinFile::open(file, "wtns", 2, io::Residency::copy); });
  EXPECT_NE(message.find("wrong magic"), std::string::npos) << message;
  EXPECT_LT(max_rss_kib() - before, 64 * 1024) << "KiB of peak memory spent on a file refused for its magic";
}

// Bytes a key or witness is read into stay out of core dumps (MADV_DONTDUMP:
// "dd" in the mapping's VmFlags).
TEST(BinFileSecurity, ReadBytesStayOutOfCoreDumps) {
  Bytes file{'t', 'e', 's', 't', 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 's', 'e', 'c', 'r'};
  const io::BinFile f = io::BinFile::from_bytes("secret", file, "test", 1);
  ASSERT_FALSE(vm_flags_of(f.section(1).data()).empty()) << "no mapping holds the bytes";
  EXPECT_TRUE(out_of_core_dumps(f.section(1).data())) << vm_flags_of(f.section(1).data());
}

}  // namespace
}  // namespace cuzk::test
