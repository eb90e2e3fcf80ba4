// cuzk bench pipeline: J jobs of K partitions of a native example circuit
// (each partition a different witness of one key: a development key made
// here, or --zkey's, so that the figures compare with cuzkd proving with that
// file) through the engine, end to end: synthesis, proving, verification. Reports partitions
// per second, proofs (jobs) per hour, GPU busy %, H2D GB/s, pool counters and
// the engine's stage summary; --trace writes the timeline. A warm-up job runs
// first on the same engine, untimed and left out of every figure, so that the
// figures are the steady state (key uploaded, pool and arenas grown): one
// job of --warmup partitions, by default as many as the pool holds buffers.
// --compare runs the same jobs again with one worker per GPU and with
// pageable buffers, on the same key, and prints the variants side by side.
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_util.hpp"
#include "commands.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/util/timing.hpp"
#include "dev_key.hpp"
#include "service_setup.hpp"

namespace cuzk::cli {

namespace {

// Puts the benchmark's key into a service, under "bench".
using KeyLoader = std::function<service::KeyInfo(service::Service&)>;

nlohmann::ordered_json run_variant(const KeyLoader& load, const EngineFlags& flags, const PipelineBenchOptions& o,
                                   bool write_trace) {
  const service::ServiceOptions options = service_options(o.run, flags, true);
  service::Service svc(options);
  const Placement& where = svc.placement();
  const bool abc_on_gpu = service::abc_on_gpu(where, options.abc, false);
  const service::KeyInfo key = load(svc);
  const std::string& id = key.id;
  uint64_t seed = o.native.seed;
  const auto submit = [&](unsigned partitions) {
    std::vector<service::PartitionInput> parts;
    for (unsigned p = 0; p < partitions; ++p)
      parts.push_back(service::NativeWitness{o.native.name, o.native.constraints, ++seed});
    return svc.submit(id, std::move(parts));
  };
  size_t failed = 0;
  std::string first_error;
  const auto collect = [&](const std::vector<service::JobId>& jobs) {
    for (const service::JobId id : jobs) {
      const service::JobOutcome job = *svc.await(id);
      for (const auto& r : job.partitions)
        if (!r.ok() && failed++ == 0) first_error = r.error;
    }
  };
  const unsigned warmup =
      o.warmup >= 0 ? (unsigned)o.warmup
                    : flags.synthesis_threads + 2 * (where.backend == BackendKind::cuda
                                                         ? flags.workers_per_gpu * (unsigned)where.gpus.size()
                                                         : flags.workers);
  const uint32_t first_timed_job = warmup ? 1 : 0;
  if (warmup) collect({submit(warmup)});
  const auto warm = svc.status();

  const auto start = std::chrono::steady_clock::now();
  std::vector<service::JobId> jobs;
  for (unsigned j = 0; j < o.jobs; ++j) jobs.push_back(submit(o.partitions));
  collect(jobs);
  const double wall = seconds_since(start);
  const auto pool = svc.status();
  const std::string backend = svc.describe(), memory = memory_name(options, where);
  if (failed)
    throw std::runtime_error("bench pipeline: " + std::to_string(failed) + " partitions failed; the first: " +
                             first_error);

  // The timed jobs' spans only: the warm-up job has the first id.
  std::vector<engine::Span> spans;
  for (const auto& s : svc.spans())
    if (s.job >= first_timed_job) spans.push_back(s);
  const auto summary = engine::summarize(spans);
  const size_t partitions = (size_t)o.jobs * o.partitions;
  std::printf("  [%s; %s; %s buffers; %u synthesis threads; a warm-up of %u partitions]\n", ec::curve_name(key.curve),
              backend.c_str(), memory.c_str(), flags.synthesis_threads, warmup);
  std::printf("  %zu partitions proved and verified in %.3f s: %.3f partitions/s, %.1f proofs/hour "
              "(a proof = one job)\n",
              partitions, wall, partitions / wall, 3600.0 * o.jobs / wall);
  std::printf("  host buffers: %llu allocations in warm-up, %llu after; %llu waits for a free buffer\n%s",
              (unsigned long long)warm.host_pool_allocations,
              (unsigned long long)(pool.host_pool_allocations - warm.host_pool_allocations),
              (unsigned long long)pool.host_pool_waits,
              options.record_spans ? engine::format_summary(summary).c_str()
                                   : "  no spans recorded (CUZK_SPANS=0): no stage summary\n");
  if (write_trace && !flags.trace.empty()) io::write_json_file(flags.trace, engine::chrome_trace(spans));

  // GPU time per partition: each partition's lock-held span covers its kernels.
  double gpu_per_partition = 0;
  for (const auto& st : summary.stages)
    if (st.stage == Stage::lock_held) gpu_per_partition = st.total / (double)st.count;
  nlohmann::ordered_json j;
  j["curve"] = ec::curve_name(key.curve);
  j["backend"] = backend;
  j["memory"] = memory;
  j["workers_per_gpu"] = where.backend == BackendKind::cuda ? flags.workers_per_gpu : 0;
  j["workers"] = where.backend == BackendKind::cuda ? 0 : flags.workers;
  j["synthesis_threads"] = flags.synthesis_threads;
  j["abc"] = abc_on_gpu ? "gpu" : "host";
  j["wall_s"] = wall;
  j["partitions_per_s"] = partitions / wall;
  j["proofs_per_hour"] = 3600.0 * o.jobs / wall;
  j["gpu_busy"] = summary.gpu_busy;
  j["gpu_busy_steady"] = summary.gpu_busy_steady;
  j["upload_gbps"] = summary.upload_gbps;
  j["gpu_s_per_partition"] = gpu_per_partition;
  j["lock_wait_s"] = summary.lock_wait;
  j["warmup_partitions"] = warmup;
  j["pool_allocations_warmup"] = warm.host_pool_allocations;
  j["pool_allocations_after_warmup"] = pool.host_pool_allocations - warm.host_pool_allocations;
  j["pool_waits"] = pool.host_pool_waits;
  for (const auto& st : summary.stages)
    j["stages_ms"][stage_name(st.stage)] = {{"count", st.count}, {"median", 1e3 * st.median},
                                                    {"p95", 1e3 * st.p95}};
  return j;
}

// The jobs with each variant of the engine flags; setup_s: the time the
// development key took (0 with --zkey).
nlohmann::ordered_json run_pipeline(const KeyLoader& load, const PipelineBenchOptions& o, double setup_s) {
  std::vector<EngineFlags> variants{o.engine};
  if (o.compare) {
    EngineFlags one = o.engine, pageable = o.engine;
    one.workers_per_gpu = 1;
    pageable.pageable = !o.engine.pageable;
    variants.push_back(one);
    variants.push_back(pageable);
  }
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (size_t v = 0; v < variants.size(); ++v)
    rows.push_back(run_variant(load, variants[v], o, v == 0));
  if (rows.size() > 1) {
    std::printf("\n  variants side by side:\n");
    print_table(rows, {{"memory", "buffers", 9},
                       {"workers_per_gpu", "workers/GPU", 11},
                       {"partitions_per_s", "partitions/s", 12, 3},
                       {"gpu_busy_steady", "GPU busy", 9, 3},
                       {"upload_gbps", "H2D GB/s", 9, 1},
                       {"gpu_s_per_partition", "GPU s/part", 10, 3},
                       {"pool_allocations_after_warmup", "allocs after warm-up", 20}});
  }
  nlohmann::ordered_json j;
  j["bench"] = "pipeline";  // what output.hpp knows a report by, so that a rerun may replace it
  j["curve"] = rows[0]["curve"];
  if (!o.zkey.empty()) j["zkey"] = o.zkey;
  j["circuit"] = o.native.name;
  j["constraints"] = o.native.constraints;
  j["jobs"] = o.jobs;
  j["partitions_per_job"] = o.partitions;
  j["setup_s"] = setup_s;
  j["variants"] = rows;
  // The first variant's figures at the top level too, as before --compare.
  for (const auto& [k, v] : rows[0].items()) j[k] = v;
  return j;
}

// Each --after-setup phase: its command, then the jobs (dev_key.hpp).
int run_phases(const KeyLoader& load, const PipelineBenchOptions& o, double setup_s) {
  const std::vector<std::string> commands = setup_phases(o.after_setup);
  std::vector<nlohmann::ordered_json> phases;
  for (const std::string& command : commands) {
    run_after_setup(command);
    if (!command.empty()) std::printf("\nafter `%s`:\n", command.c_str());
    phases.push_back(run_pipeline(load, o, setup_s));
    std::fflush(stdout);
  }
  write_json_if(o.json, join_phases(commands, std::move(phases)));
  return 0;
}

}  // namespace

int bench_pipeline(const PipelineBenchOptions& o) {
  if (o.jobs == 0 || o.partitions == 0)
    throw std::invalid_argument("bench pipeline: --jobs and --partitions must be at least 1");
  const Placement where = resolve_placement(o.run);
  if (o.compare && where.backend != BackendKind::cuda)
    throw std::invalid_argument("bench pipeline: --compare needs the cuda backend");
  check_json_outputs({o.json, o.engine.trace});
  if (!o.zkey.empty()) {
    std::printf("cuzk bench pipeline: key %s, %s circuit, %llu constraints; %u jobs x %u partitions\n",
                o.zkey.c_str(), o.native.name.c_str(), (unsigned long long)o.native.constraints, o.jobs,
                o.partitions);
    return run_phases([&](service::Service& svc) { return svc.load_key(o.zkey, "bench"); }, o, 0);
  }
  return visit_native(o.native, [&](const auto& circuit) {
    using E = typename std::decay_t<decltype(circuit)>::Curve;
    const auto t_setup = std::chrono::steady_clock::now();
    // A key budget decides which keys the cache keeps resident and which it
    // streams, from host points: with one, auto makes the key on the host.
    const bool on_gpu = setup_on_gpu(o.setup_on, where, o.engine.key_budget_mib ? 0 : 1);
    // The key keeps its circuit's coefficients only where the engine computes
    // a, b, c from them (--abc gpu); by default synthesis gives them.
    const bool abc_from_key = service::abc_on_gpu(where, service_options(o.run, o.engine, true).abc, true);
    const auto key = make_dev_key(circuit, on_gpu, on_gpu ? where.gpus.front() : 0, o.run.threads,
                                  groth16::Convention::snarkjs, o.setup_on == "gpu-to-host", abc_from_key);
    const double setup_s = seconds_since(t_setup);
    std::printf("cuzk bench pipeline: %s, %s circuit, %llu constraints; %u jobs x %u partitions; development setup "
                "on the %s took %.2f s (not timed)\n",
                ec::curve_name(E::id), o.native.name.c_str(), (unsigned long long)o.native.constraints, o.jobs,
                o.partitions, on_gpu ? o.setup_on == "gpu-to-host" ? "gpu (points then brought to the host)" : "gpu" : "host",
                setup_s);
    return run_phases([&](service::Service& svc) { return svc.add_key("bench", key); }, o, setup_s);
  });
}

}  // namespace cuzk::cli
