// What a host thread's wait for the GPU costs on this machine: the time from
// the GPU finishing to the waiting thread running again, and the host CPU the
// wait burns, for a spinning wait (cudaEventSynchronize on a plain event, what
// the driver does by default with fewer contexts than cores) and a sleeping one
// (cudaEventBlockingSync, cuda::InFlight's), after kernels of 0.1 to 100 ms,
// with the GPU just used or idle for half a second: the figures behind the
// choice of wait in include/cuzk/cuda/runtime.hpp (docs/PERFORMANCE.md has
// the device machine's, whose driver runs under a sandbox).
//
//   cuzk_bench_wait [REPEATS]
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include <sys/resource.h>

#include "cuzk/cuda/runtime.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// One thread that spins until `ns` of the GPU's global timer have passed.
__global__ void hold_kernel(uint64_t ns) {
  uint64_t t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); while (t - t0 < ns);
}

double thread_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_THREAD, &u);
  return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

struct Figures {
  double over_median_us, over_max_us, cpu_per_wait_ms;
};

// Each of `repeats` rounds: (idle) the GPU left idle for half a second, else
// just done with the last round; then an event, a kernel of `ms`, an event
// with `flags` and the wait for it. Over: the host's launch-to-return time less
// the kernel's time between the events, i.e. the launch and the wake-up.
Figures measure(unsigned flags, double ms, bool idle, int repeats, cudaStream_t s) {
  using namespace cuzk::cuda;
  Event before(cudaEventDefault), after(flags);
  std::vector<double> over;
  double cpu = 0;
  for (int r = 0; r < repeats; ++r) {
    if (idle) std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const auto t0 = Clock::now();
    before.record(s);
    hold_kernel<<<1, 1, 0, s>>>(uint64_t(ms * 1e6));
    CUZK_CUDA_CHECK_LAUNCH();
    after.record(s);
    const double c0 = thread_cpu_seconds();
    after.sync();
    cpu += thread_cpu_seconds() - c0;
    const double wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    over.push_back(1e3 * (wall_ms - after.ms_since(before)));
  }
  std::sort(over.begin(), over.end());
  return {over[over.size() / 2], over.back(), 1e3 * cpu / repeats};
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::max(3, std::atoi(argv[1])) : 9;
  cuzk::cuda::Stream stream;
  hold_kernel<<<1, 1, 0, stream>>>(1000);  // the context and the kernel loaded before any round
  CUZK_CUDA_CHECK_LAUNCH();
  stream.sync();
  std::printf("cuzk_bench_wait: %d rounds each; over = launch to return less the kernel's time\n", repeats);
  std::printf("%-9s %-5s %9s %15s %12s %14s\n", "wait", "gpu", "kernel", "over median us", "over max us",
              "cpu ms a wait");
  for (const bool idle : {false, true})
    for (const double ms : {0.1, 1.0, 10.0, 100.0})
      for (const auto& [name, flags] : {std::pair{"spin", cudaEventDefault},
                                        std::pair{"blocking", cudaEventDefault | cudaEventBlockingSync}}) {
        const Figures f = measure(flags, ms, idle, repeats, stream);
        std::printf("%-9s %-5s %6.1f ms %15.1f %12.1f %14.3f\n", name, idle ? "idle" : "warm", ms, f.over_median_us,
                    f.over_max_us, f.cpu_per_wait_ms);
      }
  return 0;
}
