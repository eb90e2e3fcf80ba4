// Eight elements of one prime field at once, with AVX-512 IFMA (host only).
//
// An element's N 64-bit limbs (Fp's Montgomery word a·R, R = 2^(64N)) are
// regrouped into L = ceil(64N/52) limbs of 52 bits, one 512-bit register per
// limb holding that limb of eight elements, so that VPMADD52LUQ/HUQ multiply
// eight 52-bit limb pairs in one instruction. The Montgomery product keeps
// R = 2^(64N), not 2^(52L): its last reduction round removes only the bits
// left (48 of 4 limbs, 20 of 6), so loading and storing are bit shuffles and
// the results are Fp's words exactly. Products run at about a third of the
// 64-bit MULX product's cost per element where IFMA has a port of its own.
//
// Values stay in [0, 2p) between operations ("lazy" reduction: with 4p < R a
// Montgomery product of two such values is again below 2p) and are brought
// to [0, p) only when stored; a field with 4p >= R keeps them in [0, p). Limb sums are held in 64-bit lanes without
// carrying until a result is needed: each lane takes a few dozen 52-bit terms
// before it could overflow, far more than one product adds.
//
// Every function carries its own target attribute, so this header compiles
// into any translation unit; callers dispatch on use_ifma() at run time.
// Variable time in nothing: no branch or address depends on a value.
#pragma once

#if defined(__x86_64__) && !defined(__CUDACC__)
#define CUZK_HAVE_MONT52X8 1

#include "cuzk/ff/detail/x86_intrinsics.hpp"

#include <array>
#include <atomic>
#include <cstdint>

#include "cuzk/ff/fp.hpp"
#include "cuzk/ff/tower.hpp"

#define CUZK_IFMA [[gnu::always_inline, gnu::target("avx512f,avx512ifma")]] inline

namespace cuzk::ff::mont52x8 {

// AVX-512F and IFMA, with the OS saving the 512-bit state (libgcc checks
// XCR0). Asked once.
inline const bool kHaveIfma = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
}();

// Whether callers take the IFMA path: where the CPU has it, unless set_ifma
// turned it off (a front end for CUZK_IFMA=0, service/environment.hpp; a test
// or benchmark comparing the two paths in one process).
inline std::atomic<bool> ifma_enabled = kHaveIfma;

inline bool have_ifma() { return kHaveIfma; }
inline bool use_ifma() { return ifma_enabled.load(std::memory_order_relaxed); }
// Turns the IFMA path on (where the CPU has it) or off; returns whether it is on.
inline bool set_ifma(bool on) {
  ifma_enabled.store(on && kHaveIfma, std::memory_order_relaxed);
  return use_ifma();
}

constexpr uint64_t kMask52 = (uint64_t(1) << 52) - 1;

// The field's constants in radix 2^52: p, 2p, and -p^-1 mod 2^52.
template <class P>
struct Consts {
  static constexpr size_t N = P::n64;
  static constexpr size_t L = (64 * N + 51) / 52;
  static constexpr unsigned last_bits = unsigned(64 * N - 52 * (L - 1));

  // The limbs of the N-word value v, 52 bits each.
  static constexpr std::array<uint64_t, L> split(const std::array<uint64_t, N>& v) {
    std::array<uint64_t, L> r{};
    for (size_t j = 0; j < L; ++j) {
      const size_t bit = 52 * j, word = bit / 64, sh = bit % 64;
      uint64_t x = v[word] >> sh;
      if (sh + 52 > 64 && word + 1 < N) x |= v[word + 1] << (64 - sh);
      r[j] = x & kMask52;
    }
    return r;
  }
  static constexpr std::array<uint64_t, N> words(unsigned factor) {
    std::array<uint64_t, N> w{};
    unsigned __int128 carry = 0;
    for (size_t i = 0; i < N; ++i) {
      carry += (unsigned __int128)P::modulus(i) * factor;
      w[i] = (uint64_t)carry;
      carry >>= 64;
    }
    return w;
  }
  static constexpr auto p = split(words(1));
  static constexpr auto p2 = split(words(2));
  static constexpr uint64_t inv = P::inv & kMask52;  // P::inv is -p^-1 mod 2^64
  // Values stay below `bound`: 2p where 4p < R (every base field, BN254's Fr),
  // else p (BLS12-381's Fr, 4r > 2^256), which costs products a subtraction.
  static constexpr bool lazy = 4 * (unsigned __int128)P::modulus(N - 1) < ((unsigned __int128)1 << 64);
  static constexpr auto bound = lazy ? p2 : p;
};

template <class P>
struct Vec {
  using K = Consts<P>;
  static constexpr size_t N = K::N, L = K::L;
  __m512i l[L];
};

CUZK_IFMA __m512i shr(__m512i x, unsigned n) { return _mm512_srl_epi64(x, _mm_cvtsi32_si128((int)n)); }
CUZK_IFMA __m512i shl(__m512i x, unsigned n) { return _mm512_sll_epi64(x, _mm_cvtsi32_si128((int)n)); }
CUZK_IFMA __m512i mask52() { return _mm512_set1_epi64((long long)kMask52); }

