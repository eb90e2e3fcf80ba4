// SHA-256 against FIPS 180-4's examples, by pieces of every size as by the
// whole, and from a file descriptor; on a CPU with the SHA extensions these
// run that path, elsewhere the portable rounds.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "cuzk/util/sha256.hpp"

namespace cuzk::util {
namespace {

std::span<const uint8_t> bytes_of(const std::string& s) { return {(const uint8_t*)s.data(), s.size()}; }

TEST(Sha256, MatchesTheStandardsExamples) {
  EXPECT_EQ(hex(sha256({})), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex(sha256(bytes_of("abc"))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hex(sha256(bytes_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(hex(sha256(bytes_of(std::string(1000000, 'a')))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PiecesHashAsTheWhole) {
  std::vector<uint8_t> data(4099);
  for (size_t i = 0; i < data.size(); ++i) data[i] = (uint8_t)(i * 131 + 7);
  for (size_t length : {0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 4099}) {
    const std::span<const uint8_t> whole(data.data(), length);
    for (size_t piece : {1, 3, 64, 100}) {
      Sha256 h;
      for (size_t at = 0; at < length; at += piece) h.update(whole.subspan(at, std::min(piece, length - at)));
      EXPECT_EQ(h.finish(), sha256(whole)) << length << " bytes in pieces of " << piece;
    }
  }
}

TEST(Sha256, AFileHashesAsItsBytes) {
  char path[] = "/tmp/cuzk-sha256-XXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  std::vector<uint8_t> data((size_t(9) << 20) + 5);  // more than one read's chunk
  for (size_t i = 0; i < data.size(); ++i) data[i] = (uint8_t)(i ^ (i >> 11));
  ASSERT_EQ(::write(fd, data.data(), data.size()), (ssize_t)data.size());
  EXPECT_EQ(sha256_fd(fd), sha256(data));
  ::close(fd);
  ::unlink(path);
}

}  // namespace
}  // namespace cuzk::util
