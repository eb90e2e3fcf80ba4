#include "cuzk/io/bellperson.hpp"

#include <algorithm>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <stdexcept>

#include "cuzk/ec/encoding.hpp"
#include "cuzk/ec/ops.hpp"
#include "cuzk/io/atomic_file.hpp"
#include "cuzk/util/parallel.hpp"
#include "cuzk/util/progress.hpp"

namespace cuzk::io {

namespace {

namespace zc = ec::zcash;
using Params = BellpersonParams<Bls12_381>;
using G1 = Bls12_381::G1;
using G2 = Bls12_381::G2;

std::string str(uint64_t v) { return std::to_string(v); }

template <class C>
constexpr size_t kPointBytes = zc::uncompressed_size<C>;
// The verifying key's six points, up to IC's count.
constexpr size_t kVkPoints = 3 * kPointBytes<G1> + 3 * kPointBytes<G2>;

// What the reader and the count scan say of a count and of the bytes it needs.
std::string truncated(const std::string& what, uint64_t need, uint64_t remain) {
  return "truncated: " + what + " needs " + str(need) + " bytes but " + str(remain) + " remain";
}
std::string claims(const std::string& what, uint64_t n, uint64_t size, uint64_t remain) {
  return what + " claims " + str(n) + " points (" + str(n) + " x " + str(size) + " bytes) but " + str(remain) +
         " bytes remain";
}
uint32_t big_endian(const uint8_t* c) { return uint32_t(c[0]) << 24 | uint32_t(c[1]) << 16 | uint32_t(c[2]) << 8 | c[3]; }

// The indices of a vector of n points whose subgroup membership is checked:
// all of them for the verifying key or up to kBellpersonSubgroupSample, beyond
// that that many drawn afresh on every read (so a file cannot be made to avoid
// them), in order, so that the first bad one found is the first bad one sampled.
std::vector<size_t> subgroup_sample(size_t n, bool all) {
  std::vector<size_t> idx;
  if (all || n <= kBellpersonSubgroupSample) {
    for (size_t i = 0; i < n; ++i) idx.push_back(i);
    return idx;
  }
  std::mt19937_64 rng(std::random_device{}());
  std::uniform_int_distribution<size_t> pick(0, n - 1);
  for (size_t j = 0; j < kBellpersonSubgroupSample; ++j) idx.push_back(pick(rng));
  std::sort(idx.begin(), idx.end());
  return idx;
}

// A cursor over the file's bytes; every failure names the offset where the
// offending item starts.
class Reader {
 public:
  Reader(const std::string& name, std::span<const uint8_t> bytes)
      : name_(name), bytes_(bytes),
        progress_("read " + std::filesystem::path(name).filename().string(), bytes.size(), "B") {}

  [[noreturn]] void fail(uint64_t offset, const std::string& problem) const {
    throw FormatError(name_ + ": offset " + str(offset) + ": " + problem);
  }

  uint64_t remaining() const { return bytes_.size() - pos_; }

  std::span<const uint8_t> take(uint64_t n, const std::string& what) {
    if (n > remaining()) fail(pos_, truncated(what, n, remaining()));
    const auto out = bytes_.subspan(pos_, n);
    pos_ += n;
    return out;
  }

  // One point of the verifying key, where bellperson accepts infinity.
  template <class C>
  ec::Affine<C> point(const char* what) {
    const uint64_t at = pos_;
    ec::Affine<C> p;
    const auto err = zc::decode<C>(take(kPointBytes<C>, what), p);
    if (err != ec::DecodeError::ok) fail(at, std::string(what) + ": " + ec::describe(err));
    return p;
  }

  // A big-endian u32 count and that many points, checked in parallel. `in_vk`:
  // ic, part of the verifying key, may hold infinity and is checked whole.
  template <class C>
  BulkVector<ec::Affine<C>> points(const std::string& what, bool in_vk) {
    const uint64_t at = pos_;
    const auto c = take(4, what + " count");
    const uint32_t n = big_endian(c.data());
    constexpr uint64_t size = kPointBytes<C>;
    if (uint64_t{n} * size > remaining())  // at most 2^32 x 192: no overflow in 64 bits
      fail(at, claims(what, n, size, remaining()));
    const uint64_t start = pos_;
    BulkVector<ec::Affine<C>> out(n);  // left unwritten: the decoding threads touch its pages first
    auto decode = [&](size_t i) {
      return zc::decode<C>(bytes_.subspan(start + i * size, size), out[i], /*check_subgroup=*/false);
    };
    const size_t bad = first_invalid_reported(n, size, progress_, [&](size_t i) {
      return decode(i) == ec::DecodeError::ok && (in_vk || !out[i].is_inf());
    });
    if (bad != n) {
      const auto err = decode(bad);
      fail(start + bad * size, what + " point " + str(bad) + ": " +
                                   (err == ec::DecodeError::ok ? "the point at infinity, which bellperson refuses"
                                                               : ec::describe(err)));
    }
    const std::vector<size_t> sample = subgroup_sample(n, in_vk);
    const size_t outside = first_invalid(sample.size(), [&](size_t j) { return ec::in_subgroup(out[sample[j]]); });
    if (outside != sample.size())
      fail(start + sample[outside] * size,
           what + " point " + str(sample[outside]) + ": " + ec::describe(ec::DecodeError::not_in_subgroup));
    pos_ += n * size;
    return out;
  }

