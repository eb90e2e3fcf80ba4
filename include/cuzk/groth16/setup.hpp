// A development setup: the proving key that snarkjs's `groth16 setup` followed
// by phase-2 contributions would produce for a given toxic waste (τ, α, β, γ,
// δ), computed from the constraints directly instead of from a powers-of-tau
// file. Whoever holds the toxic waste can forge proofs, so these keys are for
// tests, benchmarks and development, never for production.
//
// By default the key is snarkjs's in every detail (snarkjs-formats.md §1.1,
// §2.3): the domain, the extra public-input rows, the coefficient list, the
// points of signals absent from a matrix being infinity, and H being the
// quotient basis of the coset the prover evaluates on. io/zkey_writer.hpp
// writes it as a .zkey that snarkjs proves and verifies with. Under bellman's
// convention (keys.hpp) it is what bellperson's generate_parameters makes for
// the same toxic waste (its g1, g2 being the generators): bellman's roots, H =
// [τ^i Z(τ)/δ]₁, A and B over their dense variables; io/bellperson_key.hpp
// writes it as a parameter file.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "cuzk/ec/fixed_base.hpp"
#include "cuzk/r1cs/constraints.hpp"
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

// The A and B coefficients of circuit m as a key lists them: per constraint its
// A then its B terms, then the extra rows (snarkjs's order; the rows are
// bellman's input constraints). Every key made from a circuit carries them.
template <class E>
CoefList<E> coefficient_list(const r1cs::ConstraintMatrices<E>& m);

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
// Under bellman's convention H_i = [τ^i Z(τ)/δ]₁ for i < n − 1, A and B hold
// only the points of their densities (density.hpp), and the domain is
// bellperson's: the smallest power of two holding the constraints and the
// input constraints, below 2^s.
//
// std::invalid_argument, one line, when the domain would exceed the field's
// 2-adicity, when γ or δ is zero, or when τ lies on the domain or the coset
// (Z(τ) = 0 or a zero denominator: the key would be degenerate); under
// bellman's convention also for a curve other than BLS12-381 and for a
// private variable in no constraint (bellperson's UnconstrainedVariable: its L
// point would be infinity, which a parameter file cannot hold).
template <class E>
DevKey<E> dev_setup(const r1cs::ConstraintMatrices<E>& m, const ToxicWaste<E>& t, unsigned threads = 0,
                    Convention convention = Convention::snarkjs);

// What dev_setup and its GPU twin (setup_cuda.hpp) share.
namespace detail {

// The scalars a key's points are multiples of the generators by, and the
// tables that multiply them: A, B1 and B2 are [u]₁, [v]₁ and [v]₂ per signal
// (bellman: per signal of the density), IC and C are [w]₁ (IC the first
// n_public + 1), H is [h]₁ per H point.
template <class E>
struct SetupPlan {
  std::vector<typename E::Fr> u, v, w, h;
  ec::FixedBase<typename E::G1> g1;
  ec::FixedBase<typename E::G2> g2;
  Convention convention = Convention::snarkjs;
  Density a_density, b_density;  // bellman only
};

// dev_setup's checks (and its exceptions), then the scalars and the tables.
template <class E>
SetupPlan<E> plan_setup(const r1cs::ConstraintMatrices<E>& m, const ToxicWaste<E>& t, unsigned threads,
                        Convention convention = Convention::snarkjs);

// Everything of the key but A, B1, B2, C and H, which the caller has made:
// α, β, γ, δ, IC (into d.ic), the coefficient list, the convention and
// densities, and d.key's spans over d's vectors.
template <class E>
void finish_setup(DevKey<E>& d, const SetupPlan<E>& plan, const r1cs::ConstraintMatrices<E>& m, const ToxicWaste<E>& t,
                  unsigned threads);

// The progress bar counts the key's points (A, B1, B2, C, H), a G2 point as
// kG2Weight G1 points (about its cost), so that its rate and ETA hold steady
// across G1 and G2.
inline constexpr uint64_t kG2Weight = 3;
template <class E>
uint64_t setup_points(const SetupPlan<E>& plan, size_t n_public) {
  return plan.u.size() + plan.v.size() + (plan.w.size() - n_public - 1) + plan.h.size() + kG2Weight * plan.v.size();
}

}  // namespace detail

extern template CoefList<ec::Bn254> coefficient_list(const r1cs::ConstraintMatrices<ec::Bn254>&);
extern template CoefList<ec::Bls12_381> coefficient_list(const r1cs::ConstraintMatrices<ec::Bls12_381>&);
extern template struct ToxicWaste<ec::Bn254>;
extern template struct ToxicWaste<ec::Bls12_381>;
extern template DevKey<ec::Bn254> dev_setup(const r1cs::ConstraintMatrices<ec::Bn254>&, const ToxicWaste<ec::Bn254>&,
                                            unsigned, Convention);
extern template DevKey<ec::Bls12_381> dev_setup(const r1cs::ConstraintMatrices<ec::Bls12_381>&,
                                                const ToxicWaste<ec::Bls12_381>&, unsigned, Convention);
#define CUZK_SETUP_DETAIL_EXTERN(E)                                                                      \
  extern template detail::SetupPlan<E> detail::plan_setup(const r1cs::ConstraintMatrices<E>&, const ToxicWaste<E>&, \
                                                          unsigned, Convention);                         \
  extern template void detail::finish_setup(DevKey<E>&, const detail::SetupPlan<E>&,                     \
                                            const r1cs::ConstraintMatrices<E>&, const ToxicWaste<E>&, unsigned);
CUZK_SETUP_DETAIL_EXTERN(ec::Bn254)
CUZK_SETUP_DETAIL_EXTERN(ec::Bls12_381)
#undef CUZK_SETUP_DETAIL_EXTERN

}  // namespace cuzk::groth16
