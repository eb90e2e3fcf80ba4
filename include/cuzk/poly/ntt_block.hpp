// How many points a block of the GPU NTT's passes holds (ntt_cuda.cu), chosen
// from the device's limits at run time. A pure function of those limits, so
// that a CPU test checks what it yields on each architecture cuzk is built for.
//
// A pass of S stages is 2^S points in shared memory, 4 a thread; passes whose
// stages leave room take several adjacent columns a block (runs of points in
// device memory instead of single ones) up to 2^bits points. Shared memory is
// 36 bytes a point (32-byte Fr, padded by 1/8 against bank conflicts), so a
// block of 2^10 points takes 36 KiB: four of them fit the 164–228 KiB of an
// A100's, H100's or H200's SM, two the 100 KiB of an RTX 30/40/50's and one
// the 64 KiB of a T4's. Smaller blocks pack those SMs tighter; the choice is
// the size that keeps the most threads resident an SM, the largest of equals.
#pragma once

#include <cstddef>

namespace cuzk::poly {

inline constexpr unsigned kNttPassMaxStages = 10;      // stages a pass does at most (2^10 points, 256 threads)
inline constexpr unsigned kNttPointBits = 2;           // 4 points a thread, in registers
inline constexpr unsigned kNttPassMinBlocks = 4;       // launch bounds: 64 registers a thread
inline constexpr size_t kNttSharedBytesPerPoint = 36;  // a 32-byte element and 1/8 of padding

// What an SM of the device holds (cudaDeviceProp's names in the comments).
struct SmLimits {
  size_t shared_per_sm = 0;            // sharedMemPerMultiprocessor
  size_t shared_per_block = 0;         // sharedMemPerBlock (without opting in)
  size_t shared_reserved_per_block = 0;  // reservedSharedMemPerBlock
  unsigned max_threads = 0;            // maxThreadsPerMultiProcessor
  unsigned max_blocks = 0;             // maxBlocksPerMultiProcessor
  unsigned registers = 0;              // regsPerMultiprocessor
};

// Threads of blocks of 2^bits points resident on one SM.
constexpr unsigned ntt_resident_threads(const SmLimits& sm, unsigned bits) {
  const size_t shared = kNttSharedBytesPerPoint << bits;
  if (shared > sm.shared_per_block) return 0;
  size_t blocks = sm.shared_per_sm / (shared + sm.shared_reserved_per_block);
  if (blocks > sm.max_blocks) blocks = sm.max_blocks;
  const size_t registers_per_thread = 65536 / (kNttPassMinBlocks << (kNttPassMaxStages - kNttPointBits));
  size_t cap = sm.registers / registers_per_thread;
  if (cap > sm.max_threads) cap = sm.max_threads;
  const size_t threads = blocks << (bits - kNttPointBits);
  return unsigned(threads < cap ? threads : cap);
}

// log2 of the most points a pass block holds, in [kNttPointBits, kNttPassMaxStages].
constexpr unsigned ntt_block_bits(const SmLimits& sm) {
  unsigned best = kNttPassMaxStages;
  for (unsigned bits = kNttPassMaxStages; bits-- > kNttPointBits;)
    if (ntt_resident_threads(sm, bits) > ntt_resident_threads(sm, best)) best = bits;
  return best;
}

}  // namespace cuzk::poly
