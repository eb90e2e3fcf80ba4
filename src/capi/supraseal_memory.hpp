// The caller's memory as libcuzk_supraseal sees it (supraseal_api.cpp): lent
// to a call's partitions and handed back share by share (Lending), and the
// page-locked buffers the library gives callers that want them
// (CallerBuffers, cuzk_supraseal_alloc_pinned).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "cuzk/engine/buffer_pool.hpp"

namespace cuzk::capi {

// The caller's memory lent to the partitions of one call: each partition
// holds a share (service::Evaluations::hold), which the engine lets go of as
// soon as it has read the partition's inputs. wait() returns once every share
// is back, and so does the destructor: no share outlives the object.
class Lending {
 public:
  Lending() = default;
  Lending(const Lending&) = delete;
  Lending& operator=(const Lending&) = delete;
  ~Lending() { wait(); }

  std::shared_ptr<const void> share() {
    {
      std::lock_guard lock(mu_);
      ++out_;
    }
    // Should the control block's allocation throw, the deleter runs: the
    // count stays right.
    return {static_cast<const void*>(this), [this](const void*) { give_back(); }};
  }
  void wait() {
    std::unique_lock lock(mu_);
    back_.wait(lock, [&] { return out_ == 0; });
  }

 private:
  void give_back() {
    std::lock_guard lock(mu_);
    if (--out_ == 0) back_.notify_all();
  }
  std::mutex mu_;
  std::condition_variable back_;
  size_t out_ = 0;
};

// Buffers from one HostMemory, each remembered with its size for its release.
class CallerBuffers {
 public:
  explicit CallerBuffers(std::unique_ptr<engine::HostMemory> memory) : memory_(std::move(memory)) {}
  CallerBuffers(const CallerBuffers&) = delete;
  CallerBuffers& operator=(const CallerBuffers&) = delete;

  // Throws what the memory throws when it has none.
  void* allocate(size_t bytes) {
    void* p = memory_->allocate(bytes);
    try {
      std::lock_guard lock(mu_);
      given_.emplace(p, bytes);
    } catch (...) {
      memory_->release(p, bytes);
      throw;
    }
    return p;
  }
  // False when p is none of its buffers.
  bool release(void* p) {
    size_t bytes = 0;
    {
      std::lock_guard lock(mu_);
      const auto it = given_.find(p);
      if (it == given_.end()) return false;
      bytes = it->second;
      given_.erase(it);
    }
    memory_->release(p, bytes);
    return true;
  }
  const char* kind() const { return memory_->name(); }

 private:
  std::unique_ptr<engine::HostMemory> memory_;
  std::mutex mu_;
  std::map<void*, size_t> given_;
};

}  // namespace cuzk::capi
