// Arithmetic as host/device functors, so that a GPU test runs the very same
// expression on both sides and compares bit for bit.
#pragma once

#include "cuzk/config.hpp"

namespace cuzk::ops {

struct Add {
  template <class T> CUZK_HD T operator()(const T& a, const T& b) const { return a + b; }
};
struct Sub {
  template <class T> CUZK_HD T operator()(const T& a, const T& b) const { return a - b; }
};
struct Mul {
  template <class T> CUZK_HD T operator()(const T& a, const T& b) const { return a * b; }
};
struct Sqr {
  template <class T> CUZK_HD T operator()(const T& a) const { return a.sqr(); }
};
struct Neg {
  template <class T> CUZK_HD T operator()(const T& a) const { return -a; }
};
struct Dbl {
  template <class T> CUZK_HD T operator()(const T& a) const { return a.dbl(); }
};
struct Inverse {
  template <class T> CUZK_HD T operator()(const T& a) const { return a.inverse(); }
};
// Point addition in any mix the point types offer (full or mixed).
struct PointAdd {
  template <class A, class B> CUZK_HD A operator()(const A& a, const B& b) const { return a.add(b); }
};
struct ToAffine {
  template <class P> CUZK_HD auto operator()(const P& p) const { return p.to_affine(); }
};

}  // namespace cuzk::ops
