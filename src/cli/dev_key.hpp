// The development key a benchmark proves with (bench prove, bench pipeline),
// made where --setup-on says: on the host (groth16/setup.hpp), or on the GPU
// (groth16/setup_cuda.hpp), whose points then stay there: no host copy and
// nothing written, so that a key larger than the host's memory or disk (2^27
// BLS12-381 constraints: ~80 GB of points) can be made and proved with. Such a
// key proves on that GPU only. gpu-to-host makes the points on the GPU and
// brings them to the host, freeing the GPU: a 2^27 key in minutes instead of
// the host setup's tens, for proofs that stream it.
#pragma once

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "cuzk/circuit/matrices.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#if defined(CUZK_HAVE_CUDA)
#include "cuzk/groth16/setup_cuda.hpp"
#endif

namespace cuzk::cli {

// Whether the key is made on the GPU: --setup-on gpu (cuda only), or auto
// with the cuda backend on `gpus_for_auto` GPUs or fewer (bench prove uses the
// first GPU and passes any count; bench pipeline spreads over its GPUs and
// passes 1).
inline bool setup_on_gpu(const std::string& setup_on, const Placement& where, size_t gpus_for_auto) {
  const bool cuda = where.backend == BackendKind::cuda, named_gpu = setup_on == "gpu" || setup_on == "gpu-to-host";
  if (named_gpu && !cuda) throw std::invalid_argument("--setup-on " + setup_on + " needs the cuda backend");
  if (setup_on == "host" || !cuda) return false;
  return named_gpu || where.gpus.size() <= gpus_for_auto;
}

// --after-setup: a shell command run once the key is made and before the
// first proof (e.g. one that starts a process holding most of the GPU's
// memory, so that the proofs plan within what it leaves free); a failure
// stops the benchmark. Given several times, each starts a phase of its own:
// the command, then the benchmark's proofs again with the same key, each
// phase's prover or engine made and freed in it, so that one setup serves
// several conditions (16 GiB free, then 24, then all).
inline void run_after_setup(const std::string& command) {
  if (command.empty()) return;
  const int status = std::system(command.c_str());
  if (status != 0)
    throw std::runtime_error("--after-setup: '" + command + "' " +
                             (status > 0 && WIFEXITED(status) ? "exited with status " +
                                                                    std::to_string(WEXITSTATUS(status))
                                                              : std::string("did not run to its end")));
}

// The phases' commands: one phase with none when --after-setup is not given.
inline std::vector<std::string> setup_phases(const std::vector<std::string>& after_setup) {
  return after_setup.empty() ? std::vector<std::string>{""} : after_setup;
}

// A benchmark's figures over its phases: the one phase's as they are, else
// the first's at the top level (as with one) and every phase's under "phases",
// each with its command.
inline nlohmann::ordered_json join_phases(const std::vector<std::string>& commands,
                                          std::vector<nlohmann::ordered_json> phases) {
  if (phases.size() == 1) return phases.front();
  for (size_t i = 0; i < phases.size(); ++i) phases[i]["after_setup"] = commands[i];
  nlohmann::ordered_json j = phases.front();
  j["phases"] = phases;
  return j;
}

// with_circuit: the key keeps its circuit's coefficients, as a zkey does, for
// proofs whose a, b, c are computed from them (on the GPU: --abc gpu). Without,
// it holds what a bellperson parameter file does, its points alone, for
// proofs whose synthesis gives a, b, c: at 2^27 the coefficients and their
// sorted rows are 35 GB of host memory that such proofs never read.
template <class C>
groth16::SharedKey<typename C::Curve> make_dev_key(const C& circuit, bool on_gpu, [[maybe_unused]] int gpu,
                                                   unsigned threads, groth16::Convention convention,
                                                   [[maybe_unused]] bool to_host, bool with_circuit) {
  using E = typename C::Curve;
  const auto toxic = groth16::ToxicWaste<E>::draw();
  // The matrices live only as long as the setup: at 2^27 they are tens of GB,
  // gone (and the coefficients too, where unused) before the points come to
  // the host.
  auto dev = [&] {
    const auto m = circuit::constraint_matrices(circuit);
#if defined(CUZK_HAVE_CUDA)
    if (on_gpu) return groth16::gpu::dev_setup(m, toxic, gpu, threads, convention);
#endif
    if (on_gpu) throw std::logic_error("a GPU setup in a build without CUDA");
    return groth16::dev_setup(m, toxic, threads, convention);
  }();
  if (!with_circuit) groth16::CoefList<E>{}.swap(dev.key.coefs);
#if defined(CUZK_HAVE_CUDA)
  if (on_gpu && to_host) groth16::gpu::bring_to_host(dev);
#endif
  return groth16::PreparedKey<E>::make(groth16::share(std::move(dev)));
}

}  // namespace cuzk::cli
