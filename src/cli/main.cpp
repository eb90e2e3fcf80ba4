// The cuzk command: option parsing and the exit-status contract. Every
// failure ends in one "error: ..." line on stderr and a non-zero exit
// (commands.hpp says which).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <functional>
#include <random>
#include <string>

#include "commands.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/io/binfile.hpp"
#include "selfcheck.hpp"
#if defined(CUZK_HAVE_CUDA)
#include "cuzk/cuda/runtime.hpp"
#endif

namespace {

using cuzk::cli::Backend;

bool cuda_available() {
#if defined(CUZK_HAVE_CUDA)
  return cuzk::cuda::device_count() > 0;
#else
  return false;
#endif
}

int run_selfcheck(Backend backend, uint64_t seed, size_t device_n) {
  const bool use_cuda = backend == Backend::cuda || (backend == Backend::automatic && cuda_available());
  if (backend == Backend::cuda && !cuda_available())
    throw std::invalid_argument(std::string("--backend cuda: no CUDA device") +
#if defined(CUZK_HAVE_CUDA)
                                ""
#else
                                " (this build has no CUDA backend)"
#endif
    );
  std::printf("cuzk selfcheck (seed %llu, backend %s)\n", (unsigned long long)seed, use_cuda ? "cuda" : "cpu");
  int total = 0;
  auto report = [&](const std::string& name, bool ok) {
    ++total;
    std::printf("  %-50s %s\n", name.c_str(), ok ? "ok" : "FAILED");
    std::fflush(stdout);
  };
  int failed = cuzk::selfcheck_host(seed, report);
#if defined(CUZK_HAVE_CUDA)
  if (use_cuda) failed += cuzk::selfcheck_device(seed, device_n, report);
#else
  (void)device_n;
#endif
  std::printf("%d passed, %d failed\n", total - failed, failed);
  return failed ? 1 : 0;
}

void add_backend_option(CLI::App* cmd, Backend& backend) {
  static const std::map<std::string, Backend> backends{
      {"auto", Backend::automatic}, {"cpu", Backend::cpu}, {"cuda", Backend::cuda}};
  cmd->add_option("--backend", backend, "auto (CUDA when a GPU is present), cpu or cuda")
      ->transform(CLI::CheckedTransformer(backends, CLI::ignore_case));
}

// --backend and --threads, on every command that proves.
void add_run_options(CLI::App* cmd, cuzk::cli::RunOptions& opts) {
  add_backend_option(cmd, opts.backend);
  cmd->add_option("--threads", opts.threads, "CPU threads (0: all)")->check(CLI::Range(0u, 4096u));
}

}  // namespace

int main(int argc, char** argv) {
  namespace cli = cuzk::cli;
  CLI::App app{
      "cuzk: a Groth16 prover for BN254 and BLS12-381, compatible with snarkjs and rapidsnark files.\n"
      "Exit status: 0 success; 1 the proof is invalid (verify) or the work failed; 2 an input is\n"
      "missing, unreadable or malformed, or an option is wrong."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "cuzk 0.1.0");
  std::function<int()> run;

  cli::RunOptions opts;
  std::string zkey, wtns, proof, pub, vk, file;

  auto* prove = app.add_subcommand("prove", "Prove: cuzk prove <circuit.zkey> <witness.wtns> <proof.json> <public.json>");
  prove->add_option("zkey", zkey, "snarkjs Groth16 proving key")->required();
  prove->add_option("wtns", wtns, "witness (.wtns) for that key")->required();
  prove->add_option("proof", proof, "where to write proof.json")->required();
  prove->add_option("public", pub, "where to write public.json")->required();
  add_run_options(prove, opts);
  prove->callback([&] { run = [&] { return cli::prove(zkey, wtns, proof, pub, opts); }; });

  auto* verify = app.add_subcommand(
      "verify", "Verify: cuzk verify <verification_key.json> <public.json> <proof.json>; prints OK (exit 0), "
                "exit 1 for an invalid proof, 2 for unreadable input");
  verify->add_option("vk", vk, "verification_key.json")->required();
  verify->add_option("public", pub, "public.json")->required();
  verify->add_option("proof", proof, "proof.json")->required();
  verify->callback([&] { run = [&] { return cli::verify(vk, pub, proof); }; });

  auto* export_vk = app.add_subcommand("export-vk", "Write a zkey's verification_key.json (as snarkjs zkey export verificationkey)");
  export_vk->add_option("zkey", zkey, "snarkjs Groth16 proving key")->required();
  export_vk->add_option("vk", vk, "where to write verification_key.json")->required();
  export_vk->callback([&] { run = [&] { return cli::export_vk(zkey, vk); }; });

  auto* info = app.add_subcommand("info", "Describe a .zkey, .wtns, .r1cs, proof.json, public.json or vk.json (validating it)");
  info->add_option("file", file, "the file")->required();
  info->callback([&] { run = [&] { return cli::info(file); }; });

  auto* selfcheck = app.add_subcommand("selfcheck", "Check field, curve and pairing arithmetic (and the GPU against the CPU)");
  uint64_t seed = std::random_device{}();
  size_t device_n = 1 << 16;
  add_backend_option(selfcheck, opts.backend);
  selfcheck->add_option("--seed", seed, "Seed for the random inputs (printed, so a failure can be replayed)");
  selfcheck->add_option("--device-inputs", device_n, "Random inputs per device operation")->check(CLI::Range(1, 1 << 26));
  selfcheck->callback([&] { run = [&] { return run_selfcheck(opts.backend, seed, device_n); }; });

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  try {
    return run();
  } catch (const cuzk::io::FormatError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
