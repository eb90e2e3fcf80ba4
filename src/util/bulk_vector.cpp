#include "cuzk/util/bulk_vector.hpp"

#include <sys/mman.h>

namespace cuzk {

void* huge_pages(size_t bytes) noexcept {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  ::madvise(p, bytes, MADV_HUGEPAGE);  // advice: where the kernel declines, small pages serve
  return p;
}

void release_huge_pages(void* p, size_t bytes) noexcept { ::munmap(p, bytes); }

}  // namespace cuzk
