#include <algorithm>
#include <chrono>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <sstream>

#include <sys/mman.h>

#include "cuzk/cuda/runtime.hpp"
#include "cuzk/cuda/support.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::cuda {

void throw_error(cudaError_t err, const char* what, const char* file, int line) {
  throw Error(std::string("CUDA error ") + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ") in " + what +
              " at " + file + ":" + std::to_string(line));
}

namespace {

std::atomic<int> logical_gpu_count{0};  // set_logical_gpus; 0: none

int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error
    return 0;
  }
  return n;
}

int logical_gpus() { return logical_gpu_count.load(std::memory_order_relaxed); }

std::atomic<bool> logical_faults[kMaxLogicalGpus];

}  // namespace

void set_logical_gpus(int n) {
  if (n < 0 || n > kMaxLogicalGpus)
    throw std::invalid_argument("logical GPUs: " + std::to_string(n) + " is not a number of GPUs from 0 to " +
                                std::to_string(kMaxLogicalGpus));
  logical_gpu_count.store(n, std::memory_order_relaxed);
}

int device_count() {
  const int n = cuda_device_count();
  return n > 0 && logical_gpus() ? logical_gpus() : n;
}

int physical_device(int device) {
  const int n = logical_gpus() ? cuda_device_count() : 0;
  return n > 0 ? device % n : device;
}

unsigned grid_stride_blocks(size_t n, int device, unsigned threads) {
  int sms = 0;
  CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, physical_device(device)));
  return (unsigned)std::max<size_t>(1, std::min<size_t>((n + threads - 1) / threads, (size_t)sms * 8));
}

int devices_sharing(int device) {
  const int logical = logical_gpus(), n = cuda_device_count();
  if (!logical || n == 0) return 1;
  const int d = physical_device(device);
  return logical / n + (d < logical % n ? 1 : 0);
}

bool logical_fault(int device) {
  return device >= 0 && device < kMaxLogicalGpus && logical_faults[device].load(std::memory_order_acquire);
}

void set_logical_fault(int device, bool faulted) {
  if (device >= 0 && device < kMaxLogicalGpus) logical_faults[device].store(faulted, std::memory_order_release);
}

bool device_failed(int device) {
  if (logical_fault(device)) return true;
  int previous = 0;
  if (cudaGetDevice(&previous) != cudaSuccess) cudaGetLastError();
  cudaSetDevice(physical_device(device));
  const bool sticky = cudaDeviceSynchronize() != cudaSuccess;
  cudaGetLastError();
  cudaSetDevice(previous);
  return sticky;
}

std::vector<int> parse_gpus(const std::string& spec) {
  const int count = device_count();
  if (count == 0) throw std::invalid_argument("--gpus: this machine has no CUDA device");
  std::vector<int> out;
  if (spec.empty() || spec == "all") {
    for (int d = 0; d < count; ++d) out.push_back(d);
    return out;
  }
  std::stringstream in(spec);
  for (std::string item; std::getline(in, item, ',');) {
    size_t used = 0;
    int d = -1;
    try {
      d = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || item.empty() || d < 0)
      throw std::invalid_argument("--gpus: '" + item + "' is not a device number");
    if (d >= count)
      throw std::invalid_argument("--gpus: device " + item + " does not exist (this machine has " +
                                  std::to_string(count) + ")");
    if (std::find(out.begin(), out.end(), d) != out.end())
      throw std::invalid_argument("--gpus: device " + item + " is listed twice");
    out.push_back(d);
  }
  return out;
}

const char* archs_built() {
#if defined(CUZK_CUDA_ARCHS_BUILT)
  return CUZK_CUDA_ARCHS_BUILT;
#else
  return "";
#endif
}

