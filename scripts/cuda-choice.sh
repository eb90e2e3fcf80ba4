# Sourced by scripts/example.sh and scripts/test.sh: one rule for whether the
# README's commands build the CUDA backend, so that neither spends an hour
# compiling kernels a machine cannot run.
#   - a GPU listed by nvidia-smi: the backend, for that machine's GPUs only
#     (CMAKE_CUDA_ARCHITECTURES=native; the packages and a plain cmake build
#     carry every architecture, docs/GPUS.md);
#   - no GPU: none (a 2-core machine took ~27 CPU-minutes for it, and its
#     tests skip without a GPU).
# CUZK_CUDA=ON|OFF|AUTO and CUZK_CUDA_ARCHS (e.g. "86;90") override it.
# Sets the array cuda_cmake_args and cuda_choice, a phrase for the summary.
cuda_cmake_args=()
cuda_choice=""
if [ -n "${CUZK_CUDA:-}" ]; then
  cuda_cmake_args=(-DCUZK_CUDA="$CUZK_CUDA")
  cuda_choice="CUDA backend $CUZK_CUDA (CUZK_CUDA)"
elif nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  cuda_cmake_args=(-DCUZK_CUDA=AUTO)
  cuda_choice="CUDA backend for this machine's GPUs"
else
  cuda_cmake_args=(-DCUZK_CUDA=OFF)
  cuda_choice="CUDA backend not built (no GPU)"
fi
if [ "${cuda_cmake_args[0]}" != -DCUZK_CUDA=OFF ]; then
  if [ -n "${CUZK_CUDA_ARCHS:-}" ]; then
    cuda_cmake_args+=(-DCUZK_CUDA_ARCHS="$CUZK_CUDA_ARCHS" -UCMAKE_CUDA_ARCHITECTURES)
  else
    cuda_cmake_args+=(-DCMAKE_CUDA_ARCHITECTURES=native)
  fi
fi
