// Groth16 keys. The proving key is what a snarkjs .zkey holds (io/zkey.hpp
// reads one, groth16/setup.hpp makes one) or, under bellman's convention, what
// a bellperson parameter file holds with the circuit's coefficients beside it
// (io/bellperson_key.hpp); the verifying key is what snarkjs exports from it
// (zkey export verificationkey): alpha1, beta2, gamma2, delta2, IC and the
// precomputed e(alpha1, beta2) that verification_key.json carries as
// vk_alphabeta_12.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "cuzk/ec/curves.hpp"
#include "cuzk/ec/pairing.hpp"
#include "cuzk/groth16/density.hpp"
#include "cuzk/groth16/reduction.hpp"
#include "cuzk/util/bulk_vector.hpp"

namespace cuzk::groth16 {

namespace gpu {
template <class E>
struct DevicePoints;  // groth16/prover_cuda.hpp
}

// One entry of the A or B matrix (C is never needed: the prover takes its
// evaluations as a·b, snarkjs-formats.md §2). In a .zkey the value is stored
// as v·R² (io/zkey.hpp converts); here it is v in Montgomery form.
template <class E>
struct Coef {
  uint32_t matrix;      // 0 = A, 1 = B
  uint32_t constraint;  // < domain_size
  uint32_t signal;      // < n_vars
  typename E::Fr value;
};

// A key's coefficients (util/bulk_vector.hpp): a key reader fills them on
// every core.
template <class E>
using CoefList = BulkVector<Coef<E>>;

// When a key reader checks the points it reads. deferred leaves those of A,
// B1, B2, C and H (all but a few hundred bytes of a key's points) to whoever
// uses them first (ProvingKey::check_points, which PreparedKey runs, or a GPU
// checks its copy instead): a one-shot proof on a GPU checks them there once
// uploaded, instead of on the host before.
enum class PointChecks { on_read, deferred };

// A Groth16 proving key. The point arrays are spans: a key read from a .zkey
// views them in the file mapping, a key from the development setup in
// vectors that its owner keeps.
template <class E>
struct ProvingKey {
  using CurveTypes = E;  // for generic lambdas over Zkey::visit
  using G1 = ec::Affine<typename E::G1>;
  using G2 = ec::Affine<typename E::G2>;

  G1 alpha1, beta1, delta1;
  G2 beta2, gamma2, delta2;
  std::span<const G1> ic;  // n_public + 1
  std::span<const G1> a;   // n_vars; bellman: a_density.count()
  std::span<const G1> b1;  // n_vars; bellman: b_density.count()
  std::span<const G2> b2;  // n_vars; bellman: b_density.count()
  std::span<const G1> c;   // n_vars - n_public - 1: signals n_public + 1 ... n_vars - 1 (bellperson's L)
  std::span<const G1> h;   // domain_size; bellman: domain_size - 1
  CoefList<E> coefs;
  Convention convention = Convention::snarkjs;  // its QAP reduction (reduction.hpp)
  Density a_density, b_density;  // bellman only: which variables A and B have points for
  // The point spans view a file mapping (a .zkey read in place), which must not
  // be page-locked in place (cudaHostRegister of a file-backed mapping can
  // hang): a GPU that streams such points streams a pinned copy of them.
  bool points_in_file_mapping = false;

  // Set for a key made on a GPU (groth16/setup_cuda.hpp): A, B1, B2, C and H
  // are there only, in `points`, the spans above are empty, and only a prover
  // on that GPU can use the key. At Filecoin's size (2^27 constraints on
  // BLS12-381) they are ~80 GB, which the host need never hold.
  struct OnGpu {
    int device = 0;
    size_t n_vars = 0, domain_size = 0;
    std::shared_ptr<const gpu::DevicePoints<E>> points;
  };
  std::optional<OnGpu> on_gpu;

  // Set where the reader left the points of A, B1, B2, C and H unchecked
  // (PointChecks::deferred): checks those of the key it is given (this one,
  // or a copy with other spans) and throws the reader's error for the first
  // bad one. PreparedKey runs it once before the host first reads the points,
  // unless a GPU checked its copy first; a writer of the points runs it too.
  std::function<void(const ProvingKey&)> check_points;

