// Device arithmetic throughput: field multiplication per field and XYZZ mixed
// addition per group, in operations per second, against the H200 multiply
// ceilings from shared/reference/anchors.md (a Montgomery multiplication needs
// 4n^2 + n IMADs for n 32-bit words; 16.71 T IMAD/s measured, so ~28 G/s at 381
// bits, ~63 G/s at 254).
//
//   cuzk_bench_device [--json FILE]
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/cuda/runtime.hpp"
#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/ff/encode.hpp"

namespace {

using namespace cuzk;

constexpr double kImadPerSecond = 16.71e12;  // measured on the H200, anchors.md §3

// Ilp independent multiplication chains per thread. One chain per thread with
// 128-thread blocks measured best on the H200: extra chains cost registers, and
// registers cost resident warps, which hide the carry-chain latency as well.
// The work of thread i, on host and device alike, so the host can check it.
template <class F, int Ilp, int Iters>
CUZK_HD F mul_chain(const F* data, size_t n, size_t i) {
  F x[Ilp];
  x[0] = data[i];
  for (int c = 1; c < Ilp; ++c) x[c] = x[c - 1] + F::one();
  const F y = data[(i + 1) % n];
  for (int k = 0; k < Iters; ++k)
    for (int c = 0; c < Ilp; ++c) x[c] = x[c] * y;
  F sum = x[0];
  for (int c = 1; c < Ilp; ++c) sum = sum + x[c];
  return sum;
}

template <class F, int Ilp, int Iters>
__global__ void __launch_bounds__(128) mul_chain_kernel(const F* in, F* out, size_t n) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = mul_chain<F, Ilp, Iters>(in, n, i);
}

// Each thread accumulates Iters affine points, gathered from a table that
// stays in L2, into one XYZZ bucket: the inner loop of a Pippenger MSM.
template <class C, int Iters>
CUZK_HD ec::Xyzz<C> madd_chain(const ec::Affine<C>* table, size_t table_size, size_t i) {
  ec::Xyzz<C> acc = ec::Xyzz<C>::from(table[i % table_size]);
  size_t j = i * 2654435761u;
  for (int k = 0; k < Iters; ++k) {
    j = j * 6364136223846793005ull + 1442695040888963407ull;
    acc = acc.add(table[(j >> 20) % table_size]);
  }
  return acc;
}

template <class C, int Iters>
__global__ void __launch_bounds__(128) madd_chain_kernel(const ec::Affine<C>* table, size_t table_size,
                                                         ec::Xyzz<C>* out, size_t n) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = madd_chain<C, Iters>(table, table_size, i);
}

template <class Kernel>
double median_ms(Kernel launch, int reps = 7) {
  launch();  // warm-up: module load, clocks up
  CUZK_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    cuda::Event a, b;
    a.record(nullptr);
    launch();
    b.record(nullptr);
    b.sync();
    ms.push_back(b.ms_since(a));
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

struct Row {
  std::string what;
  double gops, ceiling_gops;
};

template <class F, int Ilp>
Row bench_mul(const char* name, size_t threads) {
  constexpr int iters = 256;
  std::mt19937_64 rng(1);
  std::vector<F> host(threads);
  for (auto& x : host) x = ff::random_element<F>(rng);
  cuda::DeviceBuffer<F> d_in(threads), d_out(threads);
  const unsigned blocks = (unsigned)((threads + 127) / 128);
  d_in.upload(std::span<const F>(host));
  const double ms = median_ms([&] {
    mul_chain_kernel<F, Ilp, iters><<<blocks, 128>>>(d_in.data(), d_out.data(), threads);
    CUZK_CUDA_CHECK_LAUNCH();
  });
  // The figures only count if the kernel computed the right thing: recompute a
  // sample of threads on the host.
  std::vector<F> dev(threads);
  d_out.download(std::span<F>(dev));
  for (size_t i = 0; i < threads; i += threads / 64)
    if (dev[i] != mul_chain<F, Ilp, iters>(host.data(), threads, i))
      throw std::runtime_error(std::string(name) + " mul: device result differs from host");
  const double n32 = 2.0 * F::N;
  const double ops = (double)Ilp * iters * threads;
  return {std::string(name) + " mul, " + std::to_string(Ilp) + " chain(s)/thread", ops / ms / 1e6,
          kImadPerSecond / (4 * n32 * n32 + n32) / 1e9};
}

template <class C>
Row bench_madd(const char* name, const ec::Affine<C>& g, size_t threads) {
  constexpr int iters = 64;
  const size_t table_size = 1 << 14;
  std::vector<ec::Affine<C>> table(table_size);
  std::vector<ec::Jacobian<C>> jac(table_size);
  auto acc = ec::Jacobian<C>::from(g);
  for (auto& j : jac) {
    j = acc;
    acc = acc.dbl().add(g);
  }
  ec::batch_to_affine<C>(jac, table);
  cuda::DeviceBuffer<ec::Affine<C>> d_table(table_size);
  d_table.upload(std::span<const ec::Affine<C>>(table));
  cuda::DeviceBuffer<ec::Xyzz<C>> d_out(threads);
  const double ms = median_ms([&] {
    madd_chain_kernel<C, iters><<<(unsigned)((threads + 127) / 128), 128>>>(d_table.data(), table_size, d_out.data(),
                                                                              threads);
    CUZK_CUDA_CHECK_LAUNCH();
  });
  std::vector<ec::Xyzz<C>> dev(threads);
  d_out.download(std::span<ec::Xyzz<C>>(dev));
  for (size_t i = 0; i < threads; i += threads / 64) {
    const auto acc = madd_chain<C, iters>(table.data(), table_size, i);
    if (std::memcmp(&acc, &dev[i], sizeof acc) != 0)
      throw std::runtime_error(std::string(name) + " madd: device result differs from host");
  }
  return {std::string(name) + " XYZZ madd", (double)iters * threads / ms / 1e6, 0};
}

}  // namespace

