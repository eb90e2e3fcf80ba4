// cuzk bench pipeline: J jobs of K partitions of a native example circuit
// (each partition a different witness of one development key) through the
// engine, end to end: synthesis, proving, verification. Reports partitions
// per second, proofs (jobs) per hour and the engine's stage summary; --trace
// writes the timeline.
#include <chrono>
#include <cstdio>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "cuzk/circuit/matrices.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/util/timing.hpp"

namespace cuzk::cli {

namespace {

template <class C>
int run_pipeline(const C& circuit, const PipelineBenchOptions& o) {
  using E = typename C::Curve;
  using Fr = typename E::Fr;
  const auto t_setup = std::chrono::steady_clock::now();
  const auto dev = groth16::dev_setup(circuit::constraint_matrices(circuit), groth16::ToxicWaste<E>::draw(), o.run.threads);
  const groth16::PreparedKey<E> key(dev.key);
  const double setup_s = seconds_since(t_setup);

  const size_t budget = engine::host_budget_for(key, o.synthesis_threads, o.workers);
  engine::Recorder recorder;
  size_t failed = 0;
  std::string first_error;
  double wall = 0;
  engine::BufferPool::Counters pool;
  {
    engine::Engine<E> eng({o.synthesis_threads, o.workers, o.run.threads, budget}, recorder);
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::future<std::vector<engine::PartitionResult<E>>>> jobs;
    for (unsigned j = 0; j < o.jobs; ++j) {
      std::vector<engine::Synthesize<E>> parts;
      for (unsigned p = 0; p < o.partitions; ++p) {
        const uint64_t seed = o.native.seed + 1 + (uint64_t)j * o.partitions + p, n = o.native.constraints;
        parts.push_back([seed, n](std::span<Fr> w, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
          circuit::synthesize_witness(C::for_constraints(n, seed), w, a, b, c);
        });
      }
      jobs.push_back(eng.submit(key, std::move(parts)));
    }
    for (auto& job : jobs)
      for (const auto& r : job.get())
        if (!r.proof && failed++ == 0) first_error = r.error;
    wall = seconds_since(start);
    pool = eng.pool_counters();
  }
  if (failed)
    throw std::runtime_error("bench pipeline: " + std::to_string(failed) + " partitions failed; the first: " +
                             first_error);

  const size_t partitions = (size_t)o.jobs * o.partitions;
  const auto spans = recorder.spans();
  const auto summary = engine::summarize(spans);
  std::printf("cuzk bench pipeline: %s, %s circuit, %llu constraints; %u jobs x %u partitions through the CPU engine "
              "(synthesis threads: %u, workers: %u); development setup took %.2f s (not timed)\n",
              ec::curve_name(E::id), o.native.name.c_str(), (unsigned long long)o.native.constraints, o.jobs,
              o.partitions, o.synthesis_threads, o.workers, setup_s);
  std::printf("  %zu partitions proved and verified in %.3f s: %.2f partitions/s, %.1f proofs/hour (a proof = one job)\n",
              partitions, wall, partitions / wall, 3600.0 * o.jobs / wall);
  std::printf("  host buffers: %zu allocations, %zu reuses\n%s", pool.allocations, pool.reuses,
              engine::format_summary(summary).c_str());
  if (!o.trace.empty()) io::write_json_file(o.trace, engine::chrome_trace(spans));
  if (!o.json.empty()) {
    nlohmann::ordered_json j;
    j["curve"] = ec::curve_name(E::id);
    j["circuit"] = o.native.name;
    j["constraints"] = o.native.constraints;
    j["jobs"] = o.jobs;
    j["partitions_per_job"] = o.partitions;
    j["backend"] = "cpu";
    j["synthesis_threads"] = o.synthesis_threads;
    j["workers"] = o.workers;
    j["wall_s"] = wall;
    j["partitions_per_s"] = partitions / wall;
    j["proofs_per_hour"] = 3600.0 * o.jobs / wall;
    j["pool_allocations"] = pool.allocations;
    j["pool_reuses"] = pool.reuses;
    for (const auto& st : summary.stages)
      j["stages_ms"][engine::stage_name(st.stage)] = {{"count", st.count}, {"median", 1e3 * st.median},
                                                      {"p95", 1e3 * st.p95}};
    io::write_json_file(o.json, j);
  }
  return 0;
}

}  // namespace

int bench_pipeline(const PipelineBenchOptions& o) {
  // The engine has CPU workers only so far: auto means the CPU here, and cuda
  // is refused by name rather than run on the CPU.
  if (o.run.backend == Backend::cuda)
    throw std::invalid_argument("bench pipeline: the engine has CPU workers only so far; use --backend cpu");
  if (o.jobs == 0 || o.partitions == 0 || o.workers == 0 || o.synthesis_threads == 0)
    throw std::invalid_argument("bench pipeline: --jobs, --partitions, --workers and --synthesis-threads must be at least 1");
  return visit_native(o.native, [&](const auto& circuit) { return run_pipeline(circuit, o); });
}

}  // namespace cuzk::cli
