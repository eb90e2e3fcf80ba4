// The snarkjs binary container shared by .zkey, .wtns, .r1cs and .ptau
// (iden3/binfileutils): magic[4], u32 version, u32 nSections, then nSections x
// (u32 id, u64 size, payload), all little-endian. Sections may come in any
// order (groth16 setup writes 1,2,4,3,9,8,5,6,7,10), so they are found by id.
//
// Also here, because every reader needs them: the error type, the curve a file
// belongs to (identified by its primes), a bounds-checked cursor
// over a section and a parallel scan for the first invalid element.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/ec/curves.hpp"
#include "cuzk/util/parallel.hpp"
#include "cuzk/util/progress.hpp"

namespace cuzk::io {

// A file that is not what it claims to be. The message is one line,
// "<file>: <problem>", fit to print after "error: ".
class FormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// io names the curves as ec does (ec/curves.hpp): every reader and writer
// is a template over one of these bundles.
using ec::Bls12_381;
using ec::Bn254;
using ec::Curve;
using ec::curve_name;

// The curve whose base field (q) or scalar field (r) has this prime, given as
// little-endian bytes as the files store it; nullopt for any other prime.
std::optional<Curve> curve_from_q(std::span<const uint8_t> q);
std::optional<Curve> curve_from_r(std::span<const uint8_t> r);
// A little-endian prime as decimal, for naming an unsupported one in a message;
// beyond 64 bytes only its length ("(a N-byte number)"): the conversion is
// quadratic, and a lying header must not cost minutes or a megabyte line.
std::string prime_to_decimal(std::span<const uint8_t> le);

// Where a BinFile's bytes live. `map`: a read-only mapping of the file, which
// costs no copy but ties the process to the file: if it is truncated while
// mapped, reading a page past the new end kills the process with SIGBUS.
// `copy`: memory the BinFile owns, read from the file once; the file may then
// be replaced, truncated or deleted with no effect. A long-running process
// reads keys with `copy`. `borrowed`: the caller's bytes in place (BinFile::borrow).
enum class Residency { map, copy, borrowed };

// A container file's bytes with its section index. Move-only; the bytes (and
// every span handed out) live until destruction (borrowed ones as long as
// their owner keeps them), and a move keeps their address, so spans stay
// valid across moves. Mapped and copied bytes start at a page boundary, so a
// payload's alignment in memory is its offset's in the file.
class BinFile {
 public:
  // Opens `path` with the given residency, checks the magic and version and
  // indexes the sections: duplicate ids, a section running past the end of
  // the file and bytes after the last section are errors.
  // Anything but a regular file (a FIFO, a device, a socket) is refused
  // before it is opened, so no open or read can block.
  static BinFile open(const std::filesystem::path& path, std::string_view magic, uint32_t version,
                      Residency residency = Residency::map);
  // The same from a descriptor the caller opened (and still owns: it is not
  // closed), e.g. beneath an allowed directory; `name` stands for the file.
  static BinFile open_fd(int fd, std::string name, std::string_view magic, uint32_t version,
                         Residency residency = Residency::map);
  // A copy of `bytes` (a file's contents received in memory), checked as open
  // checks a file; `name` stands for the file in every message.
  static BinFile from_bytes(std::string name, std::span<const uint8_t> bytes, std::string_view magic,
                            uint32_t version);
  // `bytes` in place, checked as from_bytes checks them, with no copy: every
  // span handed out points into them, so they must outlive the BinFile. For
  // bytes decoded once and dropped (a witness decoded straight into a
  // partition's buffer), where a copy would be one more of a secret.
  static BinFile borrow(std::string name, std::span<const uint8_t> bytes, std::string_view magic, uint32_t version);

  BinFile(BinFile&& o) noexcept;
  BinFile& operator=(BinFile&& o) noexcept;
  BinFile(const BinFile&) = delete;
  BinFile& operator=(const BinFile&) = delete;
  ~BinFile();

