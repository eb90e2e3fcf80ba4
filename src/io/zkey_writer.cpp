#include "cuzk/io/zkey_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "cuzk/io/zkey.hpp"

namespace cuzk::io {
namespace {

constexpr uint32_t kVersion = 1, kSections = 10, kGroth16 = 1;
enum Section : uint32_t { kProtocol = 1, kHeader, kIC, kCoefs, kA, kB1, kB2, kC, kH, kContributions };

// The output: a temporary file created beside the target and renamed over it
// by commit(); destroyed uncommitted, it is removed.
class AtomicFile {
 public:
  explicit AtomicFile(const std::filesystem::path& target) : target_(target) {
    // O_EXCL on a name of our own rather than mkstemp, so that the key gets
    // the usual 0666 & ~umask permissions, not 0600.
    static std::atomic<unsigned> counter{0};
    do {
      temp_ = target.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
      fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    } while (fd_ < 0 && errno == EEXIST);
    if (fd_ < 0) fail("cannot create a file beside it");
  }
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(temp_.c_str());
  }

  void write(const void* data, size_t n) {
    for (auto p = static_cast<const char*>(data); n > 0;) {
      const ssize_t k = ::write(fd_, p, n);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) fail("write failed");
      p += k;
      n -= (size_t)k;
    }
  }
  template <class T>
  void put(const T& v) {
    write(&v, sizeof v);
  }
  void section(uint32_t id, uint64_t size) {
    put(id);
    put(size);
  }
  template <class P>
  void points(uint32_t id, std::span<const P> p) {
    section(id, p.size_bytes());
    write(p.data(), p.size_bytes());
  }

  // fsync before the rename, or a crash could leave the name on an empty file.
  void commit() {
    const int fd = std::exchange(fd_, -1);
    if (::fsync(fd) != 0) {
      ::close(fd);
      fail("fsync failed");
    }
    if (::close(fd) != 0) fail("close failed");
    if (::rename(temp_.c_str(), target_.c_str()) != 0) fail("rename failed");
    committed_ = true;
  }

 private:
  [[noreturn]] void fail(const char* what) const {
    throw std::system_error(errno, std::generic_category(), target_.string() + ": " + what);
  }

  std::filesystem::path target_;
  std::string temp_;
  int fd_ = -1;
  bool committed_ = false;
};

template <class E>
void check_sizes(const std::filesystem::path& path, const groth16::ProvingKey<E>& k) {
  const auto bad = [&](const std::string& what) {
    throw std::invalid_argument(path.string() + ": cannot write the key: " + what);
  };
  const size_t nv = k.a.size(), n = k.h.size();
  if (k.ic.empty() || k.ic.size() > nv)
    bad(std::to_string(k.ic.size()) + " IC points for " + std::to_string(nv) + " signals");
  if (k.b1.size() != nv || k.b2.size() != nv || k.c.size() != nv - k.ic.size())
    bad("A, B1, B2 and C have " + std::to_string(nv) + ", " + std::to_string(k.b1.size()) + ", " +
        std::to_string(k.b2.size()) + " and " + std::to_string(k.c.size()) +
        " points, not n_vars, n_vars, n_vars and " + std::to_string(nv - k.ic.size()));
  if (n == 0 || (n & (n - 1)) != 0) bad(std::to_string(n) + " H points, not a power of two");
  if (nv > UINT32_MAX || n > UINT32_MAX || k.coefs.size() > UINT32_MAX)
    bad(std::to_string(nv) + " signals, " + std::to_string(n) + " H points and " + std::to_string(k.coefs.size()) +
        " coefficients exceed the format's u32 counts");
}

template <class F>
void put_modulus(AtomicFile& f) {
  f.put((uint32_t)F::bytes);
  for (size_t i = 0; i < F::N; ++i) f.put(F::params::modulus(i));
}

template <class E>
void write_coefs(AtomicFile& f, std::span<const groth16::Coef<E>> coefs) {
  using Fr = typename E::Fr;
  constexpr size_t entry = 12 + Fr::bytes, kBlock = 1 << 14;
  f.section(kCoefs, 4 + coefs.size() * entry);
  f.put((uint32_t)coefs.size());
  std::vector<uint8_t> buf(kBlock * entry);
  for (size_t b = 0; b < coefs.size(); b += kBlock) {
    const size_t n = std::min(kBlock, coefs.size() - b);
    for (size_t i = 0; i < n; ++i) {
      const groth16::Coef<E>& c = coefs[b + i];
      const uint32_t head[3] = {c.matrix, c.constraint, c.signal};
      const Fr stored = coef_to_stored(c.value);
      std::memcpy(&buf[i * entry], head, 12);
      std::memcpy(&buf[i * entry + 12], stored.limb, Fr::bytes);
    }
    f.write(buf.data(), n * entry);
  }
}

}  // namespace

template <class E>
void write_zkey(const std::filesystem::path& path, const groth16::ProvingKey<E>& k) {
  using G1 = ec::Affine<typename E::G1>;
  using G2 = ec::Affine<typename E::G2>;
  check_sizes(path, k);
  AtomicFile f(path);
  f.write("zkey", 4);
  f.put(kVersion);
  f.put(kSections);

  f.section(kProtocol, 4);
  f.put(kGroth16);

  f.section(kHeader, 4 + E::Fq::bytes + 4 + E::Fr::bytes + 12 + 3 * sizeof(G1) + 3 * sizeof(G2));
  put_modulus<typename E::Fq>(f);
  put_modulus<typename E::Fr>(f);
  f.put((uint32_t)k.n_vars());
  f.put((uint32_t)k.n_public());
  f.put((uint32_t)k.domain_size());
  // snarkjs's order (not the one its zkey_utils.js comment gives).
  f.put(k.alpha1);
  f.put(k.beta1);
  f.put(k.beta2);
  f.put(k.gamma2);
  f.put(k.delta1);
  f.put(k.delta2);

  f.points(kIC, k.ic);
  write_coefs<E>(f, k.coefs);
  f.points(kA, k.a);
  f.points(kB1, k.b1);
  f.points(kB2, k.b2);
  f.points(kC, k.c);
  f.points(kH, k.h);

  f.section(kContributions, 64 + 4);
  const uint8_t cs_hash[64] = {};
  f.write(cs_hash, sizeof cs_hash);
  f.put(uint32_t{0});
  f.commit();
}

template void write_zkey(const std::filesystem::path&, const groth16::ProvingKey<ec::Bn254>&);
template void write_zkey(const std::filesystem::path&, const groth16::ProvingKey<ec::Bls12_381>&);

}  // namespace cuzk::io
