// CUDA runtime plumbing: checked calls, device buffers, streams and events.
// Every runtime call and every launch goes through CUZK_CUDA_CHECK, which turns
// a failure into a cuzk::cuda::Error naming the call, the file and the line.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuzk/util/lease.hpp"

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

// Number of usable devices; 0 when there is no driver or no GPU.
int device_count();

// Logical GPUs, for tests and benchmarks: with n > 0 the process sees n
// GPUs, logical GPU d on CUDA device d mod (CUDA's count), each with streams,
// key cache, kernel lock and fault state of its own in the engine, so that
// what only several GPUs exercise (partitions spread over them, a key
// resident on each, one failing while the others prove) runs on a machine
// with one. 0, the default, is none. Set before any GPU is used (a front end
// does it for CUZK_LOGICAL_GPUS=n: service/environment.hpp); throws
// std::invalid_argument beyond kMaxLogicalGpus.
inline constexpr int kMaxLogicalGpus = 64;
void set_logical_gpus(int n);
// cuzk's device numbers are CUDA's but for logical GPUs: every device number
// cuzk hands to CUDA goes through physical_device.
int physical_device(int device);
// How many of cuzk's device numbers share `device`'s CUDA device (1 unless
// logical GPUs share it).
int devices_sharing(int device);

// Blocks of `threads` for a grid-stride loop over n items on `device`:
// enough to fill its SMs (eight a multiprocessor), no more.
unsigned grid_stride_blocks(size_t n, int device, unsigned threads = 256);

// Whether `device` failed for good: its context answers with a sticky error
// (checked by synchronizing the whole device, so only after a call failed),
// or a fault was injected into it as a logical GPU (fault_injection.hpp).
bool device_failed(int device);
// Whether a fault was injected into logical GPU `device` (an atomic read,
// cheap enough for every proof); set by inject_sticky_fault, cleared by
// reset_device.
bool logical_fault(int device);
void set_logical_fault(int device, bool faulted);

// The GPUs a command may use, from a --gpus value: "all" (or empty) for every
// device, else a comma-separated list of distinct ordinals ("0,2"). Throws
// std::invalid_argument naming the bad entry, or when there is no GPU at all.
std::vector<int> parse_gpus(const std::string& spec);

// The images this build's kernels carry, as nvcc names them: "sm_75 sm_80 ...
// sm_120 compute_120" (CMake's CUDA architectures, cmake/cuda_archs.cmake).
const char* archs_built();

// Throws Error when `device` cannot run this build's kernels: a GPU below
// compute capability 7.5, or one that none of archs_built() fits (support.hpp
// has the rules), or that the driver finds no image for or cannot compile the
// PTX for (asked of a kernel of this library). The message is one line naming
// the GPU, its compute capability and archs_built(). Called before a GPU is
// taken into use, so that such a GPU gets this error and not a failed launch;
// the verdict is kept per CUDA device.
void check_device_supported(int device);

// Makes `device` current for a scope and restores the previous one after.
class DeviceScope {
 public:
  explicit DeviceScope(int device);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = 0;
};

// The device memory this process may use on each GPU (cuzk --gpu-memory,
// [service] gpu_memory, cuzk_options.gpu_memory); 0, the default: what the
// GPU has. Every plan (which keys stay resident, how a proof's buffers are
// laid out, an MSM's chunks) is then made as if the GPU had that much memory
// beside what others hold, and an allocation past it fails as the GPU's own
// would. Process-wide, like the GPU's memory itself.
void set_memory_limit(size_t bytes);
size_t memory_limit();

// Bytes free on the current device right now: what the driver reports, or,
// under a limit, what is left of it after this process's allocations on the
// device, whichever is less.
size_t free_device_memory();

// Bytes this process holds on `device` through DeviceAllocator.
size_t device_memory_used(int device);

// cudaMalloc within the limit (cudaErrorMemoryAllocation past it), and the
// cudaFree that gives its bytes back: DeviceAllocator's two halves.
cudaError_t try_allocate_device(void** p, size_t bytes);
void release_device(void* p);

