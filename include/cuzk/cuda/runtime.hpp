// CUDA runtime plumbing: checked calls, device buffers, streams and events.
// Every runtime call and every launch goes through CUZK_CUDA_CHECK, which turns
// a failure into a cuzk::cuda::Error naming the call, the file and the line.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

namespace cuzk::cuda {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_error(cudaError_t err, const char* what, const char* file, int line);

#define CUZK_CUDA_CHECK(call)                                                     \
  do {                                                                            \
    cudaError_t cuzk_err_ = (call);                                               \
    if (cuzk_err_ != cudaSuccess) ::cuzk::cuda::throw_error(cuzk_err_, #call, __FILE__, __LINE__); \
  } while (0)

// After a kernel launch: catches bad configurations at once (the launch itself
// returns nothing); faults inside the kernel surface at the next synchronisation.
#define CUZK_CUDA_CHECK_LAUNCH() CUZK_CUDA_CHECK(cudaGetLastError())

// Number of usable devices; 0 when there is no driver or no GPU (never throws).
int device_count();

// Device memory from plain cudaMalloc (never managed memory), freed on scope exit.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t n) : n_(n) {
    if (n) CUZK_CUDA_CHECK(cudaMalloc(&ptr_, n * sizeof(T)));
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(n_, o.n_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }

  T* data() const { return ptr_; }
  size_t size() const { return n_; }

  void upload(std::span<const T> host, cudaStream_t s = nullptr) {
    check_size(host.size());
    CUZK_CUDA_CHECK(cudaMemcpyAsync(ptr_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice, s));
  }
  void download(std::span<T> host, cudaStream_t s = nullptr) const {
    check_size(host.size());
    CUZK_CUDA_CHECK(cudaMemcpyAsync(host.data(), ptr_, host.size() * sizeof(T), cudaMemcpyDeviceToHost, s));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
  }

 private:
  void check_size(size_t n) const {
    if (n > n_) throw Error("device buffer of " + std::to_string(n_) + " elements cannot take " + std::to_string(n));
  }
  T* ptr_ = nullptr;
  size_t n_ = 0;
};

class Stream {
 public:
  Stream() { CUZK_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(s_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  operator cudaStream_t() const { return s_; }
  void sync() const { CUZK_CUDA_CHECK(cudaStreamSynchronize(s_)); }

 private:
  cudaStream_t s_{};
};

class Event {
 public:
  Event() { CUZK_CUDA_CHECK(cudaEventCreate(&e_)); }
  ~Event() { cudaEventDestroy(e_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record(cudaStream_t s) { CUZK_CUDA_CHECK(cudaEventRecord(e_, s)); }
  void sync() const { CUZK_CUDA_CHECK(cudaEventSynchronize(e_)); }
  // Milliseconds from `start` to this event; both must have completed.
  float ms_since(const Event& start) const {
    float ms = 0;
    CUZK_CUDA_CHECK(cudaEventElapsedTime(&ms, start.e_, e_));
    return ms;
  }

 private:
  cudaEvent_t e_{};
};

}  // namespace cuzk::cuda
