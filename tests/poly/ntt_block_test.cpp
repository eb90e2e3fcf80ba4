// The GPU NTT's block size for each kind of SM cuzk is built for
// (ntt_block.hpp), from the limits NVIDIA's CUDA C++ Programming Guide lists per
// compute capability ("Technical Specifications"): the H200's choice is the one
// its passes were tuned with, and SMs with less shared memory get the smaller
// blocks that keep more of their threads busy.
#include <gtest/gtest.h>

#include "cuzk/poly/ntt_block.hpp"

namespace cuzk {
namespace {

using poly::SmLimits;

constexpr size_t KiB = 1024;

// shared memory per SM, threads and blocks an SM; 48 KiB a block without
// opting in, 1 KiB reserved a block and 64 Ki registers on all of them.
constexpr SmLimits sm(size_t shared_kib, unsigned threads, unsigned blocks) {
  return {shared_kib * KiB, 48 * KiB, 1 * KiB, threads, blocks, 65536};
}

constexpr SmLimits kTuring = sm(64, 1024, 16);        // 7.5: T4, RTX 20
constexpr SmLimits kAmpere100 = sm(164, 2048, 32);    // 8.0: A100
constexpr SmLimits kAmpere = sm(100, 1536, 16);       // 8.6: RTX 30, A10G
constexpr SmLimits kAda = sm(100, 1536, 24);          // 8.9: RTX 40, L4, L40S
constexpr SmLimits kHopper = sm(228, 2048, 32);       // 9.0: H100, H200
constexpr SmLimits kBlackwell100 = sm(228, 2048, 32); // 10.0: B200
constexpr SmLimits kBlackwell = sm(100, 1536, 24);    // 12.0: RTX 50

TEST(NttBlock, TheH200KeepsBlocksOf1024Points) {
  // Four blocks of 36 KiB (+1 KiB reserved) fit its 228 KiB; the registers
  // (64 a thread) then cap the SM at 1024 threads, which smaller blocks only tie.
  EXPECT_EQ(poly::ntt_resident_threads(kHopper, 10), 1024u);
  EXPECT_EQ(poly::ntt_resident_threads(kHopper, 9), 1024u);
  EXPECT_EQ(poly::ntt_block_bits(kHopper), 10u);
  EXPECT_EQ(poly::ntt_block_bits(kBlackwell100), 10u);
  EXPECT_EQ(poly::ntt_block_bits(kAmpere100), 10u);
}

TEST(NttBlock, SmallerSharedMemoriesGetBlocksOf512Points) {
  // 100 KiB: two blocks of 2^10 (512 threads) or five of 2^9 (640).
  EXPECT_EQ(poly::ntt_resident_threads(kAmpere, 10), 512u);
  EXPECT_EQ(poly::ntt_resident_threads(kAmpere, 9), 640u);
  EXPECT_EQ(poly::ntt_resident_threads(kAmpere, 8), 640u);  // a tie keeps the larger block
  EXPECT_EQ(poly::ntt_block_bits(kAmpere), 9u);
  EXPECT_EQ(poly::ntt_block_bits(kAda), 9u);
  EXPECT_EQ(poly::ntt_block_bits(kBlackwell), 9u);
  // 64 KiB: one block of 2^10 (256 threads) or three of 2^9 (384).
  EXPECT_EQ(poly::ntt_resident_threads(kTuring, 10), 256u);
  EXPECT_EQ(poly::ntt_resident_threads(kTuring, 9), 384u);
  EXPECT_EQ(poly::ntt_block_bits(kTuring), 9u);
}

TEST(NttBlock, TheBlockCountLimitAndTheBlockLimitCount) {
  // A large shared memory with few blocks an SM: 2 blocks of 2^10 beat 2 of 2^9.
  EXPECT_EQ(poly::ntt_block_bits(sm(228, 2048, 2)), 10u);
  // No reserved memory: 2^10-point blocks pack 144 KiB exactly four times.
  SmLimits exact = sm(144, 2048, 32);
  exact.shared_reserved_per_block = 0;
  EXPECT_EQ(poly::ntt_resident_threads(exact, 10), 1024u);
  EXPECT_EQ(poly::ntt_block_bits(exact), 10u);
  // A block limit under 36 KiB rules 2^10 out: 2^9 (18 KiB) is the largest that launches.
  SmLimits small_blocks = kHopper;
  small_blocks.shared_per_block = 32 * KiB;
  EXPECT_EQ(poly::ntt_resident_threads(small_blocks, 10), 0u);
  EXPECT_EQ(poly::ntt_block_bits(small_blocks), 9u);
}

}  // namespace
}  // namespace cuzk
