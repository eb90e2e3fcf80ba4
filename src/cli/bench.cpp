// cuzk bench prove: a native example circuit, a development key made in
// memory (so any size works without a ceremony), then timed proofs, one at a
// time through the backend the service proves with: one row per stage, the
// median over --repeat runs. On cuda the key is uploaded once (reported
// apart, not part of a proof) and w, a, b, c are pinned.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bellperson.hpp"
#include "bench_util.hpp"
#include "commands.hpp"
#include "dev_key.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/engine/backend.hpp"
#include "cuzk/engine/buffer_pool.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/service/service.hpp"
#include "cuzk/util/timing.hpp"

namespace cuzk::cli {

namespace {

// bench prove's label of each stage a backend records, in the order its
// table lists them.
constexpr std::pair<Stage, const char*> kStageLabels[] = {
    {Stage::upload, "upload"},       {Stage::ntt, "ntt (h)"},         {Stage::msm_a, "msm A (G1)"},
    {Stage::msm_b1, "msm B1 (G1)"}, {Stage::msm_b2, "msm B2 (G2)"}, {Stage::msm_c, "msm C (G1)"},
    {Stage::msm_h, "msm H (G1)"}};

// Seconds per stage of job `job`'s spans.
StageTimes job_stages(const engine::Recorder& recorder, uint32_t job) {
  StageTimes t;
  for (const engine::Span& s : recorder.spans())
    if (s.job == job) t[s.stage] += s.end - s.start;
  return t;
}

// Where the backend holds the key, for the table's last line.
template <class E>
std::string key_place(const engine::Backend<E>& backend, const groth16::PreparedKey<E>& key) {
  const auto gpus = backend.gpus_holding(key);
  if (gpus.empty()) return "in host memory";
  return std::string(gpus.front().streamed ? "streamed from host memory" : "resident on the GPU") +
         " (a key budget of " + std::to_string(backend.gpu_reports().front().counters.key_budget_bytes >> 20) +
         " MiB)";
}

// One phase's proofs, each through the backend's one worker as the engine
// proves a partition (service::make_backend; a, b, c from synthesis), then
// prove_finish as its finalizer does. The backend is made for the phase, so
// that the key's place on the GPU is planned with the memory free now. On a
// GPU the one-off costs are reported apart: the pinned buffer's allocation
// (about half a second per GiB) and, in a first proof that is not timed, the
// key's upload; that proof also grows the worker's device scratch.
template <class C>
nlohmann::ordered_json prove_phase(const C& circuit, const groth16::SharedKey<typename C::Curve>& key,
                                   const circuit::Shape& shape, const BenchOptions& o, const Placement& where,
                                   groth16::Convention convention, bool on_gpu, double setup_s) {
  using E = typename C::Curve;
  const bool cuda = where.backend == BackendKind::cuda;
  service::ServiceOptions options;
  options.threads = o.run.threads;
  options.workers_per_gpu = 1;
  options.abc = service::AbcPlace::host;
  const auto backend =
      service::make_backend<E>(cuda ? Placement{where.backend, {where.gpus.front()}} : where, options);
  engine::Recorder recorder(false);
  const size_t bytes = engine::partition_buffer_bytes(*key, false);
  engine::BufferPool pool(backend->host_memory(), bytes);
  std::vector<std::pair<std::string, double>> setup;
  // The buffer every proof reuses.
  const double alloc = timed([&] { pool.acquire(bytes); });
  if (cuda) setup.emplace_back("pinned alloc", alloc);

  // Stage names in the order they first ran, and their times.
  std::vector<std::string> order;
  std::map<std::string, std::vector<double>> stages;
  const auto record = [&](const std::string& stage, double s) {
    if (!stages.count(stage)) order.push_back(stage);
    stages[stage].push_back(s);
  };
  double witness_0_or_1 = 0;
  const bool warm_up = cuda;
  for (int rep = warm_up ? -1 : 0; rep < o.repeat; ++rep) {
    const uint32_t job = uint32_t(rep + 1);
    engine::WorkItem<E> item{key, job, 0, {{}, pool.acquire(bytes), {}}};
    const auto parts = engine::partition_spans(item.host.buffer, *key, false);
    const double synthesis =
        timed([&] { circuit::synthesize_witness(circuit, parts.w, parts.a, parts.b, parts.c); });
    item.host.inputs = groth16::HostInputs<typename E::Fr>::whole(parts.w, parts.a, parts.b, parts.c);
    if (rep == 0)
      witness_0_or_1 = (double)std::count_if(parts.w.begin(), parts.w.end(),
                                             [](const auto& x) { return x.is_zero() || x.is_one(); }) /
                       parts.w.size();
    const auto start = std::chrono::steady_clock::now();
    const auto pending = backend->prove(0, item, recorder);
    const auto finish_start = std::chrono::steady_clock::now();
    groth16::prove_finish(*key, pending);
    const double finish = seconds_since(finish_start), proof = seconds_since(start);
    const StageTimes t = job_stages(recorder, job);
    if (rep < 0) {
      setup.emplace_back(stage_name(Stage::key_upload), t[Stage::key_upload]);
      continue;
    }
    record("synthesis", synthesis);
    for (const auto& [stage, label] : kStageLabels)
      if (stage != Stage::upload || cuda) record(label, t[stage]);
    if (cuda) {
      record("gpu total", kernel_seconds(t));
      // Before the kernels' lock: w's copy (a, b, c go up behind the first
      // kernels) and the engine's host side (the key cache, the memory
      // reservation, the wait's wake-up), which the single-proof latency
      // pays and a pipeline overlaps. The buffer's zeroing as its lease comes
      // back runs on the pool's scrubber thread.
      record("before the lock", proof - finish - t[Stage::lock_wait] - t[Stage::lock_held]);
      record("lock wait", t[Stage::lock_wait]);
      // The GPU's lock held beyond the kernels' events: the wait's wake-up
      // after the last kernel, and the GPU idle before the first.
      record("lock beyond gpu", t[Stage::lock_held] - kernel_seconds(t));
    }
    record("finish+verify", finish);
    record("total", synthesis + proof);
  }

  nlohmann::ordered_json j;
  j["bench"] = "prove";  // what output.hpp knows a report by, so that a rerun may replace it
  j["curve"] = ec::curve_name(E::id);
  j["circuit"] = o.native.name;
  j["convention"] = groth16::convention_name(convention);
  j["constraints"] = shape.n_constraints;
  j["domain"] = key->key().domain_size();
  j["signals"] = shape.n_vars;
  j["witness_0_or_1"] = witness_0_or_1;
  j["backend"] = backend_name(where.backend);
  j["device"] = cuda ? gpu_label(where.gpus.front()) : "cpu";
  j["threads"] = thread_count(o.run.threads);
  j["repeat"] = o.repeat;
  j["warm_up"] = warm_up;
  j["setup_s"] = setup_s;
  j["setup_on"] = on_gpu ? (o.setup_on == "gpu-to-host" ? "gpu-to-host" : "gpu") : "host";
  j["key_place"] = key_place(*backend, *key);
  j["backend_setup_s"] = nlohmann::ordered_json::object();
  for (const auto& [stage, s] : setup) j["backend_setup_s"][stage] = s;
  for (const auto& s : order) j["stages_ms"][s] = 1e3 * median(stages[s]);
  return j;
}

// What the benchmark is, from the first phase's figures.
void print_header(const nlohmann::ordered_json& j, const BenchOptions& o) {
  std::printf("cuzk bench prove: %s, %s circuit (%s's convention), %llu constraints (domain 2^%d), %llu signals (%.0f%% "
              "of them 0 or 1)\n",
              j["curve"].get<std::string>().c_str(), o.native.name.c_str(), j["convention"].get<std::string>().c_str(),
              (unsigned long long)j["constraints"].get<uint64_t>(), __builtin_ctzll(j["domain"].get<uint64_t>()),
              (unsigned long long)j["signals"].get<uint64_t>(), 100 * j["witness_0_or_1"].get<double>());
  const bool cuda = j["backend"] == "cuda";
  std::printf(
      "backend %s%s%s, %u threads, median of %d%s; development setup on the %s took %.2f s (not part of a proof)\n",
      j["backend"].get<std::string>().c_str(), cuda ? " on " : "", cuda ? j["device"].get<std::string>().c_str() : "",
      j["threads"].get<unsigned>(), o.repeat, j["warm_up"].get<bool>() ? " after one warm-up proof" : "",
      j["setup_on"].get<std::string>().c_str(), j["setup_s"].get<double>());
}

// One phase's table, printed as soon as it is done (a later phase may be cut short).
void print_phase(const nlohmann::ordered_json& p, const std::string& command) {
  if (!command.empty()) std::printf("\nafter `%s`:\n", command.c_str());
  for (const auto& [stage, s] : p["backend_setup_s"].items())
    std::printf("%s: %.3f s, once before the proofs (not part of a proof)\n", stage.c_str(), s.get<double>());
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& [stage, ms] : p["stages_ms"].items()) rows.push_back({{"stage", stage}, {"ms", ms}});
  print_table(rows, {{"stage", "stage", 18}, {"ms", "ms", 12}});
  std::printf("(total: wall time per proof, synthesis included%s)\n",
              p["backend"] == "cuda" ? (", with the key " + p["key_place"].get<std::string>()).c_str() : "");
  std::fflush(stdout);
}

template <class C>
nlohmann::ordered_json bench_circuit(const C& circuit, const BenchOptions& o, const Placement& where) {
  const auto t0 = std::chrono::steady_clock::now();
  const groth16::Convention convention =
      parse_format(o.format) == Format::bellperson ? groth16::Convention::bellman : groth16::Convention::snarkjs;
  const bool on_gpu = setup_on_gpu(o.setup_on, where, where.gpus.size());
  // Its proofs take a, b, c from synthesis (prove_phase).
  const auto key = make_dev_key(circuit, on_gpu, on_gpu ? where.gpus.front() : 0, o.run.threads, convention,
                                o.setup_on == "gpu-to-host", false);
  const double setup_s = seconds_since(t0);
  const auto shape = circuit::shape_of(circuit);
  const std::vector<std::string> commands = setup_phases(o.after_setup);
  std::vector<nlohmann::ordered_json> phases;
  for (const std::string& command : commands) {
    run_after_setup(command);
    phases.push_back(prove_phase(circuit, key, shape, o, where, convention, on_gpu, setup_s));
    if (phases.size() == 1) print_header(phases.front(), o);
    print_phase(phases.back(), command);
  }
  return join_phases(commands, std::move(phases));
}

}  // namespace

int bench_prove(const BenchOptions& o) {
  const Placement where = resolve_placement(o.run);
  check_repeat(o.repeat);
  check_json_outputs({o.json});
  const auto j = visit_native(o.native, [&](const auto& circuit) { return bench_circuit(circuit, o, where); });
  write_json_if(o.json, j);
  return 0;
}

}  // namespace cuzk::cli
