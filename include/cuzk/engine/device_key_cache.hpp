// Proving keys on one GPU, uploaded once and kept while they fit (docs/ARCHITECTURE.md,
// "Proving key resident on the GPU"): an LRU cache under a device-memory
// budget that the caches of every curve on the GPU share (DeviceKeyBudget).
// A key that is not cached is uploaded resident when it fits once keys nobody
// is using have been evicted, least recently used first, and the device has
// the memory free (the arenas' free blocks given back, and unused keys
// evicted, when that makes the room); a key that cannot be resident is made
// streamed (its points stay in host memory, page-locked, and stream through
// two chunk buffers per proof), so that a GPU too small for a key still
// proves with it.
//
// Lifetimes: an entry holds its key's SharedKey, so the key outlives the
// entry and is told apart by its address (a PreparedKey is never copied or
// moved); the entry, and with it the key, stays until it is evicted or
// forgotten, so whoever unloads a key forgets it. A worker holds what
// acquire() gave it while it proves. An entry forgotten while a worker holds
// it is never handed out again, and its device memory, which counts against
// the budget until then, is freed when the last worker lets go of it.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "cuzk/groth16/prover_cuda.hpp"

namespace cuzk::engine {

// The device memory for proving keys on one GPU, shared by the key caches
// of every curve proving there (one per engine): one lock, one byte count and
// one least-recently-used order across them, so that a key of one curve
// evicts an unused key of the other instead of the two caches together
// claiming more than the GPU has.
class DeviceKeyBudget {
 public:
  explicit DeviceKeyBudget(size_t bytes) : budget_(bytes) {}
  DeviceKeyBudget(const DeviceKeyBudget&) = delete;
  DeviceKeyBudget& operator=(const DeviceKeyBudget&) = delete;
  size_t bytes() const { return budget_; }

 private:
  template <class>
  friend class DeviceKeyCache;
  // A cache sharing the budget; called under mu.
  struct Member {
    // Stops counting entries that left while in use, once their last user let go.
    virtual void count_departures() = 0;
    // The last use of the least recently used entry nobody holds, if any.
    virtual std::optional<uint64_t> oldest_unused() const = 0;
    virtual void evict_oldest_unused() = 0;
    // Device bytes of the entries nobody holds.
    virtual size_t unused_bytes() const = 0;
  };
  // Under mu: evicts unused entries of every member, least recently used
  // first, until `need` more bytes fit.
  bool make_room(size_t need);
  // Under mu: evicts the least recently used entry nobody holds, of any
  // member; false when every entry is in use.
  bool evict_oldest_unused();
  // Under mu: device bytes of every member's entries nobody holds.
  size_t unused_bytes() const;

  std::mutex mu;
  const size_t budget_;
  size_t used = 0;     // device bytes of every member's entries, leaving ones included
  uint64_t clock = 0;  // use stamps
  std::vector<Member*> members;
};

template <class E>
class DeviceKeyCache final : DeviceKeyBudget::Member {
 public:
  using DeviceKey = groth16::gpu::DeviceKey<E>;

  struct Counters {
    size_t uploads = 0, hits = 0, evictions = 0, streamed = 0;
    size_t bytes = 0;  // device bytes of the cached keys
  };

  // `options` says whether keys carry their A and B rows, and the streaming
  // chunk; the cache decides residency, within `budget`, which other caches
  // of the same GPU may share.
  DeviceKeyCache(int device, std::shared_ptr<DeviceKeyBudget> budget, groth16::gpu::DeviceKeyOptions options);
  // A cache with a budget of its own.
  DeviceKeyCache(int device, size_t budget_bytes, groth16::gpu::DeviceKeyOptions options)
      : DeviceKeyCache(device, std::make_shared<DeviceKeyBudget>(budget_bytes), options) {}
  ~DeviceKeyCache();
  DeviceKeyCache(const DeviceKeyCache&) = delete;
  DeviceKeyCache& operator=(const DeviceKeyCache&) = delete;

  // The key on this GPU, uploading it first if needed (under the cache's lock:
  // a second caller for the same key waits and then shares it). `uploaded`,
  // when given, is set to whether this call uploaded. Resident where the
  // budget and the device's free memory allow (groth16::gpu::plan_residency:
  // a proof must fit beside the key; plan_with_room makes the room where
  // others only keep it), else streamed. Throws cuda::Error
  // naming the shortfall when not even that fits, or the budget when the
  // keys in use leave no room.
  std::shared_ptr<const DeviceKey> acquire(const groth16::SharedKey<E>& key, bool* uploaded = nullptr);

  // Whether the key is here, and if so whether its points are resident or
  // streamed from host memory; nullopt while the cache is busy (an upload
  // holds its lock), for callers that must not wait.
  enum class Residence { absent, resident, streamed };
  std::optional<Residence> residence(const groth16::PreparedKey<E>& key);

  // Takes the key out of the cache, if it is there: a later acquire uploads
  // it anew, and its device memory goes once no worker holds it.
  void forget(const groth16::PreparedKey<E>& key);

  // Drops every entry, before a reset of the device frees what they point to
  // (no worker may hold one then); later acquires upload anew.
  void clear();

  // This cache's: bytes counts the entries that left while in use until
  // their last user has let go.
  Counters counters();
  int device() const { return device_; }
  size_t budget() const { return budget_->bytes(); }

 private:
  struct Entry {
    std::shared_ptr<DeviceKey> key;
    size_t bytes;
    uint64_t used_at;  // the budget's clock at its last acquire
  };
  // An entry that left the cache while a worker held it.
  struct Leaving {
    std::weak_ptr<DeviceKey> key;
    size_t bytes;
  };
  // Takes an entry out (freed now if unused, else moved to leaving_); the
  // entry after it.
  typename std::list<Entry>::iterator remove(typename std::list<Entry>::iterator it);
  // The least recently used entry nobody holds, or entries_.end().
  typename std::list<Entry>::const_iterator oldest_unused_entry() const;
  void count_departures() override;
  std::optional<uint64_t> oldest_unused() const override;
  void evict_oldest_unused() override;
  size_t unused_bytes() const override;
  // The key's residency with the memory this GPU has free, after what others
  // keep for reuse has been given back where the key needs it.
  groth16::gpu::DeviceKeyOptions plan_with_room(const groth16::PreparedKey<E>& key);

  const int device_;
  const std::shared_ptr<DeviceKeyBudget> budget_;  // its mu guards everything below
  const groth16::gpu::DeviceKeyOptions options_;
  std::list<Entry> entries_;  // most recently used first
  std::vector<Leaving> leaving_;
  Counters counters_;
};

}  // namespace cuzk::engine
