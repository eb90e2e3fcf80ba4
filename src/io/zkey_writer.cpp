#include "cuzk/io/zkey_writer.hpp"

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/io/atomic_file.hpp"
#include "cuzk/io/zkey.hpp"

namespace cuzk::io {
namespace {

constexpr uint32_t kVersion = 1, kSections = 10, kGroth16 = 1;
enum Section : uint32_t { kProtocol = 1, kHeader, kIC, kCoefs, kA, kB1, kB2, kC, kH, kContributions };

template <class T>
void put(AtomicFile& f, const T& v) {
  f.write(bytes_of(std::span(&v, 1)));
}

void section(AtomicFile& f, uint32_t id, uint64_t size) {
  put(f, id);
  put(f, size);
}

// Straight from the key's memory: the point types are the format's layout.
template <class P>
void points(AtomicFile& f, uint32_t id, std::span<const P> p) {
  section(f, id, p.size_bytes());
  f.write(bytes_of(p));
}

template <class E>
void check_sizes(const std::filesystem::path& path, const groth16::ProvingKey<E>& k) {
  const auto bad = [&](const std::string& what) {
    throw std::invalid_argument(path.string() + ": cannot write the key: " + what);
  };
  if (k.on_gpu) bad("its points live on GPU " + std::to_string(k.on_gpu->device) + " only");
  if (k.convention != groth16::Convention::snarkjs)
    bad(std::string("it is in ") + groth16::convention_name(k.convention) +
        "'s convention, and a .zkey holds snarkjs's (a bellperson parameter file holds bellman's)");
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
  put(f, (uint32_t)F::bytes);
  for (size_t i = 0; i < F::N; ++i) put(f, F::params::modulus(i));
}

template <class E>
void write_coefs(AtomicFile& f, std::span<const groth16::Coef<E>> coefs) {
  using Fr = typename E::Fr;
  constexpr size_t entry = 12 + Fr::bytes, kBlock = 1 << 14;
  section(f, kCoefs, 4 + coefs.size() * entry);
  put(f, (uint32_t)coefs.size());
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
    f.write(std::span(buf).first(n * entry));
  }
}

}  // namespace

template <class E>
void write_zkey(const std::filesystem::path& path, const groth16::ProvingKey<E>& k) {
  using G1 = ec::Affine<typename E::G1>;
  using G2 = ec::Affine<typename E::G2>;
  check_sizes(path, k);
  // Points read with their checks deferred are checked before they are written.
  if (k.check_points) k.check_points(k);
  AtomicFile f(path);
  f.write(bytes_of(std::span("zkey", 4)));
  put(f, kVersion);
  put(f, kSections);

  section(f, kProtocol, 4);
  put(f, kGroth16);

  section(f, kHeader, 4 + E::Fq::bytes + 4 + E::Fr::bytes + 12 + 3 * sizeof(G1) + 3 * sizeof(G2));
  put_modulus<typename E::Fq>(f);
  put_modulus<typename E::Fr>(f);
  put(f, (uint32_t)k.n_vars());
  put(f, (uint32_t)k.n_public());
  put(f, (uint32_t)k.domain_size());
  // snarkjs's order (not the one its zkey_utils.js comment gives).
  put(f, k.alpha1);
  put(f, k.beta1);
  put(f, k.beta2);
  put(f, k.gamma2);
  put(f, k.delta1);
  put(f, k.delta2);

  points(f, kIC, k.ic);
  write_coefs<E>(f, k.coefs);
  points(f, kA, k.a);
  points(f, kB1, k.b1);
  points(f, kB2, k.b2);
  points(f, kC, k.c);
  points(f, kH, k.h);

  section(f, kContributions, 64 + 4);
  const uint8_t cs_hash[64] = {};
  f.write(cs_hash);
  put(f, uint32_t{0});
  f.commit();
}

template void write_zkey(const std::filesystem::path&, const groth16::ProvingKey<ec::Bn254>&);
template void write_zkey(const std::filesystem::path&, const groth16::ProvingKey<ec::Bls12_381>&);

}  // namespace cuzk::io
