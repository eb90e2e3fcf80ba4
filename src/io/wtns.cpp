#include "cuzk/io/wtns.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <system_error>

namespace cuzk::io {

static_assert((int)Curve::bn254 == 0 && (int)Curve::bls12_381 == 1,
              "Witness::values lists the curves in the order of the Curve enumerators");

namespace {

constexpr uint32_t kVersion = 2;
constexpr uint32_t kHeader = 1, kValues = 2;

template <class E>
Witness decode(const BinFile& file, std::span<const uint8_t> bytes, uint32_t n) {
  using Fr = typename E::Fr;
  std::vector<Fr> values(n);
  const size_t bad = first_invalid(n, [&](size_t i) {
    uint64_t v[Fr::N];
    std::memcpy(v, bytes.data() + i * Fr::bytes, Fr::bytes);
    return Fr::from_canonical(v, values[i]);
  });
  if (bad != n)
    file.fail("witness value " + std::to_string(bad) + " is not below the scalar field modulus r of " +
              curve_name(E::id));
  return Witness{std::move(values), file.name()};
}

}  // namespace

Witness read_wtns(const std::filesystem::path& path) {
  const BinFile file = BinFile::open(path, "wtns", kVersion);

  SectionReader h(file, kHeader);
  const uint32_t n8 = h.u32("n8");
  if (n8 != 32) h.fail("n8 = " + std::to_string(n8) + ", but the supported scalar fields have 32-byte elements");
  const auto prime = h.bytes(n8, "the prime");
  const uint32_t n = h.u32("nWitness");
  h.expect_end("the header");
  const auto curve = curve_from_r(prime);
  if (!curve)
    h.fail("prime " + prime_to_decimal(prime) + " is not the scalar field of bn128 or bls12381");

  const auto values = file.section(kValues);
  if (values.size() != (uint64_t)n * n8)
    file.fail("section 2 is " + std::to_string(values.size()) + " bytes but " + std::to_string(n) + " × " +
              std::to_string(n8) + " bytes are needed for " + std::to_string(n) + " witness values");
  return *curve == Curve::bn254 ? decode<Bn254>(file, values, n) : decode<Bls12_381>(file, values, n);
}

namespace {

// An open file descriptor that is closed, and a temporary file that is removed,
// unless the write gets to the end.
class TempFile {
 public:
  explicit TempFile(const std::filesystem::path& target) : target_(target) {
    // O_EXCL on a name of our own (pid + counter) instead of mkstemp, so that the
    // file gets the usual 0666 & ~umask permissions rather than 0600.
    static std::atomic<unsigned> counter{0};
    for (int attempt = 0; attempt < 100; ++attempt) {
      path_ = target.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
      fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd_ >= 0 || errno != EEXIST) break;
    }
    if (fd_ < 0) fail("cannot create a temporary file next to it");
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(path_.c_str());
  }

  void write(const void* data, size_t n) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
      const ssize_t k = ::write(fd_, p, n);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) fail("write failed");
      p += k;
      n -= (size_t)k;
    }
  }

  // fsync before rename: otherwise a crash can leave the new name pointing at
  // an empty file.
  void commit() {
    if (::fsync(fd_) != 0) fail("fsync failed");
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail("close failed");
    if (::rename(path_.c_str(), target_.c_str()) != 0) fail("rename failed");
    committed_ = true;
  }

 private:
  [[noreturn]] void fail(const char* what) {
    throw std::system_error(errno, std::generic_category(), target_.string() + ": " + what);
  }

  std::filesystem::path target_;
  std::string path_;
  int fd_ = -1;
  bool committed_ = false;
};

template <class T>
void put(std::vector<uint8_t>& out, T v) {
  const size_t at = out.size();
  out.resize(at + sizeof v);
  std::memcpy(out.data() + at, &v, sizeof v);
}

template <class Fr>
void write_values(TempFile& f, const std::vector<Fr>& values) {
  std::vector<uint8_t> buf;
  put<uint32_t>(buf, kHeader);
  put<uint64_t>(buf, 4 + Fr::bytes + 4);
  put<uint32_t>(buf, Fr::bytes);
  for (size_t i = 0; i < Fr::N; ++i) put<uint64_t>(buf, Fr::params::modulus(i));
  put<uint32_t>(buf, (uint32_t)values.size());
  put<uint32_t>(buf, kValues);
  put<uint64_t>(buf, (uint64_t)values.size() * Fr::bytes);
  f.write(buf.data(), buf.size());

  // Values leave Montgomery form in blocks, so memory stays bounded for any size.
  constexpr size_t kBlock = 1 << 15;
  std::vector<uint64_t> block(kBlock * Fr::N);
  for (size_t b = 0; b < values.size(); b += kBlock) {
    const size_t n = std::min(kBlock, values.size() - b);
    for (size_t i = 0; i < n; ++i) values[b + i].to_canonical(&block[i * Fr::N]);
    f.write(block.data(), n * Fr::bytes);
  }
}

}  // namespace

void write_wtns(const std::filesystem::path& path, const Witness& w) {
  if (w.size() > UINT32_MAX)
    throw std::invalid_argument(path.string() + ": " + std::to_string(w.size()) +
                                " witness values do not fit the format's u32 count");
  TempFile f(path);
  const char magic[4] = {'w', 't', 'n', 's'};
  f.write(magic, 4);
  const uint32_t head[2] = {kVersion, 2};  // version, nSections
  f.write(head, sizeof head);
  std::visit([&](const auto& values) { write_values(f, values); }, w.values);
  f.commit();
}

}  // namespace cuzk::io
