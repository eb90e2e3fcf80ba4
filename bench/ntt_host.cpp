// Host NTT timings for both curves' Fr: one row per domain size with the best of
// a few runs of the forward, inverse and coset transforms (best, not mean: on a
// shared machine the other runs measure the neighbours).
//   cuzk_bench_ntt_host [--log-min 16] [--log-max 22] [--threads N] [--reps 3]
// Each size is also checked (inverse of forward is the identity) so that a broken
// transform cannot post a good time.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ff/encode.hpp"
#include "cuzk/poly/ntt.hpp"

namespace {

using namespace cuzk;

struct Options {
  unsigned log_min = 16, log_max = 22, threads = 0, reps = 3;
};

[[noreturn]] void usage(const char* msg) {
  std::fprintf(stderr, "error: %s\nusage: cuzk_bench_ntt_host [--log-min K] [--log-max K] [--threads N] [--reps R]\n",
               msg);
  std::exit(2);
}

unsigned parse_uint(const char* flag, const char* s) {
  char* end = nullptr;
  const unsigned long v = std::strtoul(s, &end, 10);
  if (!*s || *end || v > 1000000) usage((std::string("bad value for ") + flag + ": " + s).c_str());
  return (unsigned)v;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") usage("help requested");
    if (i + 1 >= argc) usage(("missing value for " + a).c_str());
    const char* v = argv[++i];
    if (a == "--log-min") o.log_min = parse_uint("--log-min", v);
    else if (a == "--log-max") o.log_max = parse_uint("--log-max", v);
    else if (a == "--threads") o.threads = parse_uint("--threads", v);
    else if (a == "--reps") o.reps = parse_uint("--reps", v);
    else usage(("unknown option " + a).c_str());
  }
  if (o.log_min > o.log_max) usage("--log-min exceeds --log-max");
  if (o.reps == 0) usage("--reps must be at least 1");
  return o;
}

// Best wall time of `reps` runs of fn on a fresh copy of x, in milliseconds.
template <class Fr, class Fn>
double best_ms(const std::vector<Fr>& x, unsigned reps, Fn fn) {
  double best = 1e300;
  std::vector<Fr> v;
  for (unsigned r = 0; r < reps; ++r) {
    v = x;
    const auto t0 = std::chrono::steady_clock::now();
    fn(std::span<Fr>(v));
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return best;
}

template <class Fr>
bool run(const char* name, const Options& o) {
  const unsigned top = std::min(o.log_max, poly::Domain<Fr>::max_log_size);
  std::mt19937_64 rng(42);
  for (unsigned k = o.log_min; k <= top; ++k) {
    const poly::Domain<Fr> d(k);
    std::vector<Fr> x(d.size());
    for (auto& e : x) e = ff::random_element<Fr>(rng);

    auto check = x;
    poly::ntt(d, std::span<Fr>(check), o.threads);
    poly::intt(d, std::span<Fr>(check), o.threads);
    if (check != x) {
      std::fprintf(stderr, "error: %s 2^%u: intt(ntt(x)) != x\n", name, k);
      return false;
    }

    const double fwd = best_ms(x, o.reps, [&](std::span<Fr> v) { poly::ntt(d, v, o.threads); });
    const double inv = best_ms(x, o.reps, [&](std::span<Fr> v) { poly::intt(d, v, o.threads); });
    const double coset =
        best_ms(x, o.reps, [&](std::span<Fr> v) { poly::coset_ntt(d, v, d.coset_shift(), o.threads); });
    std::printf("%-10s 2^%-4u %12.2f %12.2f %12.2f\n", name, k, fwd, inv, coset);
    std::fflush(stdout);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  std::printf("threads: %s, best of %u\n", o.threads ? std::to_string(o.threads).c_str() : "all", o.reps);
  std::printf("%-10s %-6s %12s %12s %12s\n", "field", "size", "forward ms", "inverse ms", "coset ms");
  const bool ok = run<ff::bn254::Fr>("bn254", o) && run<ff::bls12_381::Fr>("bls12_381", o);
  return ok ? 0 : 1;
}
