// A development setup: the proving key that snarkjs's `groth16 setup` followed
// by phase-2 contributions would produce for a given toxic waste (τ, α, β, γ,
// δ), computed from the constraints directly instead of from a powers-of-tau
// file. Whoever holds the toxic waste can forge proofs, so these keys are for
// tests, benchmarks and development, never for production.
//
// The key is snarkjs's in every detail (snarkjs-formats.md §1.1, §2.3): the
// domain, the extra public-input rows, the coefficient list, the points of
// signals absent from a matrix being infinity, and H being the quotient basis
// of the coset the prover evaluates on. io/zkey_writer.hpp writes it as a .zkey
// that snarkjs proves and verifies with.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "cuzk/groth16/constraints.hpp"
#include "cuzk/groth16/keys.hpp"

namespace cuzk::groth16 {

template <class E>
struct ToxicWaste {
  using Fr = typename E::Fr;
  Fr tau, alpha, beta, gamma, delta;
  // Five independent values, uniform in [1, r), from the operating system's
  // CSPRNG (getrandom) by rejection sampling, so without modular bias.
  static ToxicWaste draw();
};

// A proving key together with the points it views. Movable, not copyable:
// moving a std::vector hands its heap buffer over unchanged, so the spans in
// `key` stay valid after a move, while a copy would leave them pointing into
// the original.
template <class E>
struct DevKey {
  std::vector<ec::Affine<typename E::G1>> ic, a, b1, c, h;
  std::vector<ec::Affine<typename E::G2>> b2;
  ProvingKey<E> key;  // its spans view the vectors above

  DevKey() = default;
  DevKey(DevKey&&) noexcept = default;
  DevKey& operator=(DevKey&&) noexcept = default;
  DevKey(const DevKey&) = delete;
  DevKey& operator=(const DevKey&) = delete;
};

// The key of `dev`, which it now owns: what PreparedKey<E>::make takes.
template <class E>
std::shared_ptr<const ProvingKey<E>> share(DevKey<E> dev) {
  const auto owner = std::make_shared<const DevKey<E>>(std::move(dev));
  return {owner, &owner->key};
}

// The key for constraints m and toxic waste t; threads = 0 uses every hardware
// thread. With n = domain size, L_j the Lagrange basis of ⟨ω⟩ and u_i, v_i,
// w_i = Σ coef·L_row over signal i's A, B, C terms (A including the public
// rows), it holds A_i = [u_i(τ)]₁, B1_i = [v_i(τ)]₁, B2_i = [v_i(τ)]₂,
// IC_i = [(β u_i + α v_i + w_i)(τ)/γ]₁ for i <= n_public, C_i the same over δ
// for the rest, and H_j = [L'_j(τ) Z(τ) / ((gⁿ - 1) δ)]₁ with L'_j the
// Lagrange basis of the coset g·⟨ω⟩ (setup.cpp derives it).
//
// Progress is reported as the step "setup" (util/progress.hpp), in points.
//
// std::invalid_argument, one line, when the domain would exceed the field's
// 2-adicity, when γ or δ is zero, or when τ lies on the domain or the coset
// (Z(τ) = 0 or a zero denominator: the key would be degenerate).
template <class E>
DevKey<E> dev_setup(const ConstraintMatrices<E>& m, const ToxicWaste<E>& t, unsigned threads = 0);

extern template struct ToxicWaste<ec::Bn254>;
extern template struct ToxicWaste<ec::Bls12_381>;
extern template DevKey<ec::Bn254> dev_setup(const ConstraintMatrices<ec::Bn254>&, const ToxicWaste<ec::Bn254>&,
                                            unsigned);
extern template DevKey<ec::Bls12_381> dev_setup(const ConstraintMatrices<ec::Bls12_381>&,
                                                const ToxicWaste<ec::Bls12_381>&, unsigned);

}  // namespace cuzk::groth16
