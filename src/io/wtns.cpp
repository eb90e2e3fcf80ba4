#include "cuzk/io/wtns.hpp"

#include "cuzk/io/atomic_file.hpp"

namespace cuzk::io {

static_assert((int)Curve::bn254 == 0 && (int)Curve::bls12_381 == 1,
              "Witness::values lists the curves in the order of the Curve enumerators");

namespace {

constexpr uint32_t kVersion = 2;
constexpr uint32_t kHeader = 1, kValues = 2;

template <class E>
Witness decode(const WtnsValues& v) {
  Witness w{std::vector<typename E::Fr>(v.count), v.source};  // zeroed when it goes, after a failed decode too
  decode_wtns<E>(v, std::get<std::vector<typename E::Fr>>(w.values));
  return w;
}

Witness read(const BinFile& file) {
  const WtnsValues v = wtns_values(file);
  return v.curve == Curve::bn254 ? decode<Bn254>(v) : decode<Bls12_381>(v);
}

}  // namespace

WtnsValues wtns_values(const BinFile& file) {
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
  return {*curve, n, values, file.name()};
}

template <class E>
void decode_wtns(const WtnsValues& v, std::span<typename E::Fr> out) {
  using Fr = typename E::Fr;
  const size_t bad = first_invalid(v.count, [&](size_t i) {
    uint64_t limbs[Fr::N];
    std::memcpy(limbs, v.bytes.data() + i * Fr::bytes, Fr::bytes);
    return Fr::from_canonical(limbs, out[i]);
  });
  if (bad != v.count)
    throw FormatError(v.source + ": witness value " + std::to_string(bad) +
                      " is not below the scalar field modulus r of " + curve_name(E::id));
}
template void decode_wtns<Bn254>(const WtnsValues&, std::span<Bn254::Fr>);
template void decode_wtns<Bls12_381>(const WtnsValues&, std::span<Bls12_381::Fr>);

BinFile open_wtns_fd(int fd, std::string name) {
  return BinFile::open_fd(fd, std::move(name), "wtns", kVersion, Residency::copy);
}

BinFile borrow_wtns(std::string name, std::span<const uint8_t> bytes) {
  return BinFile::borrow(std::move(name), bytes, "wtns", kVersion);
}

Witness read_wtns(const std::filesystem::path& path) {
  return read(BinFile::open(path, "wtns", kVersion, Residency::copy));
}

Witness read_wtns_fd(int fd, std::string name) { return read(open_wtns_fd(fd, std::move(name))); }

// In place: the values are decoded into the Witness at once, so a copy of
// the bytes would be one more copy of a secret, freed unzeroed.
Witness read_wtns_bytes(std::string name, std::span<const uint8_t> bytes) {
  return read(borrow_wtns(std::move(name), bytes));
}

namespace {

template <class T>
void put(std::vector<uint8_t>& out, T v) {
  const size_t at = out.size();
  out.resize(at + sizeof v);
  std::memcpy(out.data() + at, &v, sizeof v);
}

template <class Fr>
void write_values(AtomicFile& f, const std::vector<Fr>& values) {
  std::vector<uint8_t> buf;
  put<uint32_t>(buf, kHeader);
  put<uint64_t>(buf, 4 + Fr::bytes + 4);
  put<uint32_t>(buf, Fr::bytes);
  for (size_t i = 0; i < Fr::N; ++i) put<uint64_t>(buf, Fr::params::modulus(i));
  put<uint32_t>(buf, (uint32_t)values.size());
  put<uint32_t>(buf, kValues);
  put<uint64_t>(buf, (uint64_t)values.size() * Fr::bytes);
  f.write(buf);

  // Values leave Montgomery form in blocks, so memory stays bounded for any size.
  constexpr size_t kBlock = 1 << 15;
  std::vector<uint64_t> block(kBlock * Fr::N);
  for (size_t b = 0; b < values.size(); b += kBlock) {
    const size_t n = std::min(kBlock, values.size() - b);
    for (size_t i = 0; i < n; ++i) values[b + i].to_canonical(&block[i * Fr::N]);
    f.write(bytes_of(std::span(block).first(n * Fr::N)));
  }
}

}  // namespace

void write_wtns(const std::filesystem::path& path, const Witness& w) {
  if (w.size() > UINT32_MAX)
    throw std::invalid_argument(path.string() + ": " + std::to_string(w.size()) +
                                " witness values do not fit the format's u32 count");
  AtomicFile f(path);
  const char magic[4] = {'w', 't', 'n', 's'};
  f.write(bytes_of(std::span(magic)));
  const uint32_t head[2] = {kVersion, 2};  // version, nSections
  f.write(bytes_of(std::span(head)));
  std::visit([&](const auto& values) { write_values(f, values); }, w.values);
  f.commit();
}

WitnessLengthError::WitnessLengthError(const std::string& witness, const std::string& owner, uint64_t n_vars,
                                       uint64_t count)
    : FormatError(witness + " has " + std::to_string(count) + " values but " + owner + " has nVars " +
                  std::to_string(n_vars) + " (Invalid witness length. Circuit: " + std::to_string(n_vars) +
                  ", witness: " + std::to_string(count) + ")") {}

void check_witness_shape(const Witness& w, const std::string& owner, const char* kind, Curve curve, uint64_t n_vars) {
  check_witness_shape(w.source.empty() ? "the witness" : w.source, w.curve(), w.size(), owner, kind, curve, n_vars);
}

void check_witness_shape(const std::string& witness, Curve witness_curve, uint64_t count, const std::string& owner,
                         const char* kind, Curve curve, uint64_t n_vars) {
  if (witness_curve != curve)
    throw FormatError(witness + " is a " + curve_name(witness_curve) + " witness but " + owner + " is a " +
                      curve_name(curve) + " " + kind);
  if (count != n_vars) throw WitnessLengthError(witness, owner, n_vars, count);
}

}  // namespace cuzk::io
