// Build-wide macros: one source serves host and device code.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define CUZK_HD __host__ __device__
#define CUZK_HD_INLINE __host__ __device__ __forceinline__
#else
#define CUZK_HD
#define CUZK_HD_INLINE inline __attribute__((always_inline))
#endif

// Loop unrolling hint for the device pass; the host compiler unrolls on its own
// (and would warn about nvcc's pragma).
#if defined(__CUDA_ARCH__)
#define CUZK_UNROLL _Pragma("unroll")
#else
#define CUZK_UNROLL
#endif

// True while compiling the device side of a .cu file.
#if defined(__CUDA_ARCH__)
#define CUZK_DEVICE_PASS 1
#else
#define CUZK_DEVICE_PASS 0
#endif
