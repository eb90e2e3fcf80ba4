// SHA-256 (FIPS 180-4): what identifies a key by its contents (the service
// answers a second load of the same bytes with the key it holds). cuzk_core
// links no crypto library (the GPU machine has none), so the rounds are here:
// with the x86 SHA extensions where the CPU has them, several times faster
// than the portable rounds, which every other CPU runs.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace cuzk::util {

using Sha256Digest = std::array<uint8_t, 32>;

class Sha256 {
 public:
  void update(std::span<const uint8_t> bytes);
  Sha256Digest finish();  // once; the object is spent after it

 private:
  std::array<uint32_t, 8> state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::array<uint8_t, 64> block_{};
  size_t used_ = 0;     // bytes waiting in block_
  uint64_t length_ = 0;  // bytes hashed so far
};

Sha256Digest sha256(std::span<const uint8_t> bytes);
// The digest of what a descriptor reads from offset 0 to its end (pread, so
// the descriptor's offset is left alone). Throws std::system_error.
Sha256Digest sha256_fd(int fd);
std::string hex(const Sha256Digest& digest);

}  // namespace cuzk::util
