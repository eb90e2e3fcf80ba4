// The cuzk command: option parsing and the exit-status contract. Every
// failure ends in one "error: ..." line on stderr and a non-zero exit: the
// one its kind (service::classify) has in commands.hpp's exit_status.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <functional>
#include <string>

#include "commands.hpp"
#include "parse_errors.hpp"
#if defined(CUZK_HAVE_QUEUE)
#include "queue_commands.hpp"
#endif
#if defined(CUZK_HAVE_DAEMON_CLIENT)
#include "client.hpp"
#endif
#include "cuzk/service/errors.hpp"
#include "cuzk/service/placement.hpp"
#include "cuzk/util/byte_size.hpp"
#include "cuzk/service/environment.hpp"
#include "cuzk/util/env_flag.hpp"
#include "cuzk/util/progress.hpp"
#include "cuzk/service/selfcheck.hpp"

namespace {

using cuzk::service::BackendKind;
using cuzk::cli::one_of;
using cuzk::cli::within;

int run_selfcheck(BackendKind backend, uint64_t seed, size_t device_n) {
  const bool use_cuda = cuzk::cli::resolve_backend(backend) == BackendKind::cuda;
  std::printf("cuzk selfcheck (seed %llu, backend %s)\n", (unsigned long long)seed, use_cuda ? "cuda" : "cpu");
  int total = 0;
  auto report = [&](const std::string& name, bool ok) {
    ++total;
    std::printf("  %-50s %s\n", name.c_str(), ok ? "ok" : "FAILED");
    std::fflush(stdout);
  };
  int failed = cuzk::service::selfcheck_host(seed, report);
#if defined(CUZK_HAVE_CUDA)
  if (use_cuda) failed += cuzk::service::selfcheck_device(seed, device_n, report);
#else
  (void)device_n;
#endif
  std::printf("%d passed, %d failed\n", total - failed, failed);
  return failed ? 1 : 0;
}

void add_backend_option(CLI::App* cmd, BackendKind& backend) {
  static const std::map<std::string, BackendKind> backends{
      {"auto", BackendKind::automatic}, {"cpu", BackendKind::cpu}, {"cuda", BackendKind::cuda}};
  // transform() puts its validator first: one_of refuses an unknown name in
  // cuzk's words before the mapping runs.
  cmd->add_option("--backend", backend, "auto (CUDA when a GPU is present), cpu or cuda")
      ->transform(CLI::Transformer(backends, CLI::ignore_case))
      ->transform(one_of({"auto", "cpu", "cuda"}, true));
}

// --backend and --threads, on every command that computes.
void add_run_options(CLI::App* cmd, cuzk::cli::RunOptions& opts) {
  add_backend_option(cmd, opts.backend);
  cmd->add_option("--threads", opts.threads, "CPU threads (0: all)")->check(within(0u, 4096u));
}

// An option's "16GiB" or "1.5 GB" as bytes (util/byte_size.hpp).
std::function<std::string(std::string)> byte_size(std::string option) {
  return [option](std::string v) {
    try {
      return std::to_string(cuzk::parse_byte_size(v));
    } catch (const std::invalid_argument& e) {
      throw CLI::ValidationError(option, e.what());
    }
  };
}

// ... and --gpus, on every command that proves or benchmarks.
void add_proving_options(CLI::App* cmd, cuzk::cli::RunOptions& opts) {
  add_run_options(cmd, opts);
  cmd->add_option("--gpus", opts.gpus,
                  "With the cuda backend, the GPUs to use: all, or device numbers such as 0,2 (prove-batch and bench "
                  "pipeline spread partitions over all of them; prove and the other benchmarks use the first)")
      ->capture_default_str();
  cmd->add_option("--gpu-memory", opts.gpu_memory,
                  "With the cuda backend, the device memory cuzk may use on each GPU, e.g. 16GiB: keys, buffers and "
                  "chunks are planned as if the GPU had that much (default: what the GPU has free)")
      ->transform(byte_size("--gpu-memory"));
}

// Where bench prove and bench pipeline make their development key, and what
// runs between it and the proofs (dev_key.hpp).
void add_setup_on_option(CLI::App* cmd, std::string& setup_on, std::vector<std::string>& after_setup,
                         const char* auto_means) {
  cmd->add_option("--setup-on", setup_on,
                  std::string("Where the development key's points are made: host; gpu, where they then stay (no "
                              "host copy, nothing written: the key proves on that GPU only); or gpu-to-host, made on "
                              "the GPU and brought to the host, freeing the GPU; auto: ") +
                      auto_means)
      ->check(one_of({"auto", "host", "gpu", "gpu-to-host"}))
      ->capture_default_str();
  cmd->add_option("--after-setup", after_setup,
                  "A shell command run once the key is made, before the first proof; its failure stops the "
                  "benchmark (e.g. start a process that holds most of the GPU's memory, to prove within the rest). "
                  "Given again, each starts a phase: the command, then the same proofs with the same key, "
                  "reported phase by phase")
      ->allow_extra_args(false);
}

// The engine's options, shared by prove-batch and bench pipeline.
void add_engine_options(CLI::App* cmd, cuzk::cli::EngineFlags& e) {
  cmd->add_option("--synthesis-threads", e.synthesis_threads, "Threads preparing partitions (witnesses, a/b/c)")
      ->check(within(1u, 1024u))
      ->capture_default_str();
  cmd->add_option("--workers", e.workers, "With the cpu backend, partitions proved at once")
      ->check(within(1u, 1024u))
      ->capture_default_str();
  cmd->add_option("--workers-per-gpu", e.workers_per_gpu,
                  "With the cuda backend, workers per GPU (one's uploads overlap the other's kernels)")
      ->check(within(1u, 64u))
      ->capture_default_str();
  cmd->add_option("--abc", e.abc,
                  "Where a, b, c are computed: host (during synthesis), gpu (from the key's rows; only the witness "
                  "crosses PCIe), or auto (gpu for zkey jobs on the cuda backend, else host)")
      ->check(one_of({"auto", "host", "gpu"}))
      ->capture_default_str();
  cmd->add_flag("--pageable", e.pageable, "Ordinary heap buffers instead of pinned ones (cuda), to compare");
  cmd->add_option("--key-budget-mib", e.key_budget_mib,
                  "With cuda, device memory per GPU for resident proving keys (0: 70% of what is free); a key that "
                  "does not fit is streamed from page-locked host memory");
  cmd->add_option("--host-budget", e.host_budget,
                  "Bytes of pooled host buffers (witnesses, a/b/c), e.g. 48GiB; partitions wait for a buffer "
                  "beyond it (default: one a synthesis thread and two a worker)")
      ->transform(byte_size("--host-budget"));
  cmd->add_option("--trace", e.trace, "Write a Chrome trace-event timeline (opens in Perfetto)");
}

// --r1cs, on the commands that prove zkeys.
void add_r1cs_option(CLI::App* cmd, std::string& r1cs) {
  cmd->add_option("--r1cs", r1cs,
                  "The circuit's .r1cs: check each witness against it before proving and name the first failing "
                  "constraint (a zkey alone cannot say which constraint a bad witness breaks)");
}

void add_quiet_flag(CLI::App* cmd, bool& quiet) {
  cmd->add_flag("--quiet,-q", quiet, "Print nothing on success, and no progress (errors still go to stderr)");
}

constexpr const char* kWitnessSeedHelp = "Which witness (the circuit's shape, and so its key, do not depend on it)";

constexpr const char* kEnvironment =
    "Environment:\n"
    "  CUZK_TIMING=1    print each stage's time to stderr (\"cuzk timing: ...\" lines)\n"
    "  CUZK_SPANS=0     record no spans (no trace, no stage summary): what recording costs shows\n"
    "  CUZK_PROGRESS=0  no progress bars or progress lines on long steps\n"
    "  CUZK_WAIT_TEARDOWN=1  cuzk prove exits once the GPU's memory is given back, not just after its outputs\n"
    "  CUZK_IFMA=0      the host arithmetic's scalar path where the CPU has AVX-512 IFMA (to compare)\n"
    "  CUZK_LOGICAL_GPUS=N  N logical GPUs on the physical ones (tests and benchmarks)";

}  // namespace

