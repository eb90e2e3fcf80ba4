#include "cuzk/io/bellperson_proof.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

#include "cuzk/ec/encoding.hpp"
#include "cuzk/io/atomic_file.hpp"

namespace cuzk::io {

namespace {

namespace zc = ec::zcash;
using G1 = Bls12_381::G1;
using G2 = Bls12_381::G2;
constexpr size_t kG1 = zc::compressed_size<G1>, kG2 = zc::compressed_size<G2>;
static_assert(2 * kG1 + kG2 == kBellpersonProofSize);

template <class C>
void decode_point(const std::string& name, std::span<const uint8_t> bytes, size_t offset, const char* what,
                  ec::Affine<C>& out) {
  const auto err = zc::decode<C>(bytes.subspan(offset, zc::compressed_size<C>), out);
  if (err != ec::DecodeError::ok)
    throw FormatError(name + ": offset " + std::to_string(offset) + ": " + what + ": " + ec::describe(err));
  if (out.is_inf())
    throw FormatError(name + ": offset " + std::to_string(offset) + ": " + what +
                      ": the point at infinity, which bellperson refuses in a proof");
}

}  // namespace

std::array<uint8_t, kBellpersonProofSize> encode_bellperson_proof(const groth16::Proof<Bls12_381>& proof) {
  std::array<uint8_t, kBellpersonProofSize> out;
  zc::encode_compressed<G1>(proof.a, std::span<uint8_t, kG1>(out.data(), kG1));
  zc::encode_compressed<G2>(proof.b, std::span<uint8_t, kG2>(out.data() + kG1, kG2));
  zc::encode_compressed<G1>(proof.c, std::span<uint8_t, kG1>(out.data() + kG1 + kG2, kG1));
  return out;
}

groth16::Proof<Bls12_381> decode_bellperson_proof(const std::string& name, std::span<const uint8_t> bytes) {
  if (bytes.size() != kBellpersonProofSize)
    throw FormatError(name + ": " + (bytes.size() > kBellpersonProofSize ? "more than " + std::to_string(kBellpersonProofSize) : std::to_string(bytes.size())) + " bytes; a bellperson proof is exactly " +
                      std::to_string(kBellpersonProofSize) + " (A 48, B 96, C 48, compressed)");
  groth16::Proof<Bls12_381> p;
  decode_point<G1>(name, bytes, 0, "A", p.a);
  decode_point<G2>(name, bytes, kG1, "B", p.b);
  decode_point<G1>(name, bytes, kG1 + kG2, "C", p.c);
  return p;
}

groth16::Proof<Bls12_381> read_bellperson_proof(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FormatError(name + ": cannot open: " + std::strerror(errno));
  // One byte more than a proof, so that a longer file reads as too long.
  std::vector<uint8_t> bytes(kBellpersonProofSize + 1);
  in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(bytes.size()));
  if (in.bad()) throw FormatError(name + ": read error");
  bytes.resize(size_t(in.gcount()));
  return decode_bellperson_proof(name, bytes);
}

void write_bellperson_proof(const std::filesystem::path& path, const groth16::Proof<Bls12_381>& proof) {
  const auto bytes = encode_bellperson_proof(proof);
  AtomicFile file(path);
  file.write(bytes);
  file.commit();
}

}  // namespace cuzk::io
