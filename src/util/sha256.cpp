#include "cuzk/util/sha256.hpp"

#include <cerrno>
#include <cstring>
#include <system_error>
#include <unistd.h>
#include <vector>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace cuzk::util {
namespace {

alignas(16) constexpr uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

constexpr uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

void compress_portable(uint32_t* state, const uint8_t* data, size_t blocks) {
  for (; blocks; --blocks, data += 64) {
    uint32_t w[64];
    for (int t = 0; t < 16; ++t)
      w[t] = (uint32_t)data[4 * t] << 24 | (uint32_t)data[4 * t + 1] << 16 | (uint32_t)data[4 * t + 2] << 8 |
             data[4 * t + 3];
    for (int t = 16; t < 64; ++t) {
      const uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
      const uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4], f = state[5], g = state[6],
             h = state[7];
    for (int t = 0; t < 64; ++t) {
      const uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kRound[t] + w[t];
      const uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    state[0] += a, state[1] += b, state[2] += c, state[3] += d;
    state[4] += e, state[5] += f, state[6] += g, state[7] += h;
  }
}

#if defined(__x86_64__)
bool have_sha_extensions() {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSE4_1) || !(c & bit_SSSE3)) return false;
  return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
}

// The SHA extensions keep the state as ABEF and CDGH and take the schedule
// four words at a time: w[g % 4] holds words 4g..4g+3 of the 64.
__attribute__((target("sha,sse4.1,ssse3"))) void compress_sha_extensions(uint32_t* state, const uint8_t* data,
                                                                         size_t blocks) {
  const __m128i big_endian = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i dcba = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i*)&state[0]), 0xB1);  // CDAB
  __m128i cdgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i*)&state[4]), 0x1B);  // EFGH
  __m128i abef = _mm_alignr_epi8(dcba, cdgh, 8);
  cdgh = _mm_blend_epi16(cdgh, dcba, 0xF0);
  for (; blocks; --blocks, data += 64) {
    const __m128i abef_in = abef, cdgh_in = cdgh;
    __m128i w[4];
    for (int g = 0; g < 16; ++g) {
      if (g < 4) {
        w[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i*)(data + 16 * g)), big_endian);
      } else {
        const __m128i sum = _mm_add_epi32(_mm_sha256msg1_epu32(w[g % 4], w[(g + 1) % 4]),
                                          _mm_alignr_epi8(w[(g + 3) % 4], w[(g + 2) % 4], 4));
        w[g % 4] = _mm_sha256msg2_epu32(sum, w[(g + 3) % 4]);
      }
      const __m128i wk = _mm_add_epi32(w[g % 4], _mm_load_si128((const __m128i*)&kRound[4 * g]));
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
    }
    abef = _mm_add_epi32(abef, abef_in);
    cdgh = _mm_add_epi32(cdgh, cdgh_in);
  }
  const __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  cdgh = _mm_shuffle_epi32(cdgh, 0xB1);  // DCHG
  _mm_storeu_si128((__m128i*)&state[0], _mm_blend_epi16(feba, cdgh, 0xF0));
  _mm_storeu_si128((__m128i*)&state[4], _mm_alignr_epi8(cdgh, feba, 8));
}
#endif

void compress(uint32_t* state, const uint8_t* data, size_t blocks) {
#if defined(__x86_64__)
  static const bool extensions = have_sha_extensions();
  if (extensions) return compress_sha_extensions(state, data, blocks);
#endif
  compress_portable(state, data, blocks);
}

}  // namespace

void Sha256::update(std::span<const uint8_t> bytes) {
  length_ += bytes.size();
  if (used_ && !bytes.empty()) {
    const size_t take = std::min(bytes.size(), block_.size() - used_);
    std::memcpy(block_.data() + used_, bytes.data(), take);
    used_ += take;
    bytes = bytes.subspan(take);
    if (used_ < block_.size()) return;
    compress(state_.data(), block_.data(), 1);
    used_ = 0;
  }
  const size_t whole = bytes.size() / 64;
  compress(state_.data(), bytes.data(), whole);
  bytes = bytes.subspan(64 * whole);
  if (!bytes.empty()) std::memcpy(block_.data(), bytes.data(), bytes.size());
  used_ = bytes.size();
}

Sha256Digest Sha256::finish() {
  const uint64_t bits = 8 * length_;
  uint8_t tail[72] = {0x80};
  const size_t pad = (used_ < 56 ? 56 : 120) - used_;
  for (int i = 0; i < 8; ++i) tail[pad + i] = (uint8_t)(bits >> (56 - 8 * i));
  update({tail, pad + 8});
  Sha256Digest out;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j) out[4 * i + j] = (uint8_t)(state_[i] >> (24 - 8 * j));
  return out;
}

Sha256Digest sha256(std::span<const uint8_t> bytes) {
  Sha256 h;
  h.update(bytes);
  return h.finish();
}

Sha256Digest sha256_fd(int fd) {
  Sha256 h;
  std::vector<uint8_t> chunk(size_t(4) << 20);
  for (off_t at = 0;;) {
    const ssize_t n = ::pread(fd, chunk.data(), chunk.size(), at);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::system_error(errno, std::generic_category(), "read");
    }
    h.update({chunk.data(), (size_t)n});
    at += n;
  }
  return h.finish();
}

std::string hex(const Sha256Digest& digest) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const uint8_t b : digest) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

}  // namespace cuzk::util
