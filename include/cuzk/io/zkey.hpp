// snarkjs Groth16 proving keys (.zkey; snarkjs src/zkey_utils.js, rapidsnark
// src/zkey_utils.cpp). Sections: 1 protocol, 2 header, 3 IC, 4 coefficients,
// 5 A, 6 B1, 7 B2, 8 C, 9 H, 10 contributions (ignored), in any order.
//
// Points are affine, x then y (a G2 coordinate is c0 then c1), each coordinate
// Montgomery little-endian, infinity all-zero: exactly the layout of
// ec::Affine<G>, so the point sections are viewed where they lie in the
// file's bytes instead of being parsed.
//
// Coefficients (section 4): snarkjs writes v·R² mod r (R = 2^256) as a plain
// integer, which read as a Montgomery word is Mont(v·R); the reader turns it
// into Mont(v) for groth16::Coef and the writer turns it back.
#pragma once

#include <filesystem>
#include <memory>
#include <span>
#include <variant>
#include <vector>

#include "cuzk/groth16/keys.hpp"
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

// Section 4's stored word of a coefficient (Mont(v·R)) and back: the
// Montgomery reduction alone divides by R, multiplying by R² (Fr::r2())
// multiplies by R.
template <class Fr>
Fr coef_from_stored(const Fr& stored) {
  return stored.divided_by_r();
}
template <class Fr>
Fr coef_to_stored(const Fr& value) {
  return value * Fr::r2();
}

using groth16::PointChecks;

// A checked Groth16 proving key: a handle to the file's bytes (mapped or
// owned, with aligned copies of misaligned sections; see BinFile) that its
// point spans view. Copies of a Zkey share them; they stay valid while any
// copy, or any pointer from share(), lives.
class Zkey {
 public:
  // Reads and validates the whole key: protocol, curve, counts, section sizes,
  // every coordinate < q, every point on its curve (or infinity), every
  // coefficient's matrix, constraint, signal and value. Throws FormatError.
  // Subgroup membership is not checked (neither snarkjs nor rapidsnark does,
  // and it would cost a scalar multiplication per point on BLS12-381).
  // PointChecks::deferred leaves the bulk of the points' checks for later.
  static Zkey open(const std::filesystem::path& path, Residency residency = Residency::map,
                   PointChecks checks = PointChecks::on_read);
  // The same from a descriptor the caller owns (BinFile::open_fd).
  static Zkey open_fd(int fd, std::string name, Residency residency = Residency::map,
                      PointChecks checks = PointChecks::on_read);
  // The same from a key's bytes in memory, which are copied; `name` stands
  // for the file in messages.
  static Zkey from_bytes(std::string name, std::span<const uint8_t> bytes, PointChecks checks = PointChecks::on_read);

  const std::string& name() const { return state_->file.name(); }
  const ZkeyHeader& header() const { return state_->header; }
  Curve curve() const { return state_->header.curve; }
  // The container, for consumers that move sections as bytes (device uploads).
  const BinFile& file() const { return state_->file; }

  // The typed key for curve E; a FormatError if the key is for the other curve.
  template <class E>
  const groth16::ProvingKey<E>& as() const {
    if (E::id != curve())
      state_->file.fail(std::string("the key is for ") + curve_name(curve()) + ", not " + curve_name(E::id));
    return std::get<groth16::ProvingKey<E>>(state_->data);
  }
  // as<E>(), sharing ownership of the memory its spans view: what
  // groth16::PreparedKey<E>::make takes.
  template <class E>
  std::shared_ptr<const groth16::ProvingKey<E>> share() const {
    return {state_, &as<E>()};
  }
  // f(const groth16::ProvingKey<E>&) for whichever curve the key is for.
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), state_->data);
  }

 private:
  struct State {
    explicit State(BinFile f) : file(std::move(f)) {}
    BinFile file;
    ZkeyHeader header{};
    std::variant<groth16::ProvingKey<Bn254>, groth16::ProvingKey<Bls12_381>> data;
  };
  explicit Zkey(BinFile file) : state_(std::make_shared<State>(std::move(file))) {}
  static Zkey read(BinFile file, PointChecks checks);
  template <class E>
  friend struct ZkeyLoader;

  std::shared_ptr<State> state_;
};

// The counts of a key's header (sections 1 and 2 up to the points), checked
// as Zkey::open checks them, without reading the rest: for callers that need
// only the curve or the number of public signals. Throws FormatError.
ZkeyHeader read_zkey_header(const std::filesystem::path& path);
ZkeyHeader read_zkey_header_bytes(std::string name, std::span<const uint8_t> bytes);

// The caller-level check that a witness belongs to a key (check_witness_shape).
void check_witness_matches(const Zkey& key, const Witness& w);

}  // namespace cuzk::io
