// The container under every reader: a file larger than one copy chunk (so
// read in pieces, in parallel) comes back byte for byte whichever way
// it is read, and owned bytes keep the file's alignment.
#include "cuzk/io/binfile.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <span>
#include <utility>
#include <vector>

#include "io_test_support.hpp"

namespace cuzk::test {
namespace {

// n random bytes.
Bytes random_bytes(size_t n, uint64_t seed) {
  Bytes b(n);
  std::mt19937_64 rng(seed);
  for (auto& x : b) x = (uint8_t)rng();
  return b;
}

// A "test" container of `version` holding (id, payload) sections in order.
Container container(uint32_t version, std::vector<std::pair<uint32_t, Bytes>> sections) {
  Container c;
  c.magic = {'t', 'e', 's', 't'};
  c.version = version;
  for (auto& [id, data] : sections) c.sections.push_back({id, std::move(data), std::nullopt});
  return c;
}

TEST(BinFile, EveryResidencyAndBytesHoldTheWholeFile) {
  TempDir dir;
  // One 64 MiB copy chunk and a part of another, then a small section at an
  // offset that is not a multiple of 8.
  const Bytes big = random_bytes((size_t{64} << 20) + 12345, 99);
  const Container c = container(3, {{7, big}, {2, Bytes{1, 2, 3}}});
  const fs::path p = dir / "big.bin";
  const Bytes file = c.bytes();
  write_bytes(p, file);

  const auto check = [&](const io::BinFile& f, io::Residency residency) {
    EXPECT_EQ(f.residency(), residency);
    ASSERT_EQ(f.section(7).size(), big.size());
    EXPECT_EQ(std::memcmp(f.section(7).data(), big.data(), big.size()), 0);
    EXPECT_EQ(f.section(2).size(), 3u);
    EXPECT_EQ(f.section(2)[2], 3);
    for (uint32_t id : {7u, 2u})
      EXPECT_EQ(reinterpret_cast<uintptr_t>(f.section(id).data()) % 4096, f.offset(id) % 4096) << "section " << id;
  };
  check(io::BinFile::open(p, "test", 3), io::Residency::map);
  check(io::BinFile::open(p, "test", 3, io::Residency::copy), io::Residency::copy);
  const io::BinFile from_bytes = io::BinFile::from_bytes("upload", file, "test", 3);
  check(from_bytes, io::Residency::copy);
  EXPECT_EQ(from_bytes.name(), "upload");
  expect_format_error("upload", [&] { io::BinFile::from_bytes("upload", file, "tset", 3); }, "wrong magic");
  expect_format_error("upload", [&] { io::BinFile::from_bytes("upload", {}, "test", 3); }, "file is 0 bytes");
}

// A section at an offset that is not a multiple of 8 comes back as an aligned
// copy (several copy pieces long, filled in parallel) that outlives a move of
// the file; an aligned one is its place in the file.
TEST(BinFile, AlignedSectionsAreInPlaceOrCopied) {
  TempDir dir;
  const Bytes large = random_bytes((size_t{9} << 20) + 3, 7);
  const Container c = container(1, {{7, Bytes(96, 7)}, {2, Bytes{1, 2, 3}}, {9, large}});  // 7's payload at 24
  const fs::path p = dir / "sections.bin";
  const Bytes file = c.bytes();
  write_bytes(p, file);

  const auto check = [&](io::BinFile f) {
    EXPECT_EQ(f.aligned_section(7).data(), f.section(7).data());
    std::vector<std::span<const uint8_t>> copies;
    for (uint32_t id : {2u, 9u}) {
      const auto in_file = f.section(id);
      ASSERT_NE(reinterpret_cast<uintptr_t>(in_file.data()) % 8, 0u) << "the test wants section " << id << " misaligned";
      const auto aligned = f.aligned_section(id);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned.data()) % 8, 0u) << "section " << id;
      ASSERT_EQ(aligned.size(), in_file.size());
      EXPECT_EQ(std::memcmp(aligned.data(), in_file.data(), in_file.size()), 0) << "section " << id;
      copies.push_back(aligned);
    }
    const io::BinFile moved = std::move(f);
    EXPECT_EQ(std::memcmp(copies[1].data(), large.data(), large.size()), 0) << "the copy moves with the file";
  };
  check(io::BinFile::open(p, "test", 1));
  check(io::BinFile::open(p, "test", 1, io::Residency::copy));
  check(io::BinFile::from_bytes("upload", file, "test", 1));
}

}  // namespace
}  // namespace cuzk::test
