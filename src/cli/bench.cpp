// cuzk bench prove: a native example circuit, a development key made in
// memory (so any size works without a ceremony), then timed proofs: one row
// per stage, the median over --repeat runs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "cuzk/circuit/matrices.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/util/timing.hpp"

namespace cuzk::cli {

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

template <class C>
nlohmann::ordered_json bench_circuit(const C& circuit, const BenchOptions& o) {
  using E = typename C::Curve;
  using Fr = typename E::Fr;
  const unsigned threads = o.run.threads ? o.run.threads : std::max(1u, std::thread::hardware_concurrency());

  const auto t0 = std::chrono::steady_clock::now();
  const auto matrices = circuit::constraint_matrices(circuit);
  const auto dev = groth16::dev_setup(matrices, groth16::ToxicWaste<E>::draw(), o.run.threads);
  const groth16::PreparedKey<E> key(dev.key);
  const double setup_s = seconds_since(t0);

  const auto shape = circuit::shape_of(circuit);
  const size_t rows = key.key().domain_size();
  std::vector<Fr> w(shape.n_vars), a(rows), b(rows), c(rows);
  std::map<std::string, std::vector<double>> stages;
  for (int rep = 0; rep < o.repeat; ++rep) {
    const auto start = std::chrono::steady_clock::now();
    stages["synthesis"].push_back(timed([&] {
      circuit::synthesize_witness(circuit, std::span<Fr>(w), std::span<Fr>(a), std::span<Fr>(b), std::span<Fr>(c));
    }));
    groth16::StartTimes t;
    const auto pending = groth16::prove_start(key, std::span<const Fr>(w), std::span<Fr>(a), std::span<Fr>(b),
                                              std::span<Fr>(c), o.run.threads, &t);
    stages["finish+verify"].push_back(timed([&] { groth16::prove_finish(key, pending); }));
    stages["ntt (h)"].push_back(t.ntt);
    stages["msm A (G1)"].push_back(t.msm_a);
    stages["msm B1 (G1)"].push_back(t.msm_b1);
    stages["msm B2 (G2)"].push_back(t.msm_b2);
    stages["msm C (G1)"].push_back(t.msm_c);
    stages["msm H (G1)"].push_back(t.msm_h);
    stages["total"].push_back(seconds_since(start));
  }
  const size_t bits = std::count_if(w.begin(), w.end(), [](const Fr& x) { return x.is_zero() || x.is_one(); });

  nlohmann::ordered_json j;
  j["curve"] = ec::curve_name(E::id);
  j["circuit"] = o.native.name;
  j["constraints"] = shape.n_constraints;
  j["domain"] = rows;
  j["signals"] = shape.n_vars;
  j["witness_0_or_1"] = (double)bits / w.size();
  j["backend"] = "cpu";
  j["threads"] = threads;
  j["repeat"] = o.repeat;
  j["setup_s"] = setup_s;
  static const char* const order[] = {"synthesis", "ntt (h)", "msm A (G1)", "msm B1 (G1)", "msm B2 (G2)",
                                      "msm C (G1)", "msm H (G1)", "finish+verify", "total"};
  for (const char* s : order) j["stages_ms"][s] = 1e3 * median(stages[s]);
  return j;
}

}  // namespace

int bench_prove(const BenchOptions& o) {
  resolve_backend(o.run.backend);
  if (o.repeat < 1) throw std::invalid_argument("--repeat must be at least 1");
  const auto j = visit_native(o.native, [&](const auto& circuit) { return bench_circuit(circuit, o); });
  std::printf("cuzk bench prove: %s, %s circuit, %llu constraints (domain 2^%d), %llu signals (%.0f%% of them 0 or 1)\n",
              j["curve"].get<std::string>().c_str(), o.native.name.c_str(),
              (unsigned long long)j["constraints"].get<uint64_t>(), __builtin_ctzll(j["domain"].get<uint64_t>()),
              (unsigned long long)j["signals"].get<uint64_t>(), 100 * j["witness_0_or_1"].get<double>());
  std::printf("backend cpu, %u threads, median of %d; development setup took %.2f s (not part of a proof)\n",
              j["threads"].get<unsigned>(), o.repeat, j["setup_s"].get<double>());
  std::printf("  %-16s %12s\n", "stage", "ms");
  for (const auto& [stage, ms] : j["stages_ms"].items()) std::printf("  %-16s %12.1f\n", stage.c_str(), ms.get<double>());
  if (!o.json.empty()) io::write_json_file(o.json, j);
  return 0;
}

}  // namespace cuzk::cli