// Signed carries from each limb into the next; the top limb keeps the sign.
template <size_t L>
CUZK_IFMA void carry_signed(__m512i (&t)[L]) {
  for (size_t j = 0; j + 1 < L; ++j) {
    t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_srai_epi64(t[j], 52));
    t[j] = _mm512_and_si512(t[j], mask52());
  }
}

// t - q where that is not negative, else t (t normalized and below 2q, q a
// constant of normalized limbs), lane by lane.
template <size_t L>
CUZK_IFMA void subtract_if_not_less(__m512i (&t)[L], const std::array<uint64_t, L>& q) {
  __m512i u[L];
  for (size_t j = 0; j < L; ++j) u[j] = _mm512_sub_epi64(t[j], _mm512_set1_epi64((long long)q[j]));
  carry_signed(u);
  const __mmask8 keep_u = _mm512_cmpge_epi64_mask(u[L - 1], _mm512_setzero_si512());
  for (size_t j = 0; j < L; ++j) t[j] = _mm512_mask_mov_epi64(t[j], keep_u, u[j]);
}

// Eight elements from eight addresses (src[0..7], each the N limbs of an Fp).
template <class P>
CUZK_IFMA Vec<P> load(const uint64_t* const* src) {
  using K = Consts<P>;
  const __m512i base = _mm512_set1_epi64((long long)(intptr_t)src[0]);
  const __m512i off = _mm512_sub_epi64(_mm512_loadu_si512(src), base);
  __m512i w[K::N];
  for (size_t i = 0; i < K::N; ++i) w[i] = _mm512_i64gather_epi64(off, src[0] + i, 1);
  Vec<P> r;
  for (size_t j = 0; j < K::L; ++j) {
    const size_t bit = 52 * j, word = bit / 64, sh = bit % 64;
    __m512i x = shr(w[word], (unsigned)sh);
    if (sh + 52 > 64 && word + 1 < K::N) x = _mm512_or_si512(x, shl(w[word + 1], (unsigned)(64 - sh)));
    r.l[j] = _mm512_and_si512(x, mask52());
  }
  return r;
}

// The canonical (< p) words of eight elements in [0, 2p), to eight addresses.
template <class P>
CUZK_IFMA void store(uint64_t* const* dst, Vec<P> a) {
  using K = Consts<P>;
  subtract_if_not_less(a.l, K::p);
  const __m512i base = _mm512_set1_epi64((long long)(intptr_t)dst[0]);
  const __m512i off = _mm512_sub_epi64(_mm512_loadu_si512(dst), base);
  for (size_t i = 0; i < K::N; ++i) {
    __m512i w = _mm512_setzero_si512();
    for (size_t j = 0; j < K::L; ++j) {
      const long lo = long(52 * j) - long(64 * i);  // where limb j starts within word i
      if (lo >= 64 || lo <= -52) continue;
      w = _mm512_or_si512(w, lo >= 0 ? shl(a.l[j], (unsigned)lo) : shr(a.l[j], (unsigned)-lo));
    }
    _mm512_i64scatter_epi64(dst[0] + i, off, w, 1);
  }
}

// a·b/R for a, b below the bound: below it again.
template <class P>
CUZK_IFMA Vec<P> mul(const Vec<P>& a, const Vec<P>& b) {
  using K = Consts<P>;
  constexpr size_t L = K::L;
  __m512i t[L + 1];
  for (auto& x : t) x = _mm512_setzero_si512();
  const __m512i inv = _mm512_set1_epi64((long long)K::inv);
  for (size_t i = 0; i < L; ++i) {
    for (size_t j = 0; j < L; ++j) {
      t[j] = _mm512_madd52lo_epu64(t[j], a.l[i], b.l[j]);
      t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], a.l[i], b.l[j]);
    }
    // The last round clears only the bits of R that the earlier ones left.
    const bool last = i + 1 == L;
    const uint64_t m_mask = last ? (uint64_t(1) << K::last_bits) - 1 : kMask52;
    const __m512i m =
        _mm512_and_si512(_mm512_madd52lo_epu64(_mm512_setzero_si512(), t[0], inv), _mm512_set1_epi64((long long)m_mask));
    for (size_t j = 0; j < L; ++j) {
      const __m512i pj = _mm512_set1_epi64((long long)K::p[j]);
      t[j] = _mm512_madd52lo_epu64(t[j], m, pj);
      t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], m, pj);
    }
    if (!last) {  // t[0] is now 0 mod 2^52: drop it, keeping its carry
      t[1] = _mm512_add_epi64(t[1], _mm512_srli_epi64(t[0], 52));
      for (size_t j = 0; j < L; ++j) t[j] = t[j + 1];
      t[L] = _mm512_setzero_si512();
    }
  }
  // Normalize, then shift right by last_bits (t is 0 mod 2^last_bits).
  for (size_t j = 0; j < L; ++j) {
    t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_srli_epi64(t[j], 52));
    t[j] = _mm512_and_si512(t[j], mask52());
  }
  Vec<P> r;
  for (size_t j = 0; j < L; ++j)
    r.l[j] = _mm512_and_si512(
        _mm512_or_si512(shr(t[j], K::last_bits), shl(t[j + 1], 52 - K::last_bits)), mask52());
  if constexpr (!K::lazy) subtract_if_not_less(r.l, K::p);  // < 2p before
  return r;
}

