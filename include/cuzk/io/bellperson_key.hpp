// A proving key in bellman's convention (groth16/keys.hpp) and the bellperson
// parameter file that holds it (io/bellperson.hpp). The file holds points
// only: the coefficients a prover evaluates a, b and c from, and the
// densities that say which variables A and B have points for, come from the
// circuit, an .r1cs or a native circuit's matrices, given beside it.
#pragma once

#include <memory>
#include <string>

#include "cuzk/r1cs/constraints.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/io/bellperson.hpp"

namespace cuzk::io {

// The parameter file's contents for a key in bellman's convention;
// std::invalid_argument for a key in another, or one whose points are on a GPU.
BellpersonParams<Bls12_381> to_bellperson(const groth16::ProvingKey<Bls12_381>& key);

// Circuit m's densities of A and B, once m is the circuit that parameters of
// these counts were made for, as far as counts tell: IC against the public
// inputs, L against the private signals, H against the domain, A and B
// against the densities. Else FormatError, one line "<name>: ...", naming the
// first count that differs. With read_bellperson_counts, a circuit that does
// not fit is told before a large file is read.
struct CircuitDensities {
  groth16::Density a, b;
};
CircuitDensities check_circuit(const BellpersonCounts& counts, const r1cs::ConstraintMatrices<Bls12_381>& m,
                               const std::string& name);

// The key of `params` for circuit m (check_circuit first), owning the
// points: what groth16::PreparedKey::make takes.
std::shared_ptr<const groth16::ProvingKey<Bls12_381>> bellman_key(BellpersonParams<Bls12_381> params,
                                                                  const r1cs::ConstraintMatrices<Bls12_381>& m,
                                                                  const std::string& name);
// The same, the points shared with `params`, which may serve other keys
// (supraseal-c2's SRS with a circuit registered beside its callers' bitmaps).
std::shared_ptr<const groth16::ProvingKey<Bls12_381>> bellman_key(
    std::shared_ptr<const BellpersonParams<Bls12_381>> params, const r1cs::ConstraintMatrices<Bls12_381>& m,
    const std::string& name);

// The key of `params` for a circuit known by its densities alone (what
// supraseal-c2's callers pass as bitmaps): the points shared with `params`
// (which may serve several such keys) and no coefficients, so that it proves
// only partitions whose a, b and c are given (service::Evaluations).
// FormatError, one line "<name>: ...", when the densities do not fit the
// parameters (variables against IC and L, counts against A, B_G1, B_G2).
std::shared_ptr<const groth16::ProvingKey<Bls12_381>> bellman_key(
    std::shared_ptr<const BellpersonParams<Bls12_381>> params, groth16::Density a, groth16::Density b,
    const std::string& name);

// The verifying key, e(α1, β2) computed, as verification_key.json carries it.
groth16::VerifyingKey<Bls12_381> verifying_key(const BellpersonVk<Bls12_381>& vk);

}  // namespace cuzk::io
