// The development key a benchmark proves with (bench prove, bench pipeline),
// made where --setup-on says: on the host (groth16/setup.hpp), or on the GPU
// (groth16/setup_cuda.hpp), whose points then stay there: no host copy and
// nothing written, so that a key larger than the host's memory or disk (2^27
// BLS12-381 constraints: ~80 GB of points) can be made and proved with. Such a
// key proves on that GPU only.
#pragma once

#include <stdexcept>
#include <string>

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
// passes 1). The GPU setup makes keys in snarkjs's convention: auto makes
// bellman's on the host.
inline bool setup_on_gpu(const std::string& setup_on, const Placement& where, size_t gpus_for_auto,
                         groth16::Convention convention = groth16::Convention::snarkjs) {
  const bool cuda = where.backend == Backend::cuda;
  if (setup_on == "gpu" && !cuda) throw std::invalid_argument("--setup-on gpu needs the cuda backend");
  if (setup_on == "host" || !cuda || (setup_on == "auto" && convention != groth16::Convention::snarkjs)) return false;
  return setup_on == "gpu" || where.gpus.size() <= gpus_for_auto;
}

template <class C>
groth16::SharedKey<typename C::Curve> make_dev_key(const C& circuit, bool on_gpu, [[maybe_unused]] int gpu,
                                                   unsigned threads,
                                                   groth16::Convention convention = groth16::Convention::snarkjs) {
  using E = typename C::Curve;
  if (on_gpu && convention != groth16::Convention::snarkjs)
    throw std::invalid_argument("the GPU setup makes keys in snarkjs's convention only: make one in bellman's with "
                                "--setup-on host");
  const auto toxic = groth16::ToxicWaste<E>::draw();
  // The matrices live only as long as the setup: at 2^27 they are tens of GB.
  auto dev = [&] {
    const auto m = circuit::constraint_matrices(circuit);
#if defined(CUZK_HAVE_CUDA)
    if (on_gpu) return groth16::cuda::dev_setup(m, toxic, gpu, threads);
#endif
    if (on_gpu) throw std::logic_error("a GPU setup in a build without CUDA");
    return groth16::dev_setup(m, toxic, threads, convention);
  }();
  return groth16::PreparedKey<E>::make(groth16::share(std::move(dev)));
}

}  // namespace cuzk::cli
