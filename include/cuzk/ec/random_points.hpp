// Many random subgroup points quickly: per chunk, a random start s·G and step
// t·G, then start + i·step with one addition each and one batch inversion.
#pragma once

#include <random>
#include <vector>

#include "cuzk/ec/ops.hpp"
#include "cuzk/ff/encode.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::ec {

template <class C>
std::vector<ec::Affine<C>> random_points(size_t n, const ec::Affine<C>& generator, uint64_t seed) {
  std::vector<ec::Affine<C>> out(n);
  parallel_chunks(n, [&](size_t b, size_t e, size_t chunk) {
    std::mt19937_64 rng(seed * 1000003 + chunk);
    const auto start = ec::mul_vartime(generator, ff::random_element<typename C::Fr>(rng));
    const auto step = ec::mul_vartime(generator, ff::random_element<typename C::Fr>(rng)).to_affine();
    std::vector<ec::Jacobian<C>> jac(e - b);
    auto acc = start;
    for (auto& j : jac) {
      j = acc;
      acc = acc.add(step);
    }
    ec::batch_to_affine<C>(jac, std::span(out).subspan(b, e - b));
  });
  return out;
}

}  // namespace cuzk::ec