// An owning array of n T from one allocator (Alloc::allocate/release), freed
// on scope exit; movable, not copyable. DeviceBuffer and PinnedBuffer are its
// two uses.
template <class T, class Alloc>
class OwnedArray {
 public:
  OwnedArray() = default;
  explicit OwnedArray(size_t n) : n_(n) {
    if (n) ptr_ = static_cast<T*>(Alloc::allocate(n * sizeof(T)));
  }
  OwnedArray(OwnedArray&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  OwnedArray& operator=(OwnedArray&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(n_, o.n_);
    return *this;
  }
  OwnedArray(const OwnedArray&) = delete;
  OwnedArray& operator=(const OwnedArray&) = delete;
  ~OwnedArray() {
    if (ptr_) Alloc::release(ptr_);
  }

  T* data() const { return ptr_; }
  size_t size() const { return n_; }
  std::span<T> span() const { return {ptr_, n_}; }

 private:
  T* ptr_ = nullptr;
  size_t n_ = 0;
};

// Plain cudaMalloc (never managed memory) on the current device.
struct DeviceAllocator {
  static constexpr const char* kind = "device";
  static constexpr size_t granule = size_t(2) << 20;  // an arena's rounding
  static cudaError_t try_allocate(void** p, size_t bytes) { return try_allocate_device(p, bytes); }
  static void* allocate(size_t bytes) {
    void* p = nullptr;
    CUZK_CUDA_CHECK(try_allocate(&p, bytes));
    return p;
  }
  static void release(void* p) { release_device(p); }
};

// Page-locked host memory: the only kind of host buffer that crosses PCIe at
// full speed and lets a copy overlap kernels. It is mapped by this process
// and locked with cudaHostRegister rather than taken from cudaHostAlloc,
// whose memory belongs to a device's context and is freed by a reset of that
// device (reset_device, after a fault) under every buffer still pointing into
// it; mapped memory outlives a reset and is locked again after it. Locking is
// slow (about half a second per GiB), so such buffers are made once and reused.
cudaError_t try_allocate_pinned(void** p, size_t bytes);
void release_pinned(void* p);

struct PinnedAllocator {
  static constexpr const char* kind = "pinned host";
  static constexpr size_t granule = size_t(4) << 10;
  static cudaError_t try_allocate(void** p, size_t bytes) { return try_allocate_pinned(p, bytes); }
  static void* allocate(size_t bytes) {
    void* p = nullptr;
    CUZK_CUDA_CHECK(try_allocate(&p, bytes));
    return p;
  }
  static void release(void* p) { release_pinned(p); }
};

// Brings a device back after a sticky error (an illegal address, an ECC
// error): destroys its context with cudaDeviceReset, which frees every
// allocation, stream and event this process had on it, so the caller must
// have destroyed its own first, and makes a new one; then locks again the
// host memory the reset unlocked (pinned buffers and HostRegistrations), in
// another device's context where this one has none. Throws Error when the
// device does not come back: after an illegal address, on the H200 with
// driver 580, the reset succeeds and the device stays unavailable to the
// process (cudaErrorDevicesUnavailable) until it exits. A logical GPU's reset
// is its CUDA device's, which ends the state of every logical GPU on it: the
// caller drops theirs too (engine::recover_gpu); it clears an injected fault.
void reset_device(int device);

template <class T>
using PinnedBuffer = OwnedArray<T, PinnedAllocator>;

// Device memory with checked copies to and from host spans.
template <class T>
class DeviceBuffer : public OwnedArray<T, DeviceAllocator> {
 public:
  using OwnedArray<T, DeviceAllocator>::OwnedArray;

  void upload(std::span<const T> host, cudaStream_t s = nullptr) {
    check_size(host.size());
    CUZK_CUDA_CHECK(cudaMemcpyAsync(this->data(), host.data(), host.size_bytes(), cudaMemcpyHostToDevice, s));
  }
  void download(std::span<T> host, cudaStream_t s = nullptr) const {
    check_size(host.size());
    CUZK_CUDA_CHECK(cudaMemcpyAsync(host.data(), this->data(), host.size_bytes(), cudaMemcpyDeviceToHost, s));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
  }

