// circom .r1cs files, version 1 (iden3/r1csfile doc/r1cs_bin_format.md):
// section 1 header (u32 n8, prime, u32 nWires, nPubOut, nPubIn, nPrvIn,
// u64 nLabels, u32 nConstraints); section 2 constraints, each three linear
// combinations A, B, C of u32 nTerms then nTerms x (u32 wire, coefficient of n8
// bytes in normal form); section 3 (optional) a u64 label per wire. Sections
// 4 and 5 hold PLONK custom gates, which have no R1CS meaning and are refused.
//
// The prover does not need this file (a zkey carries A and B); tests use it to
// check witnesses and keys against the circuit.
#pragma once

#include <filesystem>
#include <span>
#include <variant>
#include <vector>

#include "cuzk/r1cs/constraints.hpp"
#include "cuzk/io/binfile.hpp"

namespace cuzk::io {

struct R1csHeader {
  Curve curve;
  uint32_t n8;
  uint32_t n_wires;  // the constant 1 (wire 0) included
  uint32_t n_pub_out;
  uint32_t n_pub_in;
  uint32_t n_prv_in;
  uint64_t n_labels;
  uint32_t n_constraints;
};

class R1cs {
 public:
  // Reads and checks the whole file: the prime is a supported scalar field,
  // the input and output counts fit nWires, every wire < nWires, every
  // coefficient < prime, the constraint section holds exactly nConstraints.
  // Throws FormatError.
  static R1cs open(const std::filesystem::path& path);

  const std::string& name() const { return name_; }
  const R1csHeader& header() const { return header_; }
  Curve curve() const { return header_.curve; }
  // Wire labels (section 3), one per wire; empty when the file has none.
  const std::vector<uint64_t>& labels() const { return labels_; }

  // The constraints over curve E's Fr; a FormatError for the other curve.
  template <class E>
  const r1cs::ConstraintMatrices<E>& as() const {
    if (E::id != curve())
      throw FormatError(name_ + ": the circuit is for " + curve_name(curve()) + ", not " + curve_name(E::id));
    return std::get<r1cs::ConstraintMatrices<E>>(system_);
  }
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), system_);
  }

 private:
  std::string name_;
  R1csHeader header_{};
  std::vector<uint64_t> labels_;
  std::variant<r1cs::ConstraintMatrices<Bn254>, r1cs::ConstraintMatrices<Bls12_381>> system_;
};

}  // namespace cuzk::io