int main(int argc, char** argv) {
  namespace cli = cuzk::cli;
  CLI::App app{
      "cuzk: a Groth16 prover for BN254 and BLS12-381, compatible with snarkjs and rapidsnark files.\n"
      "Exit status: 0 success; 1 the proof is invalid (verify) or the work failed; 2 an input is\n"
      "missing, unreadable or malformed, or an option is wrong."};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("cuzk ") + cuzk::service::kVersion + " (backends: " +
                                        cuzk::service::build_backends() + ")");
  app.footer(kEnvironment);
  std::function<int()> run;

  cli::RunOptions opts;
  std::string zkey, wtns, proof, pub, vk, file;

  cli::ProveOptions prove_opts;
  auto* prove = app.add_subcommand(
      "prove", "Prove: cuzk prove <circuit.zkey> <witness.wtns> <proof.json> <public.json>. The proof is verified "
               "before it is written; on failure neither file exists afterwards (an older one is removed first).\n"
               "  cuzk prove <key.params> <witness.wtns> <proof> <public.json> --r1cs <circuit.r1cs> [--format "
               "bellperson]: with a bellperson parameter file (BLS12-381, bellman's convention), which holds no "
               "constraints, the circuit comes from --r1cs, or from --circuit C --constraints N for a native example");
  prove->add_option("zkey", zkey, "snarkjs Groth16 proving key (.zkey), or a bellperson parameter file with --r1cs")
      ->required();
  prove->add_option("wtns", wtns, "witness (.wtns) for that key")->required();
  prove->add_option("proof", proof, "where to write proof.json")->required();
  prove->add_option("public", pub, "where to write public.json")->required();
  add_r1cs_option(prove, prove_opts.r1cs);
  prove->add_option("--circuit", prove_opts.native.name,
                    "With a bellperson parameter file: the native example it was made for (cuzk setup --circuit C "
                    "--curve bls12_381 --constraints N --format bellperson), instead of --r1cs")
      ->check(one_of(cuzk::service::example_names()));
  prove->add_option("--constraints", prove_opts.native.constraints, "With --circuit: its size, as given to setup")
      ->capture_default_str();
  prove->add_option("--format", prove_opts.format,
                    "snarkjs (proof.json) or bellperson (the proof in bellperson's 192 bytes: A, B, C compressed; "
                    "BLS12-381 only; public.json is written either way)")
      ->check(one_of({"snarkjs", "bellperson"}))
      ->capture_default_str();
  add_quiet_flag(prove, prove_opts.quiet);
  add_proving_options(prove, prove_opts.run);
  prove->callback([&] { run = [&] { return cli::prove(zkey, wtns, proof, pub, prove_opts); }; });

  auto* check = app.add_subcommand(
      "check", "Check a witness against its circuit (as snarkjs wtns check): cuzk check <circuit.r1cs> <witness.wtns>; "
               "prints OK, or names the first constraint that fails (exit 1)");
  check->add_option("r1cs", file, "circom constraint system (.r1cs)")->required();
  check->add_option("wtns", wtns, "witness (.wtns)")->required();
  check->callback([&] { run = [&] { return cli::check(file, wtns); }; });

  std::vector<std::string> batch_wtns;
  cli::BatchOptions batch;
  auto* prove_batch = app.add_subcommand(
      "prove-batch", "Prove many witnesses of one key through the engine: cuzk prove-batch <circuit.zkey> "
                     "<witness.wtns>... --out DIR (writes DIR/<name>.proof.json and .public.json per witness)");
  prove_batch->add_option("zkey", zkey, "snarkjs Groth16 proving key")->required();
  prove_batch->add_option("wtns", batch_wtns, "witnesses (.wtns) for that key")->required();
  prove_batch->add_option("--out", batch.out, "directory for the proofs (created if missing)")->required();
  add_r1cs_option(prove_batch, batch.r1cs);
  add_quiet_flag(prove_batch, batch.quiet);
  add_engine_options(prove_batch, batch.engine);
  add_proving_options(prove_batch, batch.run);
  prove_batch->callback([&] { run = [&] { return cli::prove_batch(zkey, batch_wtns, batch); }; });

  auto* verify = app.add_subcommand(
      "verify", "Verify: cuzk verify <verification_key.json> <public.json> <proof.json>; prints OK (exit 0), "
                "exit 1 for an invalid proof, 2 for unreadable input");
  verify->add_option("vk", vk, "verification_key.json")->required();
  verify->add_option("public", pub, "public.json")->required();
  verify->add_option("proof", proof, "proof.json")->required();
  verify->callback([&] { run = [&] { return cli::verify(vk, pub, proof); }; });

  auto* export_vk = app.add_subcommand(
      "export-vk", "Write a key's verification_key.json (as snarkjs zkey export verificationkey), from a .zkey or a "
                   "bellperson parameter or verifying-key file");
  export_vk->add_option("zkey", zkey, "snarkjs Groth16 proving key, or bellperson parameters or verifying key")
      ->required();
  export_vk->add_option("vk", vk, "where to write verification_key.json")->required();
  export_vk->callback([&] { run = [&] { return cli::export_vk(zkey, vk); }; });

  std::string out_dir;
  bool convert_force = false;
  auto* convert = app.add_subcommand(
      "convert-proof", "Turn a bellperson proof into what snarkjs verifies: cuzk convert-proof <key.params|key.vk> "
                       "<proof> <public.json> --out DIR writes DIR/verification_key.json, proof.json and public.json "
                       "(then: snarkjs groth16 verify DIR/verification_key.json DIR/public.json DIR/proof.json)");
  convert->add_option("key", zkey, "bellperson parameter file or verifying key (.vk)")->required();
  convert->add_option("proof", proof, "the proof in bellperson's 192 bytes")->required();
  convert->add_option("public", pub, "public.json: the proof's public inputs")->required();
  convert->add_option("--out", out_dir, "directory for the three files (created if missing)")->required();
  convert->add_flag("--force", convert_force, "Replace the JSON files there");
  convert->callback([&] { run = [&] { return cli::convert_proof(zkey, proof, pub, out_dir, convert_force); }; });

  auto* info = app.add_subcommand("info",
                                  "Describe a .zkey, .wtns, .r1cs, proof.json, public.json, vk.json, or a bellperson "
                                  "parameter, verifying-key or proof file (validating it)");
  info->add_option("file", file, "the file")->required();
  info->callback([&] { run = [&] { return cli::info(file); }; });

  // The native example circuits, for setup, witness and bench: --circuit,
  // --curve and --constraints, returned so that setup can tell which were given.
  // A benchmark defaults to partition; a file is written only for a circuit named.
  const auto add_native_options = [](CLI::App* cmd, cli::NativeCircuit& n, bool circuit_defaults) {
    auto* circuit =
        cmd->add_option("--circuit", n.name, "Native example: partition (mostly 0/1 witness, like Filecoin) or hash-chain")
            ->check(one_of(cuzk::service::example_names()));
    if (circuit_defaults) circuit->capture_default_str();
    return std::vector<CLI::Option*>{
        circuit,
        cmd->add_option("--curve", n.curve, "bn254 (bn128) or bls12_381 (bls12381)")->capture_default_str(),
        cmd->add_option("--constraints", n.constraints,
                        "Size: at most this many constraints including the public-input rows, so a power of two is "
                        "the domain")
            ->check(within(uint64_t{1} << 10, uint64_t{1} << 28))
            ->capture_default_str()};
  };
  // The witness of a native example (setup takes none: the key depends on the
  // circuit's shape alone, and its toxic waste comes from the OS CSPRNG).
  const auto add_seed_option = [](CLI::App* cmd, cli::NativeCircuit& n, const char* help) {
    cmd->add_option("--seed", n.seed, help)->capture_default_str();
  };
  const auto add_force_option = [](CLI::App* cmd, bool& force) {
    cmd->add_flag("--force", force,
                  "Replace outputs that exist (only files of the kind written: never an .r1cs, .wtns or other input)");
  };

  cli::SetupOptions setup_opts;
  auto* setup = app.add_subcommand(
      "setup",
      "DEVELOPMENT setup, not for production; the key is snarkjs-compatible (or, with --format bellperson, a "
      "bellperson parameter file) and its toxic waste comes from the OS CSPRNG.\n  cuzk setup <circuit.r1cs> "
      "<out.zkey> [--vk vk.json] [--force]\n  cuzk setup --circuit C [--curve K] [--constraints N] <out.zkey> [--vk "
      "vk.json] [--force]\n--circuit, --curve and --constraints describe a native example and conflict with an .r1cs");
  setup->add_option("files", setup_opts.files, "<circuit.r1cs> <out.zkey>, or <out.zkey> with --circuit")
      ->expected(1, 2)
      ->required();
  const auto setup_native = add_native_options(setup, setup_opts.native, false);
  setup->add_option("--vk", setup_opts.vk, "Also write the verification_key.json");
  setup->add_option("--format", setup_opts.format,
                    "snarkjs (a .zkey) or bellperson (a parameter file in bellman's convention, as bellperson's "
                    "generator makes; BLS12-381 only, made on the host)")
      ->check(one_of({"snarkjs", "bellperson"}))
      ->capture_default_str();
  add_force_option(setup, setup_opts.force);
  add_run_options(setup, setup_opts.run);
  setup->callback([&, setup_native] {
    for (const CLI::Option* opt : setup_native)
      if (opt->count()) setup_opts.native_given.push_back(opt->get_name());
    run = [&] { return cli::setup(setup_opts); };
  });

  cli::NativeCircuit witness_circuit;
  bool witness_force = false;
  auto* witness = app.add_subcommand(
      "witness", "Write a native example circuit's witness: cuzk witness --circuit C --curve K --constraints N "
                 "[--seed S] <out.wtns> [--force]");
  add_native_options(witness, witness_circuit, false).front()->required();
  add_seed_option(witness, witness_circuit, kWitnessSeedHelp);
  add_force_option(witness, witness_force);
  witness->add_option("wtns", wtns, "where to write the .wtns")->required();
  witness->callback([&] { run = [&] { return cli::witness(witness_circuit, wtns, witness_force); }; });

  auto* bench = app.add_subcommand("bench", "Benchmarks");
  bench->require_subcommand(1);
  cli::BenchOptions bench_opts;
  auto* bench_prove = bench->add_subcommand(
      "prove", "Time whole proofs of a native example circuit with a development key: a table of stage times");
  add_native_options(bench_prove, bench_opts.native, true);
  add_seed_option(bench_prove, bench_opts.native, kWitnessSeedHelp);
  add_proving_options(bench_prove, bench_opts.run);
  add_setup_on_option(bench_prove, bench_opts.setup_on, bench_opts.after_setup, "gpu with the cuda backend for --format snarkjs, else host");
  bench_prove->add_option("--repeat", bench_opts.repeat, "Proofs to time (the table shows medians)")
      ->check(within(1, 1000));
  bench_prove->add_option("--json", bench_opts.json, "Also write the figures as JSON");
  bench_prove->add_option("--format", bench_opts.format,
                          "The key's convention: snarkjs, or bellperson (bellman's, as a bellperson parameter file "
                          "holds: h in coefficient form, A and B over their dense variables; BLS12-381; the key "
                          "is made on the host)")
      ->check(one_of({"snarkjs", "bellperson"}))
      ->capture_default_str();
  bench_prove->callback([&] { run = [&] { return cli::bench_prove(bench_opts); }; });

  cli::PipelineBenchOptions pipeline_opts;
  auto* bench_pipeline = bench->add_subcommand(
      "pipeline", "Jobs of partitions of a native example circuit through the engine: partitions/s, proofs/hour, "
                  "stage summary");
  add_native_options(bench_pipeline, pipeline_opts.native, true);
  add_seed_option(bench_pipeline, pipeline_opts.native, "Witnesses: the partitions take seeds S+1, S+2, ... in turn");
  bench_pipeline->add_option("--zkey", pipeline_opts.zkey,
                              "Prove with this key (cuzk setup of the same --circuit and --constraints; its curve "
                              "is the key's), loaded as cuzkd loads it, instead of a development key made here");
  add_proving_options(bench_pipeline, pipeline_opts.run);
  add_setup_on_option(bench_pipeline, pipeline_opts.setup_on, pipeline_opts.after_setup,
                      "gpu with the cuda backend on one GPU and no --key-budget-mib, else host");
  bench_pipeline->add_option("--partitions", pipeline_opts.partitions, "Partitions per job")->capture_default_str();
  bench_pipeline->add_option("--jobs", pipeline_opts.jobs, "Jobs")->capture_default_str();
  bench_pipeline->add_option("--warmup", pipeline_opts.warmup,
                              "Partitions of one job run first on the same engine, untimed and left out of the "
                              "figures; -1: as many as the buffer pool holds, so that the timed jobs find it grown")
      ->check(within(-1, 1 << 20))
      ->capture_default_str();
  add_engine_options(bench_pipeline, pipeline_opts.engine);
  bench_pipeline->add_flag("--compare", pipeline_opts.compare,
                           "With cuda, also run 1 worker per GPU and --pageable on the same key, side by side");
  bench_pipeline->add_option("--json", pipeline_opts.json, "Also write the figures as JSON");
  bench_pipeline->callback([&] { run = [&] { return cli::bench_pipeline(pipeline_opts); }; });

  // bench ntt and bench msm: one kernel on random inputs, per size.
  cli::KernelBenchOptions kernel_opts;
  const auto add_kernel_options = [&](CLI::App* cmd, const char* default_sizes) {
    cmd->add_option("--curve", kernel_opts.curve, "bn254 (bn128) or bls12_381 (bls12381)")->capture_default_str();
    cmd->add_option("--log-sizes", kernel_opts.log_sizes, "Sizes as powers of two, comma-separated")
        ->delimiter(',')
        ->default_str(default_sizes);
    add_proving_options(cmd, kernel_opts.run);
    cmd->add_option("--repeat", kernel_opts.repeat, "Timed runs per row after one warm-up (the table shows medians)")
        ->check(within(1, 1000))
        ->capture_default_str();
    cmd->add_option("--seed", kernel_opts.seed, "Seed for the random inputs")->capture_default_str();
    cmd->add_option("--json", kernel_opts.json, "Also write the figures as JSON");
  };
  const auto default_log_sizes = [&](std::vector<unsigned> sizes) {
    if (kernel_opts.log_sizes.empty()) kernel_opts.log_sizes = std::move(sizes);
  };
  auto* bench_ntt = bench->add_subcommand(
      "ntt", "Time the forward, inverse and coset NTTs on random values: cuzk bench ntt [--curve K] [--log-sizes 20,22,24]");
  add_kernel_options(bench_ntt, "20,22,24");
  bench_ntt->callback([&] {
    default_log_sizes({20, 22, 24});
    run = [&] { return cli::bench_ntt(kernel_opts); };
  });
  auto* bench_msm = bench->add_subcommand(
      "msm", "Time MSMs of random points and scalars: cuzk bench msm [--curve K] [--group g1|g2|both] [--log-sizes 20,22,24,26]");
  add_kernel_options(bench_msm, "20,22,24,26");
  bench_msm->add_option("--group", kernel_opts.group, "g1, g2 or both")
      ->check(one_of({"g1", "g2", "both"}))
      ->capture_default_str();
  bench_msm->callback([&] {
    default_log_sizes({20, 22, 24, 26});
    run = [&] { return cli::bench_msm(kernel_opts); };
  });

  auto* selfcheck = app.add_subcommand("selfcheck", "Check field, curve and pairing arithmetic (and the GPU against the CPU)");
  uint64_t seed = cuzk::service::fresh_seed();
  size_t device_n = 1 << 16;
  add_backend_option(selfcheck, opts.backend);
  selfcheck->add_option("--seed", seed, "Seed for the random inputs (printed, so a failure can be replayed)");
  selfcheck->add_option("--device-inputs", device_n, "Random inputs per device operation")->check(within(1, 1 << 26));
  selfcheck->callback([&] { run = [&] { return run_selfcheck(opts.backend, seed, device_n); }; });

#if defined(CUZK_HAVE_QUEUE)
  cli::add_queue_commands(app, run);  // cuzk db
#endif
#if defined(CUZK_HAVE_DAEMON_CLIENT)
  cli::add_client_commands(app, run);  // cuzk client, and --daemon on prove and prove-batch
#endif

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (argc == 1)
      std::fputs(cli::short_usage(app).c_str(), stderr);
    else
      std::fprintf(stderr, "error: %s\n", cli::parse_error_message(app, e).c_str());
    return 2;
  }
  // Long steps draw their progress (CUZK_PROGRESS=0: never), unless --quiet.
  if (!prove_opts.quiet && !batch.quiet && cuzk::env_flag("CUZK_PROGRESS", true)) cuzk::show_progress_on_stderr();
  try {
    cuzk::service::apply_environment_switches();
    return run();
  } catch (...) {
    const std::exception_ptr e = std::current_exception();
    std::fprintf(stderr, "error: %s\n", cuzk::service::message_of(e).c_str());
    return cli::exit_status(cuzk::service::classify(e));
  }
}
