// cuzk bench prove: a native example circuit, a development key made in
// memory (so any size works without a ceremony), then timed proofs: one row
// per stage, the median over --repeat runs. On cuda the key is uploaded once
// (reported apart, not part of a proof) and w, a, b, c are pinned.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "bellperson.hpp"
#include "bench_util.hpp"
#include "commands.hpp"
#include "dev_key.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/util/timing.hpp"
#include "provers.hpp"

namespace cuzk::cli {

namespace {

// One phase's proofs: a prover made for it (the key uploaded or locked for
// streaming, as the memory free now allows), a warm-up where the prover has
// one, then the timed proofs.
template <class C>
nlohmann::ordered_json prove_phase(const C& circuit, const groth16::SharedKey<typename C::Curve>& key,
                                   const circuit::Shape& shape, const BenchOptions& o, const Placement& where,
                                   groth16::Convention convention, bool on_gpu, double setup_s) {
  using E = typename C::Curve;
  return with_prover(key, where, o.run.threads, [&](auto& prover) {
    // Stage names in the order they first ran, and their times.
    std::vector<std::string> order;
    std::map<std::string, std::vector<double>> stages;
    const auto record = [&](const std::string& stage, double s) {
      if (!stages.count(stage)) order.push_back(stage);
      stages[stage].push_back(s);
    };
    const bool warm_up = prover.first_proof_is_slower;
    for (int rep = warm_up ? -1 : 0; rep < o.repeat; ++rep) {
      const auto start = std::chrono::steady_clock::now();
      const double synthesis =
          timed([&] { circuit::synthesize_witness(circuit, prover.w(), prover.a(), prover.b(), prover.c()); });
      Timings t;
      prover.prove(t);
      const double total = seconds_since(start);
      if (rep < 0) continue;
      record("synthesis", synthesis);
      for (const auto& [stage, s] : t) record(stage, s);
      record("total", total);
    }
    const auto w = prover.w();
    const size_t bits = std::count_if(w.begin(), w.end(), [](const auto& x) { return x.is_zero() || x.is_one(); });

    nlohmann::ordered_json j;
    j["curve"] = ec::curve_name(E::id);
    j["circuit"] = o.native.name;
    j["convention"] = groth16::convention_name(convention);
    j["constraints"] = shape.n_constraints;
    j["domain"] = key->key().domain_size();
    j["signals"] = shape.n_vars;
    j["witness_0_or_1"] = (double)bits / w.size();
    j["backend"] = backend_name(where.backend);
    j["device"] = prover.device();
    j["threads"] = thread_count(o.run.threads);
    j["repeat"] = o.repeat;
    j["warm_up"] = warm_up;
    j["setup_s"] = setup_s;
    j["setup_on"] = on_gpu ? (o.setup_on == "gpu-to-host" ? "gpu-to-host" : "gpu") : "host";
    j["key_place"] = prover.key_place();
    j["backend_setup_s"] = nlohmann::ordered_json::object();
    for (const auto& [stage, s] : prover.setup_times()) j["backend_setup_s"][stage] = s;
    for (const auto& s : order) j["stages_ms"][s] = 1e3 * median(stages[s]);
    return j;
  });
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
  const bool on_gpu = setup_on_gpu(o.setup_on, where, where.gpus.size(), convention);
  const auto key = make_dev_key(circuit, on_gpu, on_gpu ? where.gpus.front() : 0, o.run.threads, convention,
                                o.setup_on == "gpu-to-host");
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
