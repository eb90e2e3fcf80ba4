#include "cuzk/io/csr.hpp"

#include <cstring>

#include "cuzk/io/binfile.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::io {

namespace {

using E = ec::Bls12_381;
using Fr = E::Fr;

std::string str(uint64_t v) { return std::to_string(v); }

}  // namespace

r1cs::ConstraintMatrices<E> matrices_from_csr(size_t n_inputs, size_t n_aux, size_t rows, const CsrMatrix (&abc)[3],
                                              const std::string& name) {
  static constexpr const char* kMatrix[3] = {"A", "B", "C"};
  const auto fail = [&](const std::string& problem) { throw FormatError(name + ": " + problem); };
  if (n_inputs == 0) fail("no inputs: input 0 is the constant 1");
  // Wires and constraint numbers are 32-bit in the key (groth16::Coef).
  if (n_inputs > UINT32_MAX || n_aux > UINT32_MAX - n_inputs)
    fail(str(n_inputs) + " inputs and " + str(n_aux) + " private variables are more than 2^32 - 1 variables");
  if (rows >= UINT32_MAX) fail(str(rows) + " constraints are more than 2^32 - 2");
  const uint32_t n_vars = uint32_t(n_inputs + n_aux);
  size_t terms = 0;
  for (int m = 0; m < 3; ++m) {
    const CsrMatrix& x = abc[m];
    const std::string what = kMatrix[m];
    if (x.row_ptrs.size() != rows + 1)
      fail(what + " has " + str(x.row_ptrs.size()) + " row pointers; " + str(rows) + " constraints need " +
           str(rows + 1));
    if (x.row_ptrs[0] != 0) fail(what + "'s first row pointer is " + str(x.row_ptrs[0]) + ", not 0");
    for (size_t i = 0; i < rows; ++i)
      if (x.row_ptrs[i + 1] < x.row_ptrs[i])
        fail(what + "'s row pointer " + str(i + 1) + " (" + str(x.row_ptrs[i + 1]) + ") is below row pointer " +
             str(i) + " (" + str(x.row_ptrs[i]) + ")");
    if (x.row_ptrs[rows] != x.cols.size() || x.vals.size() != Fr::N * x.cols.size())
      fail(what + "'s rows end at term " + str(x.row_ptrs[rows]) + "; it has " + str(x.cols.size()) + " columns and " +
           str(x.vals.size() / Fr::N) + " coefficients");
    terms += x.cols.size();
  }
  r1cs::ConstraintMatrices<E> out;
  out.n_vars = n_vars;
  out.n_public = uint32_t(n_inputs - 1);
  // Constraint i's A, B, C terms lie together: where each begins, in one pass.
  out.starts.assign(3 * rows + 1, 0);
  for (size_t i = 0, at = 0; i < rows; ++i)
    for (int m = 0; m < 3; ++m) {
      out.starts[3 * i + m] = at;
      at += abc[m].row_ptrs[i + 1] - abc[m].row_ptrs[i];
    }
  out.starts[3 * rows] = terms;
  out.terms.resize(terms);
  parallel_blocks(rows, 1 << 14, 0, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
      for (int m = 0; m < 3; ++m) {
        const CsrMatrix& x = abc[m];
        r1cs::Term<Fr>* to = out.terms.data() + out.starts[3 * i + m];
        for (uint32_t t = x.row_ptrs[i]; t < x.row_ptrs[i + 1]; ++t, ++to) {
          const uint64_t* v = x.vals.data() + Fr::N * t;
          if (x.cols[t] >= n_vars)
            fail(std::string(kMatrix[m]) + " term " + str(t) + " (constraint " + str(i) + "): column " +
                 str(x.cols[t]) + " is not below the " + str(n_vars) + " variables");
          if (!Fr::less_than_modulus(v))
            fail(std::string(kMatrix[m]) + " term " + str(t) + " (constraint " + str(i) +
                 "): the coefficient is not below the modulus");
          to->wire = x.cols[t];
          std::memcpy(&to->coef, v, sizeof(Fr));
        }
      }
  });
  return out;
}

std::array<CsrArrays, 3> csr_of(const r1cs::ConstraintMatrices<E>& m) {
  std::array<CsrArrays, 3> out;
  for (int k = 0; k < 3; ++k) {
    CsrArrays& x = out[k];
    x.row_ptrs.push_back(0);
    for (size_t c = 0; c < m.n_constraints(); ++c) {
      for (const auto& t : m.lc(c, k)) x.cols.push_back(t.wire), x.vals.push_back(t.coef);
      x.row_ptrs.push_back((uint32_t)x.cols.size());
    }
  }
  return out;
}

}  // namespace cuzk::io