  size_t n_vars() const { return on_gpu ? on_gpu->n_vars : ic.size() + c.size(); }
  size_t n_public() const { return ic.size() - 1; }
  size_t domain_size() const {
    return on_gpu ? on_gpu->domain_size : reduction(convention).domain_size(h.size());
  }
};

// The pairing of curve bundle E (ec::Bn254, ec::Bls12_381): its target field
// and the functions of ec/pairing.hpp for that curve.
template <class E>
struct PairingOf;
template <>
struct PairingOf<ec::Bn254> {
  using Fq12 = ff::bn254::Fq12;
  static Fq12 pairing(const ec::bn254::G1Affine& p, const ec::bn254::G2Affine& q) { return ec::bn254::pairing(p, q); }
  static bool product_is_one(std::span<const ec::bn254::G1Affine> p, std::span<const ec::bn254::G2Affine> q) {
    return ec::bn254::pairing_product_is_one(p, q);
  }
  using G2Prepared = ec::bn254::G2Prepared;
  static G2Prepared prepare(const ec::bn254::G2Affine& q) { return ec::bn254::prepare(q); }
  static Fq12 prepared_miller_loop(std::span<const ec::bn254::G1Affine> p, std::span<const G2Prepared* const> q) {
    return ec::bn254::prepared_miller_loop(p, q);
  }
  static Fq12 final_exponentiation(const Fq12& f) { return ec::bn254::final_exponentiation(f); }
};
template <>
struct PairingOf<ec::Bls12_381> {
  using Fq12 = ff::bls12_381::Fq12;
  static Fq12 pairing(const ec::bls12_381::G1Affine& p, const ec::bls12_381::G2Affine& q) {
    return ec::bls12_381::pairing(p, q);
  }
  static bool product_is_one(std::span<const ec::bls12_381::G1Affine> p,
                             std::span<const ec::bls12_381::G2Affine> q) {
    return ec::bls12_381::pairing_product_is_one(p, q);
  }
  using G2Prepared = ec::bls12_381::G2Prepared;
  static G2Prepared prepare(const ec::bls12_381::G2Affine& q) { return ec::bls12_381::prepare(q); }
  static Fq12 prepared_miller_loop(std::span<const ec::bls12_381::G1Affine> p, std::span<const G2Prepared* const> q) {
    return ec::bls12_381::prepared_miller_loop(p, q);
  }
  static Fq12 final_exponentiation(const Fq12& f) { return ec::bls12_381::final_exponentiation(f); }
};

template <class E>
struct VerifyingKey {
  using G1 = ec::Affine<typename E::G1>;
  using G2 = ec::Affine<typename E::G2>;
  using Fq12 = typename PairingOf<E>::Fq12;

  G1 alpha1;
  G2 beta2, gamma2, delta2;
  std::vector<G1> ic;  // n_public + 1: IC_0 and one per public signal
  Fq12 alphabeta;      // e(alpha1, beta2), with snarkjs's value of e (ec/pairing.hpp)

  size_t n_public() const { return ic.empty() ? 0 : ic.size() - 1; }
  friend bool operator==(const VerifyingKey& x, const VerifyingKey& y) {
    return x.alpha1 == y.alpha1 && x.beta2 == y.beta2 && x.gamma2 == y.gamma2 && x.delta2 == y.delta2 &&
           x.ic == y.ic && x.alphabeta == y.alphabeta;
  }
};

// The verifying key of a proving key (what `snarkjs zkey export
// verificationkey` writes), alphabeta computed here.
template <class E>
VerifyingKey<E> verifying_key(const ProvingKey<E>& key);

extern template VerifyingKey<ec::Bn254> verifying_key(const ProvingKey<ec::Bn254>&);
extern template VerifyingKey<ec::Bls12_381> verifying_key(const ProvingKey<ec::Bls12_381>&);

}  // namespace cuzk::groth16
