// The prover's assembly, unverified. Not part of the API: prove_finish is the
// only way to a proof (verified); this header is for the groth16 layer's own
// files and for tests that compare two provers' unverified results.
#pragma once

#include "cuzk/groth16/prover.hpp"

namespace cuzk::groth16::detail {

// Assembly (snarkjs-formats.md §2.6), constant-time in r and s:
//   πA = A' + α1 + r·δ1,  πB = B2' + β2 + s·δ2,  πC = C' + H' + s·πA + r·(B1' + β1).
// That is Groth's πC = C' + H' + s·πA + r·B1 − rs·δ1 with B1 = B1' + β1 + s·δ1,
// its two rs·δ1 terms cancelled: three G1 multiplications by the secrets
// where the definition has five, and one in G2.
template <class E>
Proof<E> assemble(const PreparedKey<E>& key, const PendingProof<E>& pending, const Randomness<typename E::Fr>& rs);

#define CUZK_GROTH16_ASSEMBLE_EXTERN(E) \
  extern template Proof<E> assemble(const PreparedKey<E>&, const PendingProof<E>&, const Randomness<E::Fr>&);
CUZK_GROTH16_ASSEMBLE_EXTERN(ec::Bn254)
CUZK_GROTH16_ASSEMBLE_EXTERN(ec::Bls12_381)
#undef CUZK_GROTH16_ASSEMBLE_EXTERN

}  // namespace cuzk::groth16::detail
