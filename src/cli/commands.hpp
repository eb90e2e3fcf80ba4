// The commands of the cuzk program, one function each, called by main.cpp
// once CLI11 has parsed the options. Each returns the process's exit status;
// errors are thrown and turned into one "error: ..." line by main.cpp:
//   2  an input is missing, unreadable or malformed, or an option is invalid;
//   1  anything else that stops the command (a witness that does not satisfy
//      the key, a failed write).
// `cuzk verify` alone also returns 1 for a proof that is well-formed but
// invalid, as snarkjs does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuzk/service/errors.hpp"
#include "cuzk/service/placement.hpp"
#include "native.hpp"

namespace cuzk::cli {

// The service layer decides the backend and GPUs (service/placement.hpp); the
// commands name them as it does.
using service::BackendKind;
using service::backend_name;
using service::gpu_label;
using service::Placement;
using service::resolve_backend;

// Options every proving command takes.
struct RunOptions {
  BackendKind backend = BackendKind::automatic;
  unsigned threads = 0;      // 0: every hardware thread
  std::string gpus = "all";  // --gpus: "all" or device numbers "0,2" (cuda only)
  size_t gpu_memory = 0;     // --gpu-memory: device bytes per GPU the engine plans with (0: what is free)
};

inline service::PlacementRequest placement_request(const RunOptions& run) {
  return {run.backend, run.gpus, run.gpu_memory};
}
inline Placement resolve_placement(const RunOptions& run) { return service::resolve_placement(placement_request(run)); }

// The exit status of a command that failed, by the kind of what it threw
// (service::classify): 2 for a missing, unreadable or malformed input or a
// wrong option, 1 otherwise.
inline int exit_status(service::ErrorKind kind) {
  return kind == service::ErrorKind::invalid_argument || kind == service::ErrorKind::not_found ? 2 : 1;
}

// cuzk setup <circuit.r1cs> <out.zkey>, or cuzk setup --circuit C --curve K
// --constraints N <out.zkey>: setup.cpp tells the two apart and refuses a mix.
struct SetupOptions {
  std::vector<std::string> files;          // the positional arguments, as given
  NativeCircuit native;
  std::vector<std::string> native_given;   // "--circuit", "--curve", "--constraints" where given
  std::string vk;                          // also write verification_key.json here, when set
  std::string format = "snarkjs";          // --format: snarkjs (a .zkey) or bellperson (a parameter file, BLS12-381)
  bool force = false;                      // replace existing outputs of the same kind
  RunOptions run;
};

struct BenchOptions {
  NativeCircuit native;
  std::string format = "snarkjs";  // the key's convention: snarkjs, or bellperson (bellman's; BLS12-381)
  RunOptions run;
  std::string setup_on = "auto";  // where the development key is made: auto, host, gpu or gpu-to-host (dev_key.hpp)
  std::vector<std::string> after_setup;  // shell commands, each starting a phase of proofs (dev_key.hpp)
  int repeat = 1;
  std::string json;        // also write the figures here, when set
};

// cuzk bench ntt and cuzk bench msm: one kernel on random inputs per size.
struct KernelBenchOptions {
  std::string curve = "bn254";
  std::string group = "g1";        // msm: g1, g2 or both
  std::vector<unsigned> log_sizes;
  RunOptions run;
  int repeat = 5;
  uint64_t seed = 1;
  std::string json;
};

// cuzk prove's options beyond RunOptions.
struct ProveOptions {
  RunOptions run;
  std::string r1cs;    // when set, the witness is checked against this circuit before proving; a
                       // bellperson parameter file needs it, as it holds no constraints
  NativeCircuit native{""};  // --circuit (name empty: none) and --constraints: a parameter file's native circuit
  std::string format = "snarkjs";  // --format: the proof as snarkjs's proof.json or bellperson's 192 bytes
  bool quiet = false;  // no line on success
};

int prove(const std::string& zkey, const std::string& wtns, const std::string& proof, const std::string& pub,
          const ProveOptions& opts);
// cuzk check <circuit.r1cs> <witness.wtns>: exit 0 when the witness satisfies
// every constraint; else an error naming the first one that fails.
int check(const std::string& r1cs, const std::string& wtns);
int verify(const std::string& vk, const std::string& pub, const std::string& proof);
int export_vk(const std::string& key, const std::string& vk);
// cuzk convert-proof <params|vk> <proof> <public.json> --out DIR: a bellperson
// proof as snarkjs's verification_key.json, proof.json and public.json in DIR.
int convert_proof(const std::string& vk, const std::string& proof, const std::string& pub, const std::string& out_dir,
                  bool force);
int info(const std::string& file);
int setup(const SetupOptions& opts);
int witness(const NativeCircuit& native, const std::string& wtns, bool force);
// How prove-batch and bench pipeline run the engine.
struct EngineFlags {
  unsigned synthesis_threads = 2;
  unsigned workers = 1;          // cpu: partitions proved at once
  unsigned workers_per_gpu = 2;  // cuda: workers per GPU
  std::string abc = "auto";      // where a, b, c are computed: auto, host or gpu
  bool pageable = false;         // heap buffers instead of pinned ones, to show what pinning buys
  size_t key_budget_mib = 0;     // cuda: device memory per GPU for resident keys (0: 70% of free)
  size_t host_budget = 0;        // bytes of pooled host buffers (0: sized from the key, engine.hpp)
  std::string trace;             // Chrome trace-event file, when set
};

// cuzk prove-batch: one key, many witnesses, through the engine.
struct BatchOptions {
  std::string out;   // directory for <witness stem>.proof.json and .public.json (created)
  std::string r1cs;  // when set, each witness is checked against this circuit before proving
  bool quiet = false;
  EngineFlags engine;
  RunOptions run;
};

int prove_batch(const std::string& zkey, const std::vector<std::string>& wtns, const BatchOptions& opts);
// cuzk bench pipeline: a native circuit's jobs of partitions through the engine.
struct PipelineBenchOptions {
  NativeCircuit native;
  std::string zkey;  // the key to prove with; empty: a development key of `native`
  std::string setup_on = "auto";  // where that development key is made: auto, host, gpu or gpu-to-host (dev_key.hpp)
  std::vector<std::string> after_setup;  // shell commands, each starting a phase of jobs (dev_key.hpp)
  RunOptions run;
  unsigned partitions = 8, jobs = 2;
  // Partitions of one job run first, untimed and left out of the figures; -1:
  // as many as the pool holds buffers (synthesis threads + 2 per worker), so
  // that the timed jobs find it grown.
  int warmup = -1;
  EngineFlags engine;
  // Also run the same jobs with one worker per GPU and with pageable buffers
  // (cuda), sharing the one development key, and print the three side by side.
  bool compare = false;
  std::string json;
};

int bench_prove(const BenchOptions& opts);
int bench_pipeline(const PipelineBenchOptions& opts);
int bench_ntt(const KernelBenchOptions& opts);
int bench_msm(const KernelBenchOptions& opts);

}  // namespace cuzk::cli
