// snarkjs Groth16 proving keys (.zkey; snarkjs src/zkey_utils.js, rapidsnark
// src/zkey_utils.cpp). Sections: 1 protocol, 2 header, 3 IC, 4 coefficients,
// 5 A, 6 B1, 7 B2, 8 C, 9 H, 10 contributions (ignored), in any order.
//
// Points are affine, x then y (a G2 coordinate is c0 then c1), each coordinate
// Montgomery little-endian, infinity all-zero: exactly the layout of
// ec::Affine<G>, so the point sections are viewed where they lie in the
// mapping instead of being parsed.
#pragma once

#include <filesystem>
#include <memory>
#include <span>
#include <variant>
#include <vector>

#include "cuzk/io/binfile.hpp"
#include "cuzk/io/wtns.hpp"

namespace cuzk::io {

struct ZkeyHeader {
  Curve curve;
  uint32_t n8q;          // bytes of a base-field element: 32 (bn128), 48 (bls12381)
  uint32_t n8r;          // bytes of a scalar: 32
  uint32_t n_vars;       // signals, the constant 1 (signal 0) included
  uint32_t n_public;     // public outputs then public inputs: signals 1..n_public
  uint32_t domain_size;  // a power of two, > n_constraints + n_public
  uint32_t n_coefs;      // entries in section 4
};

// One A or B matrix entry of section 4.
//
// `value` holds the stored word as it is: snarkjs writes v·R² mod r (R = 2^256)
// as a plain integer, which read as a Montgomery word is Mont(v·R). So
// MontMul(value, w) with w the witness value in normal form (as .wtns stores it)
// is Mont(v·w), what snarkjs and rapidsnark accumulate; with w in Montgomery form
// (as read_wtns returns it) use coef_value(value) · w instead.
template <class E>
struct Coef {
  uint32_t matrix;      // 0 = A, 1 = B
  uint32_t constraint;  // < domain_size
  uint32_t signal;      // < n_vars
  typename E::Fr value;
};

// Mont(v) from a stored coefficient: multiplying Mont(v·R) by the raw word 1
// divides by R.
template <class Fr>
Fr coef_value(const Fr& stored) {
  Fr raw_one{};
  raw_one.limb[0] = 1;
  return stored * raw_one;
}

template <class E>
struct ZkeyData {
  using CurveTypes = E;
  using G1 = ec::Affine<typename E::G1>;
  using G2 = ec::Affine<typename E::G2>;

  G1 alpha1, beta1, delta1;
  G2 beta2, gamma2, delta2;
  std::span<const G1> ic;  // n_public + 1
  std::span<const G1> a;   // n_vars
  std::span<const G1> b1;  // n_vars
  std::span<const G2> b2;  // n_vars
  std::span<const G1> c;   // n_vars - n_public - 1: signals n_public + 1 ... n_vars - 1
  std::span<const G1> h;   // domain_size
  std::vector<Coef<E>> coefs;
};

// A checked Groth16 proving key. The point spans point into the file mapping
// (or into aligned copies, see zkey.cpp) that the Zkey owns; they stay valid
// while it lives, moves included.
class Zkey {
 public:
  // Maps and validates the whole key: protocol, curve, counts, section sizes,
  // every coordinate < q, every point on its curve (or infinity), every
  // coefficient's matrix, constraint, signal and value. Throws FormatError.
  // Subgroup membership is not checked (neither snarkjs nor rapidsnark does,
  // and it would cost a scalar multiplication per point on BLS12-381).
  static Zkey open(const std::filesystem::path& path);

  const std::string& name() const { return file_.name(); }
  const ZkeyHeader& header() const { return header_; }
  Curve curve() const { return header_.curve; }
  // The container, for consumers that move sections as bytes (device uploads).
  const BinFile& file() const { return file_; }

  // The typed key for curve E; a FormatError if the key is for the other curve.
  template <class E>
  const ZkeyData<E>& as() const {
    if (E::id != curve()) file_.fail(std::string("the key is for ") + curve_name(curve()) + ", not " + curve_name(E::id));
    return std::get<ZkeyData<E>>(data_);
  }
  // f(const ZkeyData<E>&) for whichever curve the key is for.
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), data_);
  }

 private:
  explicit Zkey(BinFile file) : file_(std::move(file)) {}
  template <class E>
  friend struct ZkeyLoader;

  BinFile file_;
  ZkeyHeader header_{};
  std::vector<std::unique_ptr<uint64_t[]>> copies_;
  std::variant<ZkeyData<Bn254>, ZkeyData<Bls12_381>> data_;
};

// The caller-level check that a witness belongs to a key: same curve and
// n_vars values. The message names both files and both counts (as rapidsnark's
// "Invalid witness length. Circuit: N, witness: M").
void check_witness_matches(const Zkey& key, const Witness& w);

}  // namespace cuzk::io