 private:
  void check_size(size_t n) const {
    if (n > this->size())
      throw Error("device buffer of " + std::to_string(this->size()) + " elements cannot take " + std::to_string(n));
  }
};

// Host memory that something else owns (a proving key's points in a vector),
// page-locked in place for as long as this lives, so that it streams to the
// GPU by DMA at PCIe speed instead of through the driver's bounce buffers.
// Registrations are counted per range across the process: the same key
// streamed to several GPUs is locked once and unlocked when the last of them
// lets go. A range that overlaps another registration (two arrays sharing a
// page) is used as the other left it.
class HostRegistration {
 public:
  HostRegistration() = default;
  HostRegistration(const void* p, size_t bytes);
  HostRegistration(HostRegistration&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  HostRegistration& operator=(HostRegistration&& o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~HostRegistration();

 private:
  const void* p_ = nullptr;  // the counted range's start; null when none is held
};

// Memory reused across proofs, from one allocator. cudaMalloc and cudaFree
// synchronise the whole device, and page-locking is slow, so a prover that
// allocated per proof would stall the other worker's kernels; an arena keeps
// released blocks and hands them out again (the smallest free block that is
// large enough, and never one more than twice the request: handing a 16 GiB
// block to a 2 MiB request would starve the next large one). A device arena
// serves one stream: a block given back while work on that stream may still
// use it can be handed to the next work on the same stream, which runs after
// it. Device blocks live on the device that is current at take(). Thread-safe.
template <class Alloc>
class BasicArena {
 public:
  // A block on loan; returns to the arena when destroyed.
  using Block = Lease<BasicArena>;

  struct Counters {
    size_t allocations = 0, reuses = 0, bytes_held = 0;
  };

  BasicArena() {
    std::lock_guard lock(registry_mu());
    registry().push_back(this);
  }
  BasicArena(const BasicArena&) = delete;
  BasicArena& operator=(const BasicArena&) = delete;
  ~BasicArena() {
    {
      std::lock_guard lock(registry_mu());
      std::erase(registry(), this);
    }
    trim();
  }

  // A block of at least `bytes` (rounded up to the allocator's granule, so
  // that similar requests share blocks). Throws cuda::Error when memory is
  // short even after the arena's free blocks have been returned.
  Block take(size_t bytes) {
    bytes = std::max(Alloc::granule, (bytes + Alloc::granule - 1) / Alloc::granule * Alloc::granule);
    {
      std::lock_guard lock(mu_);
      auto it = free_.lower_bound(bytes);
      if (it != free_.end() && it->first <= 2 * bytes) {
        Block b(this, it->second, it->first);
        free_.erase(it);
        ++counters_.reuses;
        return b;
      }
    }
    void* p = nullptr;
    cudaError_t err = Alloc::try_allocate(&p, bytes);
    // Free blocks of other sizes may be what is in the way: this arena's
    // first, then those every other arena of the kind keeps (another
    // worker's, on a GPU whose memory one proof at a time fills).
    const auto again_after = [&](auto&& give_back) {
      if (err != cudaErrorMemoryAllocation) return;
      cudaGetLastError();
      give_back();
      err = Alloc::try_allocate(&p, bytes);
    };
    again_after([&] { trim(); });
    again_after([&] { trim_all(current_device()); });
    if (err != cudaSuccess) {
      cudaGetLastError();
      throw Error(std::string(Alloc::kind) + " memory: cannot allocate " + std::to_string(bytes >> 20) + " MiB (" +
                  cudaGetErrorString(err) + ")");
    }
    std::lock_guard lock(mu_);
    ++counters_.allocations;
    counters_.bytes_held += bytes;
    if (device_ < 0) device_ = current_device();
    return Block(this, p, bytes);
  }

  // Returns every free block to the allocator (blocks on loan stay valid).
  void trim() {
    std::lock_guard lock(mu_);
    for (auto& [bytes, p] : free_) {
      Alloc::release(p);
      counters_.bytes_held -= bytes;
    }
    free_.clear();
  }

  // Every arena of this kind whose blocks live on `device` returns its free
  // blocks (trim, for each), called with that device current, so that each
  // free waits for that device's work (a block given back while kernels
  // queued before may still read it). Pinned host arenas serve every
  // device: all of them.
  static void trim_all(int device) {
    std::lock_guard lock(registry_mu());
    for (BasicArena* a : registry())
      if (!std::is_same_v<Alloc, DeviceAllocator> || a->device_ == device) a->trim();
  }

  Counters counters() const {
    std::lock_guard lock(mu_);
    return counters_;
  }

  // Bytes of the blocks kept free for reuse: memory a plan may count on, as
  // take() returns them to the allocator when it needs the room.
  size_t free_bytes() const {
    std::lock_guard lock(mu_);
    size_t total = 0;
    for (const auto& [bytes, p] : free_) total += bytes;
    return total;
  }

 private:
  friend class Lease<BasicArena>;
  static std::mutex& registry_mu() {
    static std::mutex mu;
    return mu;
  }
  static std::vector<BasicArena*>& registry() {
    static std::vector<BasicArena*> arenas;
    return arenas;
  }
  void give_back(void* p, size_t bytes) {
    std::lock_guard lock(mu_);
    free_.emplace(bytes, p);
  }
  static int current_device() {
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) cudaGetLastError();
    return device;
  }
  mutable std::mutex mu_;
  std::multimap<size_t, void*> free_;  // size -> block
  Counters counters_;
  std::atomic<int> device_{-1};  // where its blocks live (a device arena), from its first allocation
};

using Arena = BasicArena<DeviceAllocator>;
using HostArena = BasicArena<PinnedAllocator>;

class Stream {
 public:
  Stream() { CUZK_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  // A stream on `device` (the current device is left as it was).
  explicit Stream(int device) {
    DeviceScope on(device);
    CUZK_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking));
  }
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
  explicit Event(unsigned flags) { CUZK_CUDA_CHECK(cudaEventCreateWithFlags(&e_, flags)); }
  ~Event() { cudaEventDestroy(e_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record(cudaStream_t s) { CUZK_CUDA_CHECK(cudaEventRecord(e_, s)); }
  void sync() const { CUZK_CUDA_CHECK(cudaEventSynchronize(e_)); }
  // Makes stream `s` wait for this event (no host synchronisation).
  void wait_in(cudaStream_t s) const { CUZK_CUDA_CHECK(cudaStreamWaitEvent(s, e_, 0)); }
  operator cudaEvent_t() const { return e_; }
  // Milliseconds from `start` to this event; both must have completed.
  float ms_since(const Event& start) const {
    float ms = 0;
    CUZK_CUDA_CHECK(cudaEventElapsedTime(&ms, start.e_, e_));
    return ms;
  }

 private:
  cudaEvent_t e_{};
};

// Whether every byte of host [p, p + bytes) is page-locked (cudaHostAlloc'd
// or registered), so that a copy from it goes by DMA at PCIe speed without a
// staging copy. Asks the driver for the first and the last byte: a range
// whose ends are locked and whose middle is not (two separate locks side by
// side with a hole between) is not a layout any allocator makes.
bool page_locked(const void* p, size_t bytes);

// Copies to the current device from host memory at PCIe speed whether or not
// it is page-locked: straight from page-locked memory, else through a few
// small page-locked blocks, each filled on every core while the others are on
// their way (a plain cudaMemcpy of pageable memory goes at a fraction of that,
// on one core). For a key's points (a file mapping or a vector) on a stream
// of its own, and for a proof's inputs on its worker's copy stream, where a
// vector of any size turns the ring as often as it needs. Its waits for a
// block spin: a block's copy takes ~150 us, and a sleeping wait's wake-up
// (0.06-0.45 ms median, InFlight's below) would leave the copy engine idle.
class StagedUpload {
 public:
  StagedUpload() : own_(std::in_place), stream_(*own_) {}
  // The copies go on `stream`, in order with the other work on it.
  explicit StagedUpload(cudaStream_t stream) : stream_(stream) {}
  // Waits for the copies out of its blocks still on their way.
  ~StagedUpload() {
    for (unsigned i = 0; i < kBlocks; ++i)
      if (in_use_[i]) cudaEventSynchronize(sent_[i]);
  }
  StagedUpload(const StagedUpload&) = delete;
  StagedUpload& operator=(const StagedUpload&) = delete;

  // Enqueues device dst <- host src. Returns once src has been read, with the
  // last blocks possibly still on their way; from page-locked memory, once the
  // copy is enqueued (src is then read until the stream reaches it).
  void copy(void* dst, const void* src, size_t bytes);
  // Blocks until every copy on the stream so far has arrived.
  void finish() const { CUZK_CUDA_CHECK(cudaStreamSynchronize(stream_)); }
  cudaStream_t stream() const { return stream_; }
  // Seconds copy() has waited for a block to come free: the share of its
  // time that the copy engine, not the host's filling, set.
  double ring_waited() const { return ring_waited_; }
  // Bytes of each block: a copy larger than kBlocks of them turns the ring.
  // A block's DMA (~150 us at PCIe 5's ~55 GB/s) is some 20 times a copy's
  // launch cost, and four let the host fill one while three are on their
  // way; the ring holds 32 MiB whatever the size of what goes through it.
  static constexpr size_t kBlock = size_t(8) << 20, kBlocks = 4;

 private:
  std::optional<Stream> own_;
  cudaStream_t stream_;
  PinnedBuffer<uint8_t> block_[kBlocks];
  Event sent_[kBlocks]{Event(cudaEventDisableTiming), Event(cudaEventDisableTiming), Event(cudaEventDisableTiming),
                       Event(cudaEventDisableTiming)};
  bool in_use_[kBlocks] = {};
  unsigned next_ = 0;
  double ring_waited_ = 0;
};

// Work enqueued on a stream that may still use what its owner holds (pinned
// results, arena blocks, the caller's host buffers). Destroyed unwaited, it
// waits for that work, so that the owner's members are let go of only after
// it: declare it after them. Until finish() has marked the work's end (when
// enqueuing failed half-way) it waits for the whole stream.
// Its waits sleep (cudaEventBlockingSync): the work is an MSM or a whole proof,
// milliseconds to seconds, and a thread spinning on it (what the driver does by
// default with fewer contexts than cores) burns a host core for as long as the
// GPU works, per waiting worker: the host's cores are what synthesis and the
// caller need. Waking costs 0.06-0.45 ms (median; up to 0.8 ms) on the device
// machine against 7-50 us spinning (cuzk_bench_wait, H100, 2026-12-07): once
// per proof or MSM, not once per kernel.
class InFlight {
 public:
  explicit InFlight(cudaStream_t stream, unsigned end_flags = cudaEventDisableTiming)
      : stream_(stream), end_(end_flags | cudaEventBlockingSync) {}
  ~InFlight() {
    if (waited_) return;
    if (finished_) cudaEventSynchronize(end_);
    else cudaStreamSynchronize(stream_);
  }
  InFlight(const InFlight&) = delete;
  InFlight& operator=(const InFlight&) = delete;

  // Marks the end of the work: what the stream holds so far.
  void finish() {
    end_.record(stream_);
    finished_ = true;
  }
  // Blocks until the work is done; the destructor then returns at once.
  void wait() {
    if (finished_) end_.sync();
    else CUZK_CUDA_CHECK(cudaStreamSynchronize(stream_));
    waited_ = true;
  }
  bool waited() const { return waited_; }
  // Recorded by finish(): for other streams to wait on, and for timing when
  // end_flags allow it.
  const Event& end() const { return end_; }

 private:
  cudaStream_t stream_;
  Event end_;
  bool finished_ = false, waited_ = false;
};

}  // namespace cuzk::cuda
