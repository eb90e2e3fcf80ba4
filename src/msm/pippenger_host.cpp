#include "cuzk/msm/pippenger_host.hpp"

namespace cuzk::msm {

unsigned pippenger_window(size_t n, size_t chunks) {
  // Cost per window: one mixed addition per term, plus, per chunk, a running
  // sum over 2^(c-1) buckets (two full additions each, about three mixed ones).
  // Windows number ceil(257 / c). Pick the c >= 2 that minimises the total.
  unsigned best = 2;
  double best_cost = 0;
  for (unsigned c = 2; c <= 16; ++c) {
    const double windows = (257.0 + c - 1) / c;
    const double cost = windows * ((double)n + 3.0 * (double)chunks * (double)(size_t(1) << (c - 1)));
    if (c == 2 || cost < best_cost) best = c, best_cost = cost;
  }
  return best;
}

}  // namespace cuzk::msm
