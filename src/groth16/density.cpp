#include "cuzk/groth16/density.hpp"

#include <algorithm>

namespace cuzk::groth16 {

template <class E>
Density column_density(const r1cs::ConstraintMatrices<E>& m, int matrix) {
  using Fr = typename E::Fr;
  Density d(m.n_vars);
  if (matrix == 0)
    for (uint32_t s = 0; s <= m.n_public; ++s) d.set(s);  // the input constraints
  std::vector<r1cs::Term<Fr>> lc;
  for (size_t c = 0; c < m.n_constraints(); ++c) {
    const auto terms = m.lc(c, matrix);
    // A combination rarely names a wire twice; when it does, the sum decides.
    lc.assign(terms.begin(), terms.end());
    std::ranges::sort(lc, {}, &r1cs::Term<Fr>::wire);
    for (size_t i = 0; i < lc.size();) {
      Fr sum = Fr::zero();
      size_t j = i;
      for (; j < lc.size() && lc[j].wire == lc[i].wire; ++j) sum += lc[j].coef;
      if (!sum.is_zero()) d.set(lc[i].wire);
      i = j;
    }
  }
  return d;
}

template Density column_density(const r1cs::ConstraintMatrices<ec::Bn254>&, int);
template Density column_density(const r1cs::ConstraintMatrices<ec::Bls12_381>&, int);

}  // namespace cuzk::groth16