  // The path or name as given, used to prefix every message about this file.
  const std::string& name() const { return name_; }
  // `copy` for from_bytes, `borrowed` for borrow.
  Residency residency() const { return residency_; }
  bool has(uint32_t id) const { return sections_.count(id) != 0; }
  // The payload of section `id`; a missing section is a FormatError.
  std::span<const uint8_t> section(uint32_t id) const;
  // Offset of section `id`'s payload from the start of the file.
  uint64_t offset(uint32_t id) const;
  // Section `id`'s payload at an 8-byte-aligned address, for reading as
  // 64-bit limbs: in place where its offset is a multiple of 8, else a copy
  // that the file keeps (anonymous pages, huge where the kernel allows, filled
  // on several threads). Every section header is 12 bytes, so about half of a
  // snarkjs file's point sections start at 4 mod 8.
  std::span<const uint8_t> aligned_section(uint32_t id);

  // Throws FormatError("<name>: <problem>").
  [[noreturn]] void fail(const std::string& problem) const;

 private:
  explicit BinFile(std::string name) : name_(std::move(name)) {}
  void check_size() const;
  uint8_t* allocate();
  void seal();
  void check_header(const uint8_t* header, std::string_view magic, uint32_t version) const;
  void index(std::string_view magic, uint32_t version);
  void release() noexcept;

  std::string name_;
  Residency residency_ = Residency::copy;
  const uint8_t* data_ = nullptr;  // mmap'ed: the file, or anonymous pages (owned bytes)
  size_t size_ = 0;
  struct Entry {
    uint64_t offset, size;
  };
  std::map<uint32_t, Entry> sections_;
  struct Pages {
    void* data;
    size_t size;
  };
  std::vector<Pages> aligned_copies_;  // unmapped with the file
};

// A cursor over one section: every read checks that the bytes are there and
// otherwise fails naming the file, the section and what was being read.
class SectionReader {
 public:
  SectionReader(const BinFile& file, uint32_t id) : file_(file), id_(id), bytes_(file.section(id)) {}

  uint32_t u32(const char* what) { return load<uint32_t>(take(4, what)); }
  uint64_t u64(const char* what) { return load<uint64_t>(take(8, what)); }
  std::span<const uint8_t> bytes(size_t n, const char* what) { return {take(n, what), n}; }

  size_t remaining() const { return bytes_.size() - pos_; }
  // The section must have been read to its last byte.
  void expect_end(const char* what) const;
  [[noreturn]] void fail(const std::string& problem) const;

  // Little-endian load from raw bytes (all supported hosts are little-endian).
  template <class T>
  static T load(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }

 private:
  const uint8_t* take(size_t n, const char* what);

  const BinFile& file_;
  uint32_t id_;
  std::span<const uint8_t> bytes_;
  size_t pos_ = 0;
};

// The smallest i in [0, n) with !ok(i), or n when all are fine. Keys hold
// millions of points and an on-curve check is a few dozen multiplications, so
// the scan runs on every core; the answer is the same as a serial scan's, so
// messages do not depend on thread timing.
template <class Ok>
size_t first_invalid(size_t n, Ok ok) {
  std::atomic<size_t> first{n};
  parallel_chunks(n, [&](size_t b, size_t e, size_t) {
    for (size_t i = b; i < e && i < first.load(std::memory_order_relaxed); ++i)
      if (!ok(i)) {
        size_t cur = first.load();
        while (i < cur && !first.compare_exchange_weak(cur, i)) {
        }
        return;
      }
  });
  return first.load();
}

// first_invalid(n, ok) a block at a time, adding each checked block's bytes
// (bytes_each per item) to `progress`; the answer is first_invalid's.
template <class Ok>
size_t first_invalid_reported(size_t n, uint64_t bytes_each, Progress& progress, Ok ok) {
  constexpr size_t kBlock = size_t{1} << 20;
  for (size_t b = 0; b < n; b += kBlock) {
    const size_t m = std::min(kBlock, n - b);
    const size_t bad = first_invalid(m, [&](size_t i) { return ok(b + i); });
    if (bad != m) return b + bad;
    progress.add(m * bytes_each);
  }
  return n;
}

}  // namespace cuzk::io
