// How a Groth16 key reduces its R1CS to a QAP, and so how a proof computes h
// and which scalars its MSMs take: snarkjs's convention or bellman's
// (bellperson's parameters, Filecoin's). The setup, the host and GPU provers
// and the keys ask this one policy (reduction(convention)) what differs,
// instead of branching on the convention's name. Both share the assembly of
// (πA, πB, πC) and the verifier; they differ in
//
//   snarkjs  roots of 5 (poly/domain.hpp); H_j the odd-coset Lagrange basis
//            over δ, domain_size points taking h's evaluations on the coset
//            g·⟨ω⟩; A, B1, B2 a point per signal (infinity where a column is
//            empty); the domain 2^(⌊log2(constraints + publics)⌋ + 1).
//   bellman  roots of the field's multiplicative generator; H_i = [τ^i
//            Z(τ)/δ]₁ for i < domain_size − 1, taking h's coefficients, so the
//            prover divides by Z(g) = gⁿ − 1 on the coset and transforms back
//            (deg h ≤ n − 2: the top coefficient is zero and has no point); A,
//            B1, B2 points only for the variables of a_density and
//            b_density, in order; the smallest domain that holds the
//            constraints and publics + 1 rows, up to half the field's 2-adic
//            roots (bellperson's generator.rs).
//
// The rows past the constraints are the same in both: bellman's input
// constraints input·0 = 0 are snarkjs's extra rows a = w[s].
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "cuzk/poly/domain.hpp"

namespace cuzk::groth16 {

enum class Convention { snarkjs, bellman };
constexpr const char* convention_name(Convention c) { return c == Convention::snarkjs ? "snarkjs" : "bellman"; }

struct QapReduction {
  Convention convention;
  poly::Roots roots;       // the domain's ω, and with it the coset shift g
  bool h_as_coefficients;  // H takes h's coefficients (h/Z on the coset, transformed back), not its evaluations
  bool dense_ab;           // A and B hold points for their densities' variables only, not every signal

  // H's points for a domain of n.
  constexpr size_t h_terms(size_t n) const { return h_as_coefficients ? n - 1 : n; }
  // The domain of a key with `h_points` H points.
  constexpr size_t domain_size(size_t h_points) const { return h_as_coefficients ? h_points + 1 : h_points; }
  // log2 of the domain of a circuit of `rows` = constraints + publics, and
  // the largest the field's 2^max_log_size roots allow.
  constexpr unsigned log_domain(size_t rows) const {
    const unsigned width = (unsigned)std::bit_width(rows);
    return h_as_coefficients ? width : std::max(1u, width);
  }
  constexpr unsigned max_log_domain(unsigned max_log_size) const {
    return h_as_coefficients ? max_log_size - 1 : max_log_size;
  }
  // What a·b − c is multiplied by on the coset: 1/Z(g) where H takes
  // coefficients, else 1 (snarkjs's H points absorb Z's constant value).
  template <class Fr>
  Fr quotient_factor(const poly::Domain<Fr>& domain) const {
    if (!h_as_coefficients) return Fr::one();
    const uint64_t n = domain.size();
    return (domain.coset_shift().pow(&n, 1) - Fr::one()).inverse();
  }
};

constexpr QapReduction reduction(Convention c) {
  return c == Convention::snarkjs ? QapReduction{c, poly::Roots::snarkjs, false, false}
                                  : QapReduction{c, poly::Roots::bellman, true, true};
}

}  // namespace cuzk::groth16