namespace {

// Does nothing: the driver finds an image of it for a GPU exactly when it
// finds one of every kernel in the library, all built for the same
// architectures (and from PTX, compiles it as it would the others).
__global__ void probe_kernel() {}

// Why this build cannot run on the CUDA device `physical`, or empty when it
// can. Throws Error when the device cannot be asked.
std::string unsupported_reason(int physical) {
  cudaDeviceProp prop{};
  CUZK_CUDA_CHECK(cudaGetDeviceProperties(&prop, physical));
  const ArchSupport rules = arch_support(prop.name, prop.major, prop.minor, archs_built());
  if (!rules.runs) return rules.message;
  int previous = 0;
  CUZK_CUDA_CHECK(cudaGetDevice(&previous));
  CUZK_CUDA_CHECK(cudaSetDevice(physical));
  cudaFuncAttributes attributes{};
  const cudaError_t err = cudaFuncGetAttributes(&attributes, probe_kernel);
  cudaGetLastError();
  cudaSetDevice(previous);
  const auto why = [&](const std::string& what) {
    return unsupported_message(prop.name, prop.major, prop.minor, archs_built(), what);
  };
  switch (err) {
    case cudaSuccess: return "";
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorInvalidDeviceFunction:
      return why(std::string("the driver finds no kernel image for it (") + cudaGetErrorName(err) + ")");
    case cudaErrorUnsupportedPtxVersion:
    case cudaErrorInvalidPtx:
    case cudaErrorJitCompilerNotFound:
    case cudaErrorJitCompilationDisabled: {
      int driver = 0;
      cudaDriverGetVersion(&driver);
      return why(std::string("the driver (CUDA ") + std::to_string(driver / 1000) + "." +
                 std::to_string(driver % 1000 / 10) + ") cannot compile its PTX (" + cudaGetErrorName(err) +
                 "); install an NVIDIA driver for CUDA " + std::to_string(CUDART_VERSION / 1000) + "." +
                 std::to_string(CUDART_VERSION % 1000 / 10) + " or newer");
    }
    default: throw_error(err, "cudaFuncGetAttributes(probe_kernel)", __FILE__, __LINE__);
  }
}

std::mutex verdicts_mu;
std::map<int, std::string> verdicts;  // CUDA device -> unsupported_reason

}  // namespace

void check_device_supported(int device) {
  const int physical = physical_device(device);
  std::string reason;
  {
    std::lock_guard lock(verdicts_mu);
    auto it = verdicts.find(physical);
    if (it != verdicts.end()) reason = it->second;
    else reason = verdicts.emplace(physical, unsupported_reason(physical)).first->second;
  }
  if (!reason.empty()) throw Error("GPU " + std::to_string(device) + ": " + reason);
}

DeviceScope::DeviceScope(int device) {
  CUZK_CUDA_CHECK(cudaGetDevice(&previous_));
  CUZK_CUDA_CHECK(cudaSetDevice(physical_device(device)));
}

DeviceScope::~DeviceScope() { cudaSetDevice(previous_); }

namespace {

std::atomic<size_t> limit_bytes{0};

// What DeviceAllocator holds: each allocation's device and size, and the sum
// per device, against the limit.
struct DeviceUse {
  std::mutex mu;
  std::map<const void*, std::pair<int, size_t>> blocks;
  std::map<int, size_t> used;
};
DeviceUse& device_use() {
  static DeviceUse u;
  return u;
}

}  // namespace

void set_memory_limit(size_t bytes) { limit_bytes.store(bytes, std::memory_order_relaxed); }
size_t memory_limit() { return limit_bytes.load(std::memory_order_relaxed); }

size_t device_memory_used(int device) {
  DeviceUse& u = device_use();
  std::lock_guard lock(u.mu);
  const auto it = u.used.find(device);
  return it == u.used.end() ? 0 : it->second;
}

size_t free_device_memory() {
  size_t free = 0, total = 0;
  CUZK_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  if (const size_t limit = memory_limit()) {
    int device = 0;
    CUZK_CUDA_CHECK(cudaGetDevice(&device));
    const size_t used = device_memory_used(device);
    free = std::min(free, limit - std::min(limit, used));
  }
  return free;
}

