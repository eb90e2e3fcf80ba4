// cuzk bench ntt and cuzk bench msm: one kernel at a time on random inputs,
// per size, the median of --repeat runs after one warm-up. On cuda the inputs
// are resident in device memory before timing starts, and each row also shows
// the floor that the H200's measured arithmetic rates allow
// (docs/PERFORMANCE.md, its head), to see how far a kernel is from it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_util.hpp"
#include "commands.hpp"
#include "cuzk/ec/curves.hpp"
#include "cuzk/ec/random_points.hpp"
#include "cuzk/ff/encode.hpp"
#include "cuzk/msm/pippenger_host.hpp"
#include "cuzk/poly/ntt.hpp"
#include "cuzk/util/timing.hpp"
#include "native.hpp"
#if defined(CUZK_HAVE_CUDA)
#include "cuzk/cuda/runtime.hpp"
#include "cuzk/msm/pippenger_cuda.hpp"
#include "cuzk/poly/ntt_cuda.hpp"
#endif

namespace cuzk::cli {

namespace {

// Measured on the H200 device machine (anchors.md §3, "Physical limits on
// H200"): 8-limb (254/255-bit, both curves' Fr) butterflies, a multiply and a
// modular add/sub, at 36.6 G/s.
constexpr double kButterfliesPerSecond = 36.6e9;

// The NTT floor: n/2 · log2(n) butterflies at that rate, in ms.
[[maybe_unused]] double ntt_floor_ms(unsigned log_n) {
  return 1e3 * std::ldexp(1.0, (int)log_n - 1) * log_n / kButterfliesPerSecond;
}

// anchors.md §3, "Multiply ceiling": Montgomery multiplies (4n^2 + n IMADs for
// n 32-bit words) at the H200's IMAD throughput, about 28 G/s for 381-bit Fq
// and 63 G/s for 254-bit.
double fq_multiplies_per_second(size_t limbs64) { return limbs64 <= 4 ? 63e9 : 28e9; }

// The MSM floor (anchors.md §3, "MSM floor"): n × windows × 10 multiplies
// (an XYZZ bucket addition) at the multiply ceiling; G2 costs 3× G1.
[[maybe_unused]] double msm_floor_ms(size_t n, unsigned scalar_bits, unsigned window, size_t fq_limbs, bool g2) {
  const double windows = std::ceil((scalar_bits + 1.0) / window);  // signed digits: one more bit
  return 1e3 * (double)n * windows * 10 * (g2 ? 3 : 1) / fq_multiplies_per_second(fq_limbs);
}

void check_log_sizes(const std::vector<unsigned>& sizes, unsigned max, const char* why) {
  if (sizes.empty()) throw std::invalid_argument("--log-sizes: give at least one size");
  for (unsigned k : sizes)
    if (k < 1 || k > max)
      throw std::invalid_argument("--log-sizes: " + std::to_string(k) + " is out of range (1 to " +
                                  std::to_string(max) + ", " + why + ")");
}

nlohmann::ordered_json header(const char* bench, const KernelBenchOptions& o, const Placement& where) {
  nlohmann::ordered_json j;
  j["bench"] = bench;
  j["curve"] = ec::curve_name(parse_curve(o.curve));
  j["backend"] = backend_name(where.backend);
#if defined(CUZK_HAVE_CUDA)
  if (where.backend == BackendKind::cuda) j["device"] = gpu_label(where.gpus.front());
#endif
  if (where.backend == BackendKind::cpu) j["threads"] = thread_count(o.run.threads);
  j["repeat"] = o.repeat;
  j["rows"] = nlohmann::ordered_json::array();
  return j;
}

void print_backend(const nlohmann::ordered_json& j, const char* gpu_note, const char* cpu_note) {
  if (j["backend"] == "cuda")
    std::printf("backend cuda on %s: %s\n", j["device"].get<std::string>().c_str(), gpu_note);
  else
    std::printf("backend cpu, %u threads: %s\n", j["threads"].get<unsigned>(), cpu_note);
}

// ---- NTT ----

const char* const kTransforms[] = {"ntt", "intt", "coset_ntt"};

template <class Fr>
void host_transform(int t, const poly::Domain<Fr>& d, std::span<Fr> v, unsigned threads) {
  if (t == 0) poly::ntt(d, v, threads);
  else if (t == 1) poly::intt(d, v, threads);
  else poly::coset_ntt(d, v, d.coset_shift(), threads);
}

#if defined(CUZK_HAVE_CUDA)
// The device's, and its forward transform again with a scratch (the bit
// reversal inside the first pass: ntt_cuda.hpp), as "ntt_scratch".
template <class Fr>
void device_transform(int t, const poly::gpu::DeviceDomain<Fr>& d, Fr* v, cudaStream_t s, Fr* scratch) {
  if (t == 0) poly::gpu::ntt(d, v, s);
  else if (t == 1) poly::gpu::intt(d, v, s);
  else if (t == 2) poly::gpu::coset_ntt(d, v, s);
  else poly::gpu::ntt(d, v, s, scratch);
}
#endif

template <class Fr>
void ntt_rows(nlohmann::ordered_json& rows, const KernelBenchOptions& o, [[maybe_unused]] const Placement& where) {
  check_log_sizes(o.log_sizes, poly::Domain<Fr>::max_log_size, "the field's 2-adicity");
  for (unsigned log_n : o.log_sizes) {
    const poly::Domain<Fr> domain(log_n);
    auto values = ff::random_elements<Fr>(domain.size(), o.seed + log_n);
#if defined(CUZK_HAVE_CUDA)
    if (where.backend == BackendKind::cuda) {
      cuda::DeviceScope on(where.gpus.front());
      const poly::gpu::DeviceDomain<Fr> device_domain(domain);
      cuda::DeviceBuffer<Fr> d_values(values.size()), scratch(values.size());
      cuda::Stream stream;
      d_values.upload(values, stream);
      stream.sync();
      cuda::Event start, stop;
      for (int t = 0; t < 4; ++t) {
        const double ms = warm_median(o.repeat, [&] {
          start.record(stream);
          device_transform(t, device_domain, d_values.data(), stream, scratch.data());
          stop.record(stream);
          stop.sync();
          return (double)stop.ms_since(start);
        });
        rows.push_back({{"log_n", log_n},
                        {"transform", t < 3 ? kTransforms[t] : "ntt_scratch"},
                        {"ms", ms},
                        {"floor_ms", ntt_floor_ms(log_n)}});
      }
      continue;
    }
#endif
    // A broken transform must not post a good time: the inverse of the
    // forward transform gives the values back before any is timed.
    const auto original = values;
    host_transform(0, domain, std::span<Fr>(values), o.run.threads);
    host_transform(1, domain, std::span<Fr>(values), o.run.threads);
    if (values != original)
      throw std::runtime_error("bench ntt: intt(ntt(x)) != x at 2^" + std::to_string(log_n) + " on the host");
    for (int t = 0; t < 3; ++t) {
      const double ms = warm_median(o.repeat, [&] {
        return 1e3 * timed([&] { host_transform(t, domain, std::span<Fr>(values), o.run.threads); });
      });
      rows.push_back({{"log_n", log_n}, {"transform", kTransforms[t]}, {"ms", ms}});
    }
  }
}

// ---- MSM ----

// At most this many distinct bases: random points cost a scalar
// multiplication per chunk and an addition per point on the host, too slow
// for 2^26 of them, so larger MSMs repeat these cyclically.
constexpr size_t kDistinctPoints = size_t{1} << 20;

template <class E, class G>
void msm_rows(nlohmann::ordered_json& rows, const char* group, const KernelBenchOptions& o,
              [[maybe_unused]] const Placement& where) {
  using Fr = typename E::Fr;
  const size_t n_max = size_t{1} << *std::max_element(o.log_sizes.begin(), o.log_sizes.end());
  const auto points = ec::random_points<G>(std::min(n_max, kDistinctPoints), ec::generator<G>(), o.seed);
  const auto scalars = ff::random_elements<Fr>(n_max, o.seed + 1);
#if defined(CUZK_HAVE_CUDA)
  if (where.backend == BackendKind::cuda) {
    constexpr bool g2 = std::is_same_v<G, typename E::G2>;
    cuda::DeviceScope on(where.gpus.front());
    cuda::Stream stream;
    cuda::DeviceBuffer<ec::Affine<G>> d_bases(n_max);
    for (size_t off = 0; off < n_max; off += points.size())
      CUZK_CUDA_CHECK(cudaMemcpyAsync(d_bases.data() + off, points.data(),
                                      std::min(points.size(), n_max - off) * sizeof(ec::Affine<G>),
                                      cudaMemcpyHostToDevice, stream));
    cuda::DeviceBuffer<Fr> d_scalars(n_max);
    d_scalars.upload(scalars, stream);
    stream.sync();
    cuda::Arena arena;
    cuda::Event start, stop;
    for (unsigned log_n : o.log_sizes) {
      const size_t n = size_t{1} << log_n;
      std::vector<double> gpu_ms;
      const double ms = warm_median(o.repeat, [&] {
        const auto t0 = std::chrono::steady_clock::now();
        start.record(stream);
        auto m = msm::gpu::Msm<G>::enqueue(d_bases.data(), d_scalars.data(), n, stream, arena);
        stop.record(stream);
        (void)m.wait();
        const double wall = 1e3 * seconds_since(t0);
        gpu_ms.push_back(stop.ms_since(start));
        return wall;
      });
      gpu_ms.erase(gpu_ms.begin());  // the warm-up
      // Random scalars are all significant (neither 0 nor 1), so the MSM's
      // window is the one for all n terms.
      const unsigned window = msm::gpu::window_bits(n);
      rows.push_back({{"group", group},
                      {"log_n", log_n},
                      {"window", window},
                      {"ms", ms},
                      {"gpu_ms", median(gpu_ms)},
                      {"floor_ms", msm_floor_ms(n, Fr::bits, window, E::Fq::N, g2)}});
    }
    return;
  }
#endif
  std::vector<ec::Affine<G>> bases(n_max);
  for (size_t i = 0; i < n_max; ++i) bases[i] = points[i % points.size()];
  for (unsigned log_n : o.log_sizes) {
    const size_t n = size_t{1} << log_n;
    const double ms = warm_median(o.repeat, [&] {
      return 1e3 * timed([&] {
        (void)msm::msm<G>(std::span<const ec::Affine<G>>(bases).first(n), std::span<const Fr>(scalars).first(n),
                          o.run.threads);
      });
    });
    rows.push_back({{"group", group}, {"log_n", log_n}, {"ms", ms}});
  }
}

}  // namespace

int bench_ntt(const KernelBenchOptions& o) {
  const Placement where = resolve_placement(o.run);
  check_repeat(o.repeat);
  check_json_outputs({o.json});
  auto j = header("ntt", o, where);
  ec::visit_curve(parse_curve(o.curve),
                  [&](auto curve) { ntt_rows<typename decltype(curve)::Fr>(j["rows"], o, where); });

  std::printf("cuzk bench ntt: %s Fr, random values, in place, natural order; median of %d after one warm-up\n",
              j["curve"].get<std::string>().c_str(), o.repeat);
  print_backend(j, "values resident in device memory, each call timed by CUDA events around it",
                "poly::ntt, intt and coset_ntt, timed by the steady clock");
  if (j["backend"] == "cuda")
    std::printf("floor: n/2 log2(n) butterflies at 36.6 G/s (H200, 8 limbs, measured: reference/anchors.md 3)\n");
  if (j["backend"] == "cuda")
    print_table(j["rows"], {{"log_n", "log n", 6}, {"transform", "transform", 10}, {"ms", "ms", 10, 3},
                            {"floor_ms", "floor ms", 10, 3}});
  else
    print_table(j["rows"], {{"log_n", "log n", 6}, {"transform", "transform", 10}, {"ms", "ms", 10, 3}});
  write_json_if(o.json, j);
  return 0;
}

int bench_msm(const KernelBenchOptions& o) {
  const Placement where = resolve_placement(o.run);
  check_repeat(o.repeat);
  check_json_outputs({o.json});
  if (o.group != "g1" && o.group != "g2" && o.group != "both")
    throw std::invalid_argument("--group " + o.group + ": the groups are g1, g2 and both");
  check_log_sizes(o.log_sizes, 30, "an MSM takes fewer than 2^31 terms");
  auto j = header("msm", o, where);
  j["distinct_bases"] = std::min<size_t>(size_t{1} << *std::max_element(o.log_sizes.begin(), o.log_sizes.end()),
                                         kDistinctPoints);
  ec::visit_curve(parse_curve(o.curve), [&](auto curve) {
    using E = decltype(curve);
    if (o.group != "g2") msm_rows<E, typename E::G1>(j["rows"], "G1", o, where);
    if (o.group != "g1") msm_rows<E, typename E::G2>(j["rows"], "G2", o, where);
  });

  std::printf("cuzk bench msm: %s, uniformly random scalars; median of %d after one warm-up\n",
              j["curve"].get<std::string>().c_str(), o.repeat);
  std::printf("bases: %zu distinct random points, repeated cyclically up to n (making 2^26 distinct points on the "
              "host is slow)\n",
              j["distinct_bases"].get<size_t>());
  print_backend(j, "bases and scalars resident in device memory; ms: enqueue to wait() returning (steady clock), "
                   "gpu ms: CUDA events around the enqueued work",
                "msm::msm, timed by the steady clock");
  if (j["backend"] == "cuda")
    std::printf("floor: n x ceil((bits+1)/window) windows x 10 multiplies at %.0f G/s (G2: x3; the H200 multiply "
                "ceiling, reference/anchors.md 3)\n",
                fq_multiplies_per_second(parse_curve(o.curve) == ec::Curve::bn254 ? 4 : 6) / 1e9);
  if (j["backend"] == "cuda")
    print_table(j["rows"], {{"group", "group", 5}, {"log_n", "log n", 6}, {"window", "window", 6},
                            {"ms", "ms", 10, 2}, {"gpu_ms", "gpu ms", 10, 2}, {"floor_ms", "floor ms", 10, 2}});
  else
    print_table(j["rows"], {{"group", "group", 5}, {"log_n", "log n", 6}, {"ms", "ms", 10, 2}});
  write_json_if(o.json, j);
  return 0;
}

}  // namespace cuzk::cli
