#include "cuzk/util/secure_zero.hpp"

#include "cuzk/util/parallel.hpp"

namespace cuzk {

void secure_zero_parallel(void* p, size_t bytes, unsigned threads) {
  constexpr size_t kBlock = size_t(4) << 20;  // enough per task to keep every core's stores streaming
  auto* base = static_cast<unsigned char*>(p);
  parallel_blocks(bytes, kBlock, threads, [&](size_t begin, size_t end) { secure_zero(base + begin, end - begin); });
}

}  // namespace cuzk