int main(int argc, char** argv) {
  const char* json_path = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--json") && i + 1 < argc) {
      json_path = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s [--json FILE]\n", argv[0]);
      return 2;
    }
  }
  try {
    if (cuda::device_count() == 0) {
      std::fprintf(stderr, "error: no CUDA device\n");
      return 1;
    }
    cudaDeviceProp prop{};
    CUZK_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    const size_t threads = (size_t)prop.multiProcessorCount * 2048 * 4;
    std::vector<Row> rows;
    rows.push_back(bench_mul<ff::bn254::Fq, 1>("bn254 Fq", threads));
    rows.push_back(bench_mul<ff::bn254::Fq, 2>("bn254 Fq", threads));
    rows.push_back(bench_mul<ff::bn254::Fr, 1>("bn254 Fr", threads));
    rows.push_back(bench_mul<ff::bn254::Fr, 2>("bn254 Fr", threads));
    rows.push_back(bench_mul<ff::bls12_381::Fq, 1>("bls12_381 Fq", threads));
    rows.push_back(bench_mul<ff::bls12_381::Fq, 2>("bls12_381 Fq", threads));
    rows.push_back(bench_mul<ff::bls12_381::Fr, 1>("bls12_381 Fr", threads));
    rows.push_back(bench_mul<ff::bls12_381::Fr, 2>("bls12_381 Fr", threads));
    rows.push_back(bench_madd<ec::bn254::G1>("bn254 G1", ec::bn254::g1_generator(), threads));
    rows.push_back(bench_madd<ec::bls12_381::G1>("bls12_381 G1", ec::bls12_381::g1_generator(), threads));
    rows.push_back(bench_madd<ec::bn254::G2>("bn254 G2", ec::bn254::g2_generator(), threads / 2));
    rows.push_back(bench_madd<ec::bls12_381::G2>("bls12_381 G2", ec::bls12_381::g2_generator(), threads / 2));

    std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
    std::printf("%-40s %12s %14s %10s\n", "operation", "G op/s", "ceiling G/s", "% ceiling");
    for (const auto& r : rows) {
      if (r.ceiling_gops > 0)
        std::printf("%-40s %12.2f %14.2f %9.1f%%\n", r.what.c_str(), r.gops, r.ceiling_gops,
                    100 * r.gops / r.ceiling_gops);
      else
        std::printf("%-40s %12.2f %14s %10s\n", r.what.c_str(), r.gops, "-", "-");
    }
    if (json_path) {
      FILE* f = std::fopen(json_path, "w");
      if (!f) {
        std::fprintf(stderr, "error: cannot write %s\n", json_path);
        return 1;
      }
      std::fprintf(f, "{\"device\": \"%s\", \"results\": [", prop.name);
      for (size_t i = 0; i < rows.size(); ++i)
        std::fprintf(f, "%s{\"op\": \"%s\", \"gops\": %.4f, \"ceiling_gops\": %.4f}", i ? ", " : "",
                     rows[i].what.c_str(), rows[i].gops, rows[i].ceiling_gops);
      std::fprintf(f, "]}\n");
      std::fclose(f);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