  void vk(BellpersonVk<Bls12_381>& p) {
    p.alpha1 = point<G1>("alpha_g1");
    p.beta1 = point<G1>("beta_g1");
    p.beta2 = point<G2>("beta_g2");
    p.gamma2 = point<G2>("gamma_g2");
    p.delta1 = point<G1>("delta_g1");
    p.delta2 = point<G2>("delta_g2");
    const auto ic = points<G1>("ic", true);
    p.ic.assign(ic.begin(), ic.end());
  }

  Params run() {
    Params p;
    vk(p);
    p.h = points<G1>("h", false);
    p.l = points<G1>("l", false);
    p.a = points<G1>("a", false);
    p.b_g1 = points<G1>("b_g1", false);
    p.b_g2 = points<G2>("b_g2", false);
    if (remaining() != 0) fail(pos_, str(remaining()) + " bytes after the last point (b_g2)");
    return p;
  }

 private:
  const std::string& name_;
  std::span<const uint8_t> bytes_;
  uint64_t pos_ = 0;
  Progress progress_;
};

// Streams the file: a small buffer for the verifying key's points and
// counts, blocks of encoded points (encoded in parallel) for the vectors.
class Writer {
 public:
  explicit Writer(const std::filesystem::path& path) : path_(path), file_(path) {}

  template <class C>
  void point(const ec::Affine<C>& p) {
    uint8_t buf[kPointBytes<C>];
    zc::encode_uncompressed<C>(p, buf);
    file_.write(buf);
  }

  template <class C>
  void points(const char* what, std::span<const ec::Affine<C>> v, bool allow_infinity) {
    if (v.size() > std::numeric_limits<uint32_t>::max())
      refuse(std::string(what) + " has " + str(v.size()) + " points, more than a u32 count can say");
    if (!allow_infinity) {
      const size_t inf = first_invalid(v.size(), [&](size_t i) { return !v[i].is_inf(); });
      if (inf != v.size())
        refuse(std::string(what) + " point " + str(inf) + " is the point at infinity, which bellperson refuses");
    }
    const uint32_t n = uint32_t(v.size());
    const uint8_t count[4] = {uint8_t(n >> 24), uint8_t(n >> 16), uint8_t(n >> 8), uint8_t(n)};
    file_.write(count);
    constexpr size_t size = kPointBytes<C>, kBlock = size_t{1} << 16;
    std::vector<uint8_t> buf(std::min(v.size(), kBlock) * size);
    for (size_t b = 0; b < v.size(); b += kBlock) {
      const size_t m = std::min(kBlock, v.size() - b);
      parallel_chunks(m, [&](size_t lo, size_t hi, size_t) {
        for (size_t i = lo; i < hi; ++i)
          zc::encode_uncompressed<C>(v[b + i], std::span<uint8_t, size>(buf.data() + i * size, size));
      });
      file_.write(std::span(buf.data(), m * size));
    }
  }

  void commit() { file_.commit(); }

 private:
  [[noreturn]] void refuse(const std::string& why) const {
    throw std::invalid_argument(path_.string() + ": cannot write the parameters: " + why);
  }

