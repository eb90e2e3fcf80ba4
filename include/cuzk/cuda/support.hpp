// Which GPUs a build of the CUDA backend can run on: CUDA's rules for the
// images in a fat binary, applied to a GPU's compute capability. Plain C++ (no
// CUDA), so that the rules are tested where there is no GPU; the CUDA layer
// (runtime.hpp: check_device_supported) applies them to a real device.
#pragma once

#include <string>
#include <string_view>

namespace cuzk::cuda {

// The oldest compute capability cuzk runs on (Turing, 7.5): the oldest CUDA 13
// compiles for.
inline constexpr int kMinComputeMajor = 7, kMinComputeMinor = 5;

struct ArchSupport {
  bool runs = false;
  // What the driver loads when it runs: "sm_86" (SASS), or "compute_75 (PTX,
  // compiled by the driver)"; empty when `built` names no image (then only a
  // launch can tell).
  std::string image;
  // When it does not run: one line naming the GPU, its compute capability and
  // the images built, and what to do.
  std::string message;
};

// Whether a GPU named `gpu` of compute capability major.minor can run a build
// that carries the images `built` ("sm_75 sm_80 ... compute_120", separated by
// spaces, commas or semicolons), by CUDA's rules:
//  - SASS sm_XY runs on major X with minor >= Y (sm_XYa: on X.Y alone);
//  - PTX compute_XY is compiled by the driver for any GPU of X.Y or newer
//    (compute_XYa: X.Y alone; compute_XYf: major X, minor >= Y);
//  - below 7.5 nothing runs, whatever the build carries.
// SASS is preferred to PTX, and of each the newest that fits.
ArchSupport arch_support(std::string_view gpu, int major, int minor, std::string_view built);

// The one line for a GPU that cannot run this build, for `why` (what failed).
std::string unsupported_message(std::string_view gpu, int major, int minor, std::string_view built,
                                std::string_view why);

}  // namespace cuzk::cuda
