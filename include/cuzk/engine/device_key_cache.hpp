// Proving keys on one GPU, uploaded once and kept while they fit (DESIGN.md,
// "Proving key resident on the GPU"): an LRU cache under a device-memory
// budget. A key that is not cached is uploaded resident when it fits once
// keys nobody is using have been evicted, least recently used first, and the
// device has the memory free; a key that cannot be resident is made streamed (its points stay in host memory,
// page-locked, and stream through two chunk buffers per proof), so that a
// GPU too small for a key still proves with it. Keys are told apart by
// PreparedKey::id(), never by address.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>

#include "cuzk/groth16/prover_cuda.hpp"

namespace cuzk::engine {

template <class E>
class DeviceKeyCache {
 public:
  using DeviceKey = groth16::cuda::DeviceKey<E>;

  struct Counters {
    size_t uploads = 0, hits = 0, evictions = 0, streamed = 0;
    size_t bytes = 0;  // device bytes of the cached keys
  };

  // `options` says whether keys carry their A and B rows, and the streaming
  // chunk; the cache decides residency.
  DeviceKeyCache(int device, size_t budget_bytes, groth16::cuda::DeviceKeyOptions options);

  // The key on this GPU, uploading it first if needed (under the cache's lock:
  // a second caller for the same key waits and then shares it). `uploaded`,
  // when given, is set to whether this call uploaded. Throws cuda::Error when
  // not even the streamed form fits beside the keys in use.
  std::shared_ptr<const DeviceKey> acquire(const groth16::PreparedKey<E>& key, bool* uploaded = nullptr);

  // Drops the key if it is cached. False, and nothing dropped, while a worker
  // is proving with it.
  bool forget(const groth16::PreparedKey<E>& key);

  Counters counters() const;
  int device() const { return device_; }
  size_t budget() const { return budget_; }

 private:
  struct Entry {
    uint64_t id;
    std::shared_ptr<DeviceKey> key;
    size_t bytes;
  };
  // Evicts unused entries, oldest first, until `need` more bytes fit.
  bool make_room(size_t need);

  const int device_;
  const size_t budget_;
  const groth16::cuda::DeviceKeyOptions options_;
  mutable std::mutex mu_;
  std::list<Entry> entries_;  // most recently used first
  Counters counters_;
};

}  // namespace cuzk::engine
