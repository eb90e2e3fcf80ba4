// snarkjs .wtns files, version 2 (snarkjs src/wtns_utils.js; circom's
// writeBinWitness): section 1 = u32 n8, the scalar-field prime r (n8 bytes),
// u32 nWitness; section 2 = nWitness values of n8 bytes, little-endian in
// normal (not Montgomery) form. Signal 0 is the constant 1.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "cuzk/io/binfile.hpp"
#include "cuzk/util/secure_zero.hpp"

namespace cuzk::io {

// A client's secret: its values are zeroed (secure_zero_parallel) when it goes
// and before it is assigned over.
struct Witness {
  using Values = std::variant<std::vector<ff::bn254::Fr>, std::vector<ff::bls12_381::Fr>>;
  // Values in Montgomery form; the alternative says the curve (its index is the
  // Curve enumerator's value).
  Values values;
  // The file it was read from (or the name its bytes came with), for
  // messages; empty when built in memory.
  std::string source;

  Witness(Values v, std::string s = {}) : values(std::move(v)), source(std::move(s)) {}
  Witness(Witness&&) noexcept = default;
  Witness(const Witness&) = default;
  Witness& operator=(Witness&& o) noexcept {
    zero();
    values = std::move(o.values);
    source = std::move(o.source);
    return *this;
  }
  Witness& operator=(const Witness&) = delete;
  ~Witness() { zero(); }

  Curve curve() const { return values.index() == 0 ? Curve::bn254 : Curve::bls12_381; }
  size_t size() const {
    return std::visit([](const auto& v) { return v.size(); }, values);
  }
  // The values as curve E's Fr; a FormatError naming the source if the witness
  // is for the other curve.
  template <class E>
  const std::vector<typename E::Fr>& as() const {
    if (E::id != curve())
      throw FormatError((source.empty() ? "witness" : source) + ": the witness is for " + curve_name(curve()) + ", not " + curve_name(E::id));
    return std::get<std::vector<typename E::Fr>>(values);
  }

 private:
  void zero() noexcept {
    std::visit([](auto& v) { secure_zero_parallel(v.data(), v.size() * sizeof v[0]); }, values);
  }
};

// Reads and checks a .wtns: version 2, n8 = 32, r the scalar field of a
// supported curve, section sizes matching nWitness, every value < r. The file
// is read (Residency::copy), not mapped, so one rewritten while it is read
// gives an error, not SIGBUS.
Witness read_wtns(const std::filesystem::path& path);
// The same from a descriptor the caller owns; `name` stands for the file.
Witness read_wtns_fd(int fd, std::string name);
// The same from a .wtns file's bytes in memory; `name` stands for the file in
// messages and becomes the Witness's source.
Witness read_wtns_bytes(std::string name, std::span<const uint8_t> bytes);

// The values of a .wtns where they lie, its header read and checked as
// read_wtns checks it (n8 = 32, the r of a supported curve, section 2 holding
// nWitness values): what the service decodes straight into a partition's
// witness buffer, with no vector in between. `bytes` points into the BinFile
// (or the borrowed bytes) it came from.
struct WtnsValues {
  Curve curve;
  uint32_t count;
  std::span<const uint8_t> bytes;  // count values of 32 bytes: canonical, little-endian
  std::string source;              // the file's name, for messages
};
// The .wtns container, its magic and version checked and its sections
// indexed: read from a descriptor the caller owns (a copy, as read_wtns_fd
// reads it), or the caller's bytes in place (BinFile::borrow).
BinFile open_wtns_fd(int fd, std::string name);
BinFile borrow_wtns(std::string name, std::span<const uint8_t> bytes);
WtnsValues wtns_values(const BinFile& file);
// The bytes of a .wtns beside its values when it holds only the two sections
// circom and write_wtns write: magic, version and section count (12), two
// section headers (24) and the header section (40). More is other sections,
// which a holder of the bytes would keep without using.
constexpr size_t kWtnsBytesBesideValues = 76;
// Decodes v into out (v.count values of E's Fr, Montgomery form), each one
// checked below r: a FormatError naming the first that is not. v is a witness
// of E's curve (check_witness_shape) and out holds v.count values.
template <class E>
void decode_wtns(const WtnsValues& v, std::span<typename E::Fr> out);
extern template void decode_wtns<Bn254>(const WtnsValues&, std::span<Bn254::Fr>);
extern template void decode_wtns<Bls12_381>(const WtnsValues&, std::span<Bls12_381::Fr>);

// Writes w as a .wtns v2 (as circom would): to a temporary file in the same
// directory, then renamed over `path`, so a failed write leaves no partial file.
// Throws std::system_error naming the path on an I/O failure.
void write_wtns(const std::filesystem::path& path, const Witness& w);

// A witness whose count of signals is not its key's (or circuit's) nVars: a
// FormatError of its own type, because rapidsnark's C API answers it with its
// own code. The message names both files and both counts and, as rapidsnark's
// callers expect, holds "Invalid witness length. Circuit: N, witness: M".
class WitnessLengthError : public FormatError {
 public:
  WitnessLengthError(const std::string& witness, const std::string& owner, uint64_t n_vars, uint64_t count);
};

// That w holds the signals of `owner` (the file of a key or circuit, `kind`
// "key" or "circuit"): the same curve (a FormatError naming both files), then
// n_vars values (a WitnessLengthError).
void check_witness_shape(const Witness& w, const std::string& owner, const char* kind, Curve curve, uint64_t n_vars);
// The same for a witness known by its header alone: its name, curve and count.
void check_witness_shape(const std::string& witness, Curve witness_curve, uint64_t count, const std::string& owner,
                         const char* kind, Curve curve, uint64_t n_vars);

}  // namespace cuzk::io