cudaError_t try_allocate_device(void** p, size_t bytes) {
  int device = 0;
  if (const cudaError_t err = cudaGetDevice(&device); err != cudaSuccess) return err;
  DeviceUse& u = device_use();
  const size_t limit = memory_limit();
  {
    // Checked and counted under one lock, so that two threads cannot both
    // pass the limit with their halves.
    std::lock_guard lock(u.mu);
    size_t& used = u.used[device];
    if (limit && used + bytes > limit) return cudaErrorMemoryAllocation;
    used += bytes;
  }
  const cudaError_t err = cudaMalloc(p, bytes);
  std::lock_guard lock(u.mu);
  if (err != cudaSuccess) {
    u.used[device] -= bytes;
    return err;
  }
  u.blocks.emplace(*p, std::pair{device, bytes});
  return cudaSuccess;
}

void release_device(void* p) {
  if (!p) return;
  cudaFree(p);
  DeviceUse& u = device_use();
  std::lock_guard lock(u.mu);
  if (auto it = u.blocks.find(p); it != u.blocks.end()) {
    u.used[it->second.first] -= it->second.second;
    u.blocks.erase(it);
  }
}

namespace {

// Host ranges this process page-locks, by start, so that a device reset
// (which unlocks those its context held) can lock them again.
struct Locked {
  size_t bytes = 0;
  unsigned flags = 0;
  size_t holders = 0;  // HostRegistrations of the range, or 1 for a pinned buffer
};
std::mutex locked_mu;
std::map<const void*, Locked> locked;

}  // namespace

HostRegistration::HostRegistration(const void* p, size_t bytes) {
  if (!p || !bytes) return;
  std::lock_guard lock(locked_mu);
  if (auto it = locked.find(p); it != locked.end()) {
    ++it->second.holders;
    p_ = p;
    return;
  }
  // Read-only: nothing writes a key's points.
  const unsigned flags = cudaHostRegisterPortable | cudaHostRegisterReadOnly;
  const cudaError_t err = cudaHostRegister(const_cast<void*>(p), bytes, flags);
  if (err == cudaErrorHostMemoryAlreadyRegistered) {
    cudaGetLastError();
    return;
  }
  if (err != cudaSuccess) {
    cudaGetLastError();
    throw Error("cannot page-lock " + std::to_string(bytes >> 20) + " MiB of host memory for streaming (" +
                cudaGetErrorString(err) + ")");
  }
  locked.emplace(p, Locked{bytes, flags, 1});
  p_ = p;
}

HostRegistration::~HostRegistration() {
  if (!p_) return;
  std::lock_guard lock(locked_mu);
  auto it = locked.find(p_);
  if (--it->second.holders == 0) {
    if (cudaHostUnregister(const_cast<void*>(p_)) != cudaSuccess) cudaGetLastError();
    locked.erase(it);
  }
}

cudaError_t try_allocate_pinned(void** p, size_t bytes) {
  void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return cudaErrorMemoryAllocation;
  ::madvise(m, bytes, MADV_DONTDUMP);  // witnesses and their products stay out of core dumps
  const cudaError_t err = cudaHostRegister(m, bytes, cudaHostRegisterPortable);
  if (err != cudaSuccess) cudaGetLastError();
  // Out of lockable memory is this call's failure. Any other error is the
  // current device's (a sticky fault): the buffer is handed out unlocked,
  // slower but correct for the healthy devices, and locked when the faulted
  // one is reset (reset_device).
  if (err == cudaErrorMemoryAllocation || err == cudaErrorInvalidValue) {
    ::munmap(m, bytes);
    return err;
  }
  std::lock_guard lock(locked_mu);
  locked.emplace(m, Locked{bytes, cudaHostRegisterPortable, 1});
  *p = m;
  return cudaSuccess;
}