// a + b and a - b for a, b below the bound: below it again.
template <class P>
CUZK_IFMA Vec<P> add(const Vec<P>& a, const Vec<P>& b) {
  using K = Consts<P>;
  Vec<P> r;
  for (size_t j = 0; j < K::L; ++j) r.l[j] = _mm512_add_epi64(a.l[j], b.l[j]);
  carry_signed(r.l);
  subtract_if_not_less(r.l, K::bound);
  return r;
}
template <class P>
CUZK_IFMA Vec<P> sub(const Vec<P>& a, const Vec<P>& b) {
  using K = Consts<P>;
  Vec<P> r;
  for (size_t j = 0; j < K::L; ++j)
    r.l[j] = _mm512_sub_epi64(_mm512_add_epi64(a.l[j], _mm512_set1_epi64((long long)K::bound[j])), b.l[j]);
  carry_signed(r.l);  // a + bound - b in (0, 2 bound)
  subtract_if_not_less(r.l, K::bound);
  return r;
}

// The lanes whose value is 0 mod p (0 or, unreduced, p).
template <class P>
CUZK_IFMA __mmask8 zero_mask(Vec<P> a) {
  subtract_if_not_less(a.l, Consts<P>::p);
  __m512i any = _mm512_setzero_si512();
  for (const __m512i& x : a.l) any = _mm512_or_si512(any, x);
  return _mm512_cmpeq_epi64_mask(any, _mm512_setzero_si512());
}

// Fp2 = Fp[u]/(u^2 + 1), the tower's first step (tower.hpp), eight at a time:
// an element's c0 and c1 lie one after the other, so one address serves both.
template <class P>
struct Vec2 {
  Vec<P> c0, c1;
};

template <class P>
CUZK_IFMA Vec2<P> load2(const uint64_t* const* src) {
  const uint64_t* hi[8];
  for (int l = 0; l < 8; ++l) hi[l] = src[l] + P::n64;
  return {load<P>(src), load<P>(hi)};
}
template <class P>
CUZK_IFMA void store2(uint64_t* const* dst, const Vec2<P>& a) {
  uint64_t* hi[8];
  for (int l = 0; l < 8; ++l) hi[l] = dst[l] + P::n64;
  store<P>(dst, a.c0);
  store<P>(hi, a.c1);
}
// Karatsuba: three products.
template <class P>
CUZK_IFMA Vec2<P> mul(const Vec2<P>& a, const Vec2<P>& b) {
  const Vec<P> t0 = mul(a.c0, b.c0), t1 = mul(a.c1, b.c1);
  const Vec<P> s = mul(add(a.c0, a.c1), add(b.c0, b.c1));
  return {sub(t0, t1), sub(sub(s, t0), t1)};
}
template <class P>
CUZK_IFMA Vec2<P> add(const Vec2<P>& a, const Vec2<P>& b) {
  return {add(a.c0, b.c0), add(a.c1, b.c1)};
}
template <class P>
CUZK_IFMA Vec2<P> sub(const Vec2<P>& a, const Vec2<P>& b) {
  return {sub(a.c0, b.c0), sub(a.c1, b.c1)};
}
template <class P>
CUZK_IFMA __mmask8 zero_mask(const Vec2<P>& a) {
  return zero_mask(a.c0) & zero_mask(a.c1);
}

// Eight elements of a field in IFMA registers, for the fields that have them
// (prime fields and their quadratic extensions): Lanes<F>::V, load, store.
template <class F>
struct Lanes {};
template <class P>
struct Lanes<Fp<P>> {
  using V = Vec<P>;
  CUZK_IFMA static V load(const uint64_t* const* a) { return mont52x8::load<P>(a); }
  CUZK_IFMA static void store(uint64_t* const* a, const V& v) { mont52x8::store<P>(a, v); }
};
template <class B>
struct Lanes<Fp2<B>> {
  using V = Vec2<typename B::params>;
  CUZK_IFMA static V load(const uint64_t* const* a) { return load2<typename B::params>(a); }
  CUZK_IFMA static void store(uint64_t* const* a, const V& v) { store2<typename B::params>(a, v); }
};

template <class F>
inline constexpr bool kHasLanes = requires { typename Lanes<F>::V; };

// The words of an element (Fp's limbs; Fp2's c0 then c1), as load and store take them.
template <class F>
uint64_t* words(F& f) {
  return reinterpret_cast<uint64_t*>(&f);
}
template <class F>
const uint64_t* words(const F& f) {
  return reinterpret_cast<const uint64_t*>(&f);
}

}  // namespace cuzk::ff::mont52x8

#endif