  std::filesystem::path path_;
  AtomicFile file_;
};

// A whole file mapped read-only: its points decode on every core straight from
// the page cache, and a parameter file (47 GB for a 32 GiB-sector PoRep) is
// not held twice, as bytes and as points.
class Mapping {
 public:
  explicit Mapping(const std::filesystem::path& path) {
    const std::string name = path.string();
    const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw FormatError(name + ": cannot open: " + std::strerror(errno));
    struct stat st {};
    const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    size_ = regular ? (size_t)st.st_size : 0;
    void* p = regular && size_ ? ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0) : nullptr;
    const int mapping_errno = errno;
    ::close(fd);
    if (!regular) throw FormatError(name + ": not a regular file");
    if (p == MAP_FAILED) throw FormatError(name + ": cannot map: " + std::strerror(mapping_errno));
    data_ = static_cast<const uint8_t*>(p);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  ~Mapping() {
    if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
  }
  std::span<const uint8_t> bytes() const { return {data_, size_}; }

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

// The file opened for reading, and its size; FormatError naming it otherwise.
std::ifstream open_sized(const std::filesystem::path& path, uintmax_t& size) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FormatError(path.string() + ": cannot open: " + std::strerror(errno));
  std::error_code ec;
  size = std::filesystem::file_size(path, ec);
  if (ec) throw FormatError(path.string() + ": cannot read: " + ec.message());
  return in;
}

}  // namespace

BellpersonParams<Bls12_381> read_bellperson_params_bytes(const std::string& name, std::span<const uint8_t> bytes) {
  return Reader(name, bytes).run();
}

BellpersonParams<Bls12_381> read_bellperson_params(const std::filesystem::path& path) {
  const Mapping file(path);
  return read_bellperson_params_bytes(path.string(), file.bytes());
}

BellpersonVk<Bls12_381> read_bellperson_vk(const std::filesystem::path& path, bool* is_params) {
  const std::string name = path.string();
  uintmax_t size = 0;
  std::ifstream in = open_sized(path, size);
  // The six points and IC's count, then IC: a short file reads short and the
  // Reader names what is missing.
  constexpr size_t kHead = kVkPoints + 4;
  std::vector<uint8_t> bytes(std::min<uintmax_t>(size, kHead));
  in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(bytes.size()));
  if (bytes.size() == kHead) {
    const uint64_t n = big_endian(bytes.data() + kHead - 4);
    bytes.resize(kHead + std::min<uintmax_t>(n * kPointBytes<G1>, size - kHead));
    in.read(reinterpret_cast<char*>(bytes.data() + kHead), std::streamsize(bytes.size() - kHead));
  }
  if (!in) throw FormatError(name + ": read error");
  BellpersonVk<Bls12_381> vk;
  Reader(name, bytes).vk(vk);
  if (is_params) *is_params = size > bytes.size();
  return vk;
}

BellpersonCounts read_bellperson_counts(const std::filesystem::path& path) {
  const std::string name = path.string();
  uintmax_t size = 0;
  std::ifstream in = open_sized(path, size);
  if (size < kVkPoints) throw FormatError(name + ": offset 0: " + truncated("the verifying key", kVkPoints, size));
  uint64_t pos = kVkPoints;
  const auto fail = [&](const std::string& problem) { throw FormatError(name + ": offset " + str(pos) + ": " + problem); };
  const auto count = [&](const char* what, uint64_t point) -> uint64_t {
    uint8_t c[4];
    if (size - pos < 4) fail(truncated(std::string(what) + " count", 4, size - pos));
    if (!in.seekg(std::streamoff(pos)) || !in.read(reinterpret_cast<char*>(c), 4)) fail("read error");
    const uint64_t n = big_endian(c), remain = size - pos - 4;
    if (n * point > remain) fail(claims(what, n, point, remain));
    pos += 4 + n * point;
    return n;
  };
  BellpersonCounts n;
  n.ic = count("ic", kPointBytes<G1>);
  n.h = count("h", kPointBytes<G1>);
  n.l = count("l", kPointBytes<G1>);
  n.a = count("a", kPointBytes<G1>);
  n.b_g1 = count("b_g1", kPointBytes<G1>);
  n.b_g2 = count("b_g2", kPointBytes<G2>);
  if (pos != size) fail(str(size - pos) + " bytes after the last point (b_g2)");
  return n;
}

void write_bellperson_params(const std::filesystem::path& path, const BellpersonParams<Bls12_381>& params) {
  Writer w(path);
  w.point(params.alpha1);
  w.point(params.beta1);
  w.point(params.beta2);
  w.point(params.gamma2);
  w.point(params.delta1);
  w.point(params.delta2);
  w.points<G1>("ic", params.ic, true);
  w.points<G1>("h", params.h, false);
  w.points<G1>("l", params.l, false);
  w.points<G1>("a", params.a, false);
  w.points<G1>("b_g1", params.b_g1, false);
  w.points<G2>("b_g2", params.b_g2, false);
  w.commit();
}

}  // namespace cuzk::io