void release_pinned(void* p) {
  if (!p) return;
  size_t bytes;
  {
    std::lock_guard lock(locked_mu);
    auto it = locked.find(p);
    if (it == locked.end()) return;
    bytes = it->second.bytes;
    locked.erase(it);
  }
  if (cudaHostUnregister(p) != cudaSuccess) cudaGetLastError();
  ::munmap(p, bytes);
}

bool page_locked(const void* p, size_t bytes) {
  if (bytes == 0) return true;
  for (const void* at : {p, static_cast<const void*>(static_cast<const uint8_t*>(p) + bytes - 1)}) {
    cudaPointerAttributes a{};
    if (cudaPointerGetAttributes(&a, at) != cudaSuccess) {
      cudaGetLastError();  // drivers before CUDA 11 answer pageable memory with an error
      return false;
    }
    if (a.type != cudaMemoryTypeHost) return false;
  }
  return true;
}

void StagedUpload::copy(void* dst, const void* src, size_t bytes) {
  if (page_locked(src, bytes)) {
    CUZK_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream_));
    return;
  }
  auto* to = static_cast<uint8_t*>(dst);
  const auto* from = static_cast<const uint8_t*>(src);
  for (size_t done = 0; done < bytes;) {
    const size_t n = std::min(kBlock, bytes - done);
    const unsigned i = next_++ % kBlocks;
    if (in_use_[i]) {  // the block's last copy has left it
      const auto waited_from = std::chrono::steady_clock::now();
      sent_[i].sync();
      ring_waited_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - waited_from).count();
    }
    if (block_[i].size() == 0) block_[i] = PinnedBuffer<uint8_t>(kBlock);  // on first use: locking costs
    uint8_t* block = block_[i].data();
    parallel_blocks(n, kBlock / 16, 0, [&](size_t b, size_t e) { std::memcpy(block + b, from + done + b, e - b); });
    CUZK_CUDA_CHECK(cudaMemcpyAsync(to + done, block, n, cudaMemcpyHostToDevice, stream_));
    sent_[i].record(stream_);
    in_use_[i] = true;
    done += n;
  }
}

void reset_device(int device) {
  int previous = 0;
  if (cudaGetDevice(&previous) != cudaSuccess) cudaGetLastError();
  set_logical_fault(device, false);
  const int physical = physical_device(device);
  // cudaSetDevice may report the device's sticky error; it selects it anyway.
  cudaError_t err = cudaSetDevice(physical);
  if (err != cudaErrorInvalidDevice) err = cudaDeviceReset();
  cudaGetLastError();
  std::string failure;
  if (err != cudaSuccess) failure = std::string("cudaDeviceReset failed: ") + cudaGetErrorString(err);
  // A new context, or why there is none: after some faults (an illegal
  // address, on the H200's driver 580) a reset succeeds and the device stays
  // unavailable to this process until it exits.
  else if ((err = cudaFree(nullptr)) != cudaSuccess)
    failure = std::string("after cudaDeviceReset the device is unavailable to this process (") +
              cudaGetErrorName(err) + "); a new process can use it";
  cudaGetLastError();
  // The host memory the reset unlocked is locked again in the first context
  // that takes it: this device's, else another's, so that the other GPUs
  // keep copying from page-locked memory.
  std::vector<int> order{physical};
  for (int d = 0; d < cuda_device_count(); ++d)
    if (d != physical) order.push_back(d);
  {
    std::lock_guard lock(locked_mu);
    for (const auto& [p, l] : locked)
      for (int d : order) {
        if (cudaSetDevice(d) != cudaSuccess) {
          cudaGetLastError();
          continue;
        }
        // Already registered: another device's context held this range.
        err = cudaHostRegister(const_cast<void*>(p), l.bytes, l.flags);
        cudaGetLastError();
        if (err == cudaSuccess || err == cudaErrorHostMemoryAlreadyRegistered) break;
      }
  }
  cudaSetDevice(previous);
  cudaGetLastError();
  if (!failure.empty()) throw Error("GPU " + std::to_string(device) + ": " + failure);
}

}  // namespace cuzk::cuda
