// Proving keys on one GPU, uploaded once and kept while they fit (DESIGN.md,
// "Proving key resident on the GPU"): an LRU cache under a device-memory
// budget. A key that is not cached is uploaded resident when it fits once
// keys nobody is using have been evicted, least recently used first, and the
// device has the memory free; a key that cannot be resident is made streamed (its points stay in host memory,
// page-locked, and stream through two chunk buffers per proof), so that a
// GPU too small for a key still proves with it.
//
// Lifetimes: an entry holds its key's SharedKey, so the key outlives the
// entry and is told apart by its address (a PreparedKey is never copied or
// moved); the entry, and with it the key, stays until it is evicted or
// forgotten, so whoever unloads a key forgets it. A worker holds what
// acquire() gave it while it proves. An entry forgotten while a worker holds
// it is never handed out again, and its device memory, which counts against
// the budget until then, is freed when the last worker lets go of it.
#pragma once

#include <list>
#include <memory>
#include <mutex>
#include <vector>

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
  std::shared_ptr<const DeviceKey> acquire(const groth16::SharedKey<E>& key, bool* uploaded = nullptr);

  // Takes the key out of the cache, if it is there: a later acquire uploads
  // it anew, and its device memory goes once no worker holds it.
  void forget(const groth16::PreparedKey<E>& key);

  // bytes counts the entries that left while in use until their last user
  // has let go.
  Counters counters();
  int device() const { return device_; }
  size_t budget() const { return budget_; }

 private:
  struct Entry {
    std::shared_ptr<DeviceKey> key;
    size_t bytes;
  };
  // An entry that left the cache while a worker held it.
  struct Leaving {
    std::weak_ptr<DeviceKey> key;
    size_t bytes;
  };
  // Evicts unused entries, oldest first, until `need` more bytes fit.
  bool make_room(size_t need);
  // Takes an entry out (freed now if unused, else moved to leaving_); the
  // entry after it.
  typename std::list<Entry>::iterator remove(typename std::list<Entry>::iterator it);
  // Stops counting the leaving entries whose last user has let go.
  void count_departures();

  const int device_;
  const size_t budget_;
  const groth16::cuda::DeviceKeyOptions options_;
  mutable std::mutex mu_;
  std::list<Entry> entries_;  // most recently used first
  std::vector<Leaving> leaving_;
  Counters counters_;
};

}  // namespace cuzk::engine
