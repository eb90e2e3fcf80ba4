// The matrices pass: a circuit as r1cs::ConstraintMatrices, for the
// development setup and for tests that check a witness independently of the
// synthesizer. Not a hot path: each lc's terms are collected, sorted by wire
// and merged, and zero coefficients dropped, as a .r1cs file would hold them.
#pragma once

#include <algorithm>
#include <vector>

#include "cuzk/circuit/shape.hpp"
#include "cuzk/r1cs/constraints.hpp"

namespace cuzk::circuit {

// The shape pass's allocation and counting, plus each constraint's terms.
template <class E>
class MatrixCS : public ShapeCS<typename E::Fr> {
 public:
  using Fr = typename E::Fr;
  using Entry = r1cs::Term<Fr>;

  struct Lc : LcOps<Lc, Fr> {
    std::vector<Entry>* out;
    uint32_t n_public;

    void add(Variable x) { add(Fr::one(), x); }
    void sub(Variable x) { add(-Fr::one(), x); }
    void add(const Fr& k, Variable x) { out->push_back({x.wire(n_public), k}); }
  };

  // The shape pass's result places aux wires after the public ones.
  explicit MatrixCS(const Shape& shape) : shape_(shape) {
    m_.n_vars = shape.n_vars;
    m_.n_public = shape.n_public;
    m_.starts.reserve(3 * shape.n_constraints + 1);
  }

  template <class A, class B, class C>
  void enforce(const char* name, const A& a, const B& b, const C& c) {
    append(a);
    append(b);
    append(c);
    ShapeCS<Fr>::enforce(name, a, b, c);
  }

  r1cs::ConstraintMatrices<E> finish() && {
    expect_shape(shape_, this->shape());
    return std::move(m_);
  }

 private:
  template <class S>
  void append(const S& s) {
    scratch_.clear();
    build(Lc{{}, &scratch_, shape_.n_public}, s);
    std::sort(scratch_.begin(), scratch_.end(), [](const Entry& x, const Entry& y) { return x.wire < y.wire; });
    auto& t = m_.terms;
    const size_t begin = t.size();
    for (const Entry& e : scratch_) {
      if (t.size() > begin && t.back().wire == e.wire)
        t.back().coef += e.coef;
      else
        t.push_back(e);
    }
    t.erase(std::remove_if(t.begin() + begin, t.end(), [](const Entry& e) { return e.coef.is_zero(); }), t.end());
    m_.starts.push_back(t.size());
  }

  Shape shape_;
  r1cs::ConstraintMatrices<E> m_;
  std::vector<Entry> scratch_;  // one lc's terms, reused
};

template <Circuit C>
r1cs::ConstraintMatrices<typename C::Curve> constraint_matrices(const C& circuit) {
  MatrixCS<typename C::Curve> cs(shape_of(circuit));
  circuit.synthesize(cs);
  return std::move(cs).finish();
}

}  // namespace cuzk::circuit
