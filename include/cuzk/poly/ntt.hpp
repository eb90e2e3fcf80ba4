// Number-theoretic transforms over a Domain, on the host, in place, natural order
// in and out (the order snarkjs's buffers are in):
//
//   ntt:        a_i (coefficients)  ->  A_j = Σ a_i ω^(ij)         (evaluations on ⟨ω⟩)
//   intt:       A_j                 ->  a_i = (1/n) Σ A_j ω^(-ij)
//   coset_ntt:  a_i                 ->  Σ a_i (g ω^j)^i             (evaluations on g·⟨ω⟩)
//   coset_intt: the inverse of coset_ntt.
//
// The Groth16 quotient is, per a, b, c: intt, then coset_ntt with
// g = domain.coset_shift() (snarkjs's odd coset {ω_{2n}^(2j+1)}).
//
// Results are exact (it is a field), so every implementation — this one, the
// device one, a naive DFT — must agree bit for bit.
//
// threads: how many threads may work on one transform, the caller's included;
// 0 means one per hardware thread. Transforms of small domains run on the
// caller's thread alone, where starting threads would cost more than it saves.
//
// Every function throws std::invalid_argument when values.size() differs from
// domain.size(), and the coset ones when g is zero (there is no such coset).
#pragma once

#include <span>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"
#include "cuzk/poly/domain.hpp"

namespace cuzk::poly {

template <class Fr>
void ntt(const Domain<Fr>& domain, std::span<Fr> values, unsigned threads = 0);

template <class Fr>
void intt(const Domain<Fr>& domain, std::span<Fr> values, unsigned threads = 0);

template <class Fr>
void coset_ntt(const Domain<Fr>& domain, std::span<Fr> values, const Fr& g, unsigned threads = 0);

template <class Fr>
void coset_intt(const Domain<Fr>& domain, std::span<Fr> values, const Fr& g, unsigned threads = 0);

#define CUZK_POLY_NTT_EXTERN(Fr)                                                               \
  extern template void ntt<Fr>(const Domain<Fr>&, std::span<Fr>, unsigned);                   \
  extern template void intt<Fr>(const Domain<Fr>&, std::span<Fr>, unsigned);                  \
  extern template void coset_ntt<Fr>(const Domain<Fr>&, std::span<Fr>, const Fr&, unsigned);  \
  extern template void coset_intt<Fr>(const Domain<Fr>&, std::span<Fr>, const Fr&, unsigned);
CUZK_POLY_NTT_EXTERN(ff::bn254::Fr)
CUZK_POLY_NTT_EXTERN(ff::bls12_381::Fr)
#undef CUZK_POLY_NTT_EXTERN

}  // namespace cuzk::poly
