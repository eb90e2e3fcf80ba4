// <immintrin.h> (and <cpuid.h>) for the host's AVX-512 IFMA and MULX paths.
//
// GCC 12's AVX-512 headers leave `__Y` of _mm512_undefined_epi32() and its
// kin uninitialized on purpose, and -Wmaybe-uninitialized (-Wuninitialized
// where inlining makes it certain) then fires in every inlined use (GCC bug
// 105593, fixed in 12.3; Debian 12 has 12.2): ~5,300 false warnings a build.
// They are silenced for those headers' lines alone (a diagnostic pragma
// applies by source location, and the intrinsics' bodies lie in the
// headers), so that both warnings still report cuzk's own code.
#pragma once

#if defined(__x86_64__)
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <cpuid.h>
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic pop
#endif
#endif
