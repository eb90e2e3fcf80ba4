#include "cuzk/util/bulk_vector.hpp"

#include <sys/mman.h>

namespace cuzk {

void* huge_pages(size_t bytes) noexcept {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  ::madvise(p, bytes, MADV_HUGEPAGE);  // advice: where the kernel declines, small pages serve
  // Keys, witnesses and their products stay out of core dumps: a core must
  // not carry a client's secrets, nor tens of gigabytes.
  ::madvise(p, bytes, MADV_DONTDUMP);
  return p;
}

void release_huge_pages(void* p, size_t bytes) noexcept { ::munmap(p, bytes); }

}  // namespace cuzk
