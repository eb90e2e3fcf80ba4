#include "cuzk/io/r1cs.hpp"

namespace cuzk::io {

namespace {

constexpr uint32_t kVersion = 1;
constexpr uint32_t kHeader = 1, kConstraints = 2, kWireToLabel = 3, kCustomGatesList = 4, kCustomGatesUses = 5;

std::string str(uint64_t v) { return std::to_string(v); }

template <class E>
r1cs::ConstraintMatrices<E> read_constraints(const BinFile& file, const R1csHeader& h) {
  using Fr = typename E::Fr;
  SectionReader s(file, kConstraints);
  // Every constraint takes at least its three term counts; checked before
  // reserving, so a lying nConstraints cannot demand gigabytes.
  if (12ull * h.n_constraints > s.remaining())
    s.fail(str(s.remaining()) + " bytes are too few for " + str(h.n_constraints) +
           " constraints of at least 12 bytes each");
  r1cs::ConstraintMatrices<E> sys;
  sys.n_vars = h.n_wires;
  sys.n_public = h.n_pub_out + h.n_pub_in;
  sys.starts.reserve(3 * (size_t)h.n_constraints + 1);
  static constexpr const char* kMatrix[3] = {"A", "B", "C"};
  for (uint32_t i = 0; i < h.n_constraints; ++i)
    for (int m = 0; m < 3; ++m) {
      const uint32_t n = s.u32("a term count");
      const auto where = [&](uint32_t t) { return "constraint " + str(i) + ", " + kMatrix[m] + " term " + str(t); };
      // Checked before reserving, so a lying count cannot demand gigabytes.
      if ((uint64_t)n * (4 + Fr::bytes) > s.remaining())
        s.fail("constraint " + str(i) + " claims " + str(n) + " " + kMatrix[m] + " terms but only " +
               str(s.remaining()) + " bytes remain");
      for (uint32_t t = 0; t < n; ++t) {
        r1cs::Term<Fr> term;
        term.wire = s.u32("a wire");
        if (term.wire >= h.n_wires) s.fail(where(t) + ": wire " + str(term.wire) + " is not below nWires " + str(h.n_wires));
        uint64_t v[Fr::N];
        std::memcpy(v, s.bytes(Fr::bytes, "a coefficient").data(), Fr::bytes);
        if (!Fr::from_canonical(v, term.coef)) s.fail(where(t) + ": coefficient is not below the prime");
        sys.terms.push_back(term);
      }
      sys.starts.push_back(sys.terms.size());
    }
  s.expect_end(("the " + str(h.n_constraints) + " constraints").c_str());
  return sys;
}

}  // namespace

R1cs R1cs::open(const std::filesystem::path& path) {
  const BinFile file = BinFile::open(path, "r1cs", kVersion);
  if (file.has(kCustomGatesList) || file.has(kCustomGatesUses))
    file.fail("has custom gates (sections 4 and 5), which only PLONK circuits use");

  R1cs r;
  r.name_ = file.name();
  R1csHeader& h = r.header_;
  SectionReader s(file, kHeader);
  h.n8 = s.u32("n8");
  if (h.n8 != 32) s.fail("n8 = " + str(h.n8) + ", but the supported scalar fields have 32-byte elements");
  const auto prime = s.bytes(h.n8, "the prime");
  const auto curve = curve_from_r(prime);
  if (!curve) s.fail("prime " + prime_to_decimal(prime) + " is not the scalar field of bn128 or bls12381");
  h.curve = *curve;
  h.n_wires = s.u32("nWires");
  h.n_pub_out = s.u32("nPubOut");
  h.n_pub_in = s.u32("nPubIn");
  h.n_prv_in = s.u32("nPrvIn");
  h.n_labels = s.u64("nLabels");
  h.n_constraints = s.u32("nConstraints");
  s.expect_end("the header");
  const uint64_t io_wires = 1ull + h.n_pub_out + h.n_pub_in + h.n_prv_in;
  if (io_wires > h.n_wires)
    s.fail("the constant, " + str(h.n_pub_out) + " outputs and " + str(h.n_pub_in) + " + " + str(h.n_prv_in) +
           " inputs need " + str(io_wires) + " wires but nWires is " + str(h.n_wires));

  if (h.curve == Curve::bn254)
    r.system_ = read_constraints<Bn254>(file, h);
  else
    r.system_ = read_constraints<Bls12_381>(file, h);

  // Optional: circom writes it, but nothing in proving depends on it.
  if (file.has(kWireToLabel)) {
    const auto bytes = file.section(kWireToLabel);
    if (bytes.size() != 8ull * h.n_wires)
      file.fail("section 3 is " + str(bytes.size()) + " bytes but " + str(h.n_wires) + " × 8 bytes are needed for " +
                str(h.n_wires) + " wire labels");
    r.labels_.resize(h.n_wires);
    std::memcpy(r.labels_.data(), bytes.data(), bytes.size());
    for (uint32_t w = 0; w < h.n_wires; ++w)
      if (r.labels_[w] >= h.n_labels)
        file.fail("section 3: wire " + str(w) + " has label " + str(r.labels_[w]) + ", not below nLabels " +
                  str(h.n_labels));
  }
  return r;
}

}  // namespace cuzk::io
