// The cuzk command. Every failure ends in one "error: ..." line on stderr and a
// non-zero exit.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <random>
#include <string>

#include "selfcheck.hpp"
#if defined(CUZK_HAVE_CUDA)
#include "cuzk/cuda/runtime.hpp"
#endif

namespace {

enum class Backend { automatic, cpu, cuda };

bool cuda_available() {
#if defined(CUZK_HAVE_CUDA)
  return cuzk::cuda::device_count() > 0;
#else
  return false;
#endif
}

int run_selfcheck(Backend backend, uint64_t seed, size_t device_n) {
  const bool use_cuda = backend == Backend::cuda || (backend == Backend::automatic && cuda_available());
  if (backend == Backend::cuda && !cuda_available()) {
    std::fprintf(stderr, "error: --backend cuda: no CUDA device%s\n",
#if defined(CUZK_HAVE_CUDA)
                 ""
#else
                 " (this build has no CUDA backend)"
#endif
    );
    return 2;
  }
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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cuzk: a Groth16 proving engine for BN254 and BLS12-381 (CPU and CUDA)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "cuzk 0.1.0");

  Backend backend = Backend::automatic;
  const std::map<std::string, Backend> backends{
      {"auto", Backend::automatic}, {"cpu", Backend::cpu}, {"cuda", Backend::cuda}};

  auto* selfcheck = app.add_subcommand("selfcheck", "Check field, curve and pairing arithmetic (and the GPU against the CPU)");
  uint64_t seed = std::random_device{}();
  size_t device_n = 1 << 16;
  selfcheck->add_option("--backend", backend, "auto (CUDA when a GPU is present), cpu or cuda")
      ->transform(CLI::CheckedTransformer(backends, CLI::ignore_case));
  selfcheck->add_option("--seed", seed, "Seed for the random inputs (printed, so a failure can be replayed)");
  selfcheck->add_option("--device-inputs", device_n, "Random inputs per device operation")->check(CLI::Range(1, 1 << 26));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  try {
    if (*selfcheck) return run_selfcheck(backend, seed, device_n);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 2;
}
