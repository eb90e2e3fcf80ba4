// A circuit's R1CS as compressed sparse rows, the way a caller holds it in
// memory (Curio's pre-compiled constraint evaluator records one per circuit
// topology, cuzk-pce's CsrMatrix): for each of A, B and C, row i's terms are
// cols[row_ptrs[i] .. row_ptrs[i + 1]) with their coefficients in vals. A
// column names a variable in bellperson's order, the inputs first (column 0
// the constant 1), then the private variables; a coefficient is an Fr in
// Montgomery form, 4 little-endian 64-bit limbs, as blst lays it out.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/ec/curves.hpp"
#include "cuzk/r1cs/constraints.hpp"

namespace cuzk::io {

struct CsrMatrix {
  std::span<const uint32_t> row_ptrs;  // one per row, and the end
  std::span<const uint32_t> cols;      // one per term
  std::span<const uint64_t> vals;      // 4 limbs per term
};

// The circuit's constraints (`rows` of them, bellman's input constraints not
// among them: the key adds those, as bellperson's prover does) as matrices,
// every size, pointer and value checked: each matrix has rows + 1 row
// pointers from 0, never decreasing, ending at its term count, which cols and
// vals hold; every column below n_inputs + n_aux; every coefficient below the
// modulus; n_inputs at least 1 (the constant), and the variables and rows
// within 32 bits. Else FormatError, one line "<name>: ...", naming the matrix
// and the first problem found.
r1cs::ConstraintMatrices<ec::Bls12_381> matrices_from_csr(size_t n_inputs, size_t n_aux, size_t rows,
                                                          const CsrMatrix (&abc)[3], const std::string& name);

// One matrix's compressed sparse rows in storage of their own.
struct CsrArrays {
  std::vector<uint32_t> row_ptrs, cols;
  std::vector<ec::Bls12_381::Fr> vals;
};

// m's A, B and C as compressed sparse rows, matrices_from_csr's inverse: the
// circuit as a caller of the witness-only ABI hands it over (benchmarks and
// test fixtures).
std::array<CsrArrays, 3> csr_of(const r1cs::ConstraintMatrices<ec::Bls12_381>& m);

}  // namespace cuzk::io
