// Service's state, shared by the files that implement it: service.cpp (the
// engines, housekeeping and status), key_registry.cpp (keys by id) and
// jobs.cpp (admission, submission and outcomes). One mutex, `mu`, guards the
// registry, the jobs and the counters; `engines_mu` guards making the engines.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <type_traits>
#include <variant>
#include <vector>

#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/trace.hpp"
#include "cuzk/io/zkey.hpp"
#include "cuzk/service/service.hpp"
#include "cuzk/util/sha256.hpp"
#include "sources.hpp"

namespace cuzk::service {

using ec::Bls12_381;
using ec::Bn254;
using SameContent = Service::SameContent;

// The curve E of a ProvingKey<E> or PreparedKey<E>.
template <class T>
struct CurveOf;
template <template <class> class K, class E>
struct CurveOf<K<E>> {
  using type = E;
};
template <class T>
using curve_of = typename CurveOf<std::decay_t<T>>::type;

struct Key {
  KeyInfo info;
  std::optional<util::Sha256Digest> content;  // of the file or bytes it was loaded from
  AnyKey prepared;
  std::future<void> sorting;  // its rows sorted ahead of its first proof (groth16::sort_rows_ahead)
  mutable detail::NativeShapes shapes;
};
using KeyRef = std::shared_ptr<const Key>;

struct Service::Impl {
  struct Job {
    JobId id = 0;
    KeyRef key;
    SubmitOptions options;
    Clock::time_point submitted;
    size_t bytes = 0;
    std::stop_source cancel;
    std::atomic<bool> started{false};
    // Guarded by Impl::mu.
    std::vector<PartitionOutcome> outcomes;
    size_t done = 0, failed = 0;
    bool finished() const { return done == outcomes.size(); }
  };

  template <class E>
  struct Side {
    std::unique_ptr<engine::Engine<E>> engine;
  };

  explicit Impl(ServiceOptions o);

  // The engines (service.cpp).
  void keep_house(std::stop_token stop);
#if defined(CUZK_HAVE_CUDA)
  void recover_gpus();
  static bool gpu_self_check();
#endif
  std::unique_ptr<engine::HostMemory> host_memory() const;
  template <class E>
  Side<E>& side() {
    if constexpr (std::is_same_v<E, Bn254>) return bn;
    else return bls;
  }
  template <class E>
  engine::Engine<E>& engine_for(const groth16::PreparedKey<E>& key);
  template <class E>
  Side<E>& start_engine();
  std::future<void> start_engine_for(const std::filesystem::path& path);
  template <class E>
  engine::Engine<E>* existing_engine() {
    std::lock_guard lock(engines_mu);
    return side<E>().engine.get();
  }
  template <class F>
  void each_engine(F&& f) {
    std::lock_guard lock(engines_mu);
    if (bn.engine) f(*bn.engine);
    if (bls.engine) f(*bls.engine);
  }
  void purge_stopped();
  Status status();

  // The keys (key_registry.cpp).
  // Where a key came from: a file or bytes have `content`; with
  // SameContent::reuse, a key loaded with the same content is the answer.
  struct Origin {
    std::string source;
    uint64_t host_bytes = 0;
    std::optional<util::Sha256Digest> content = std::nullopt;
    SameContent same = SameContent::load;
  };
  template <class E>
  KeyInfo add(std::string id, groth16::SharedKey<E> prepared, Origin origin);
  void check_room_locked(const std::string& id, uint64_t bytes) const;
  void check_room(const std::string& id, uint64_t bytes) const;
  uint64_t key_bytes_locked() const;  // host bytes of the loaded keys
  std::optional<KeyInfo> with_content_locked(const util::Sha256Digest& content) const;
  std::optional<KeyInfo> with_content(const util::Sha256Digest& content) const;
  // Whether a load hashes what it reads: a reuse load must, to look for the
  // key; a plain one only where later reuse loads may look for it.
  bool hashes(SameContent same) const { return same == SameContent::reuse || options.hash_loaded_keys; }
  KeyInfo load(const io::Zkey& zkey, std::string id, Origin origin);
  void forget(const Key& key);
  KeyRef find_key(const std::string& id);
  // The loaded keys, with their unfinished jobs and the GPUs that hold them; takes mu.
  std::vector<KeyInfo> key_list();

  // The jobs (jobs.cpp).
  template <class E>
  JobId submit(const KeyRef& key, const groth16::SharedKey<E>& prepared, std::vector<PartitionInput> inputs,
               SubmitOptions so);
  void admit(size_t partitions, size_t bytes);
  void release(size_t partitions, size_t bytes);
  void release_locked(size_t partitions, size_t bytes);
  template <class E>
  void partition_done(Job& job, const engine::PartitionResult<E>& r);
  void forget_oldest_unawaited();
  std::optional<JobOutcome> await(JobId id, std::optional<Clock::duration> timeout);
  bool cancel(JobId id);
  void drain();

  ServiceOptions options;
  const Placement where;
  engine::Recorder recorder;
  std::shared_ptr<engine::BufferPool> pool;
  std::mutex engines_mu;  // the engines are made on first use
  Side<Bn254> bn;
  Side<Bls12_381> bls;

  mutable std::mutex mu;
  std::condition_variable changed;  // a job finished, or admission bounds freed
  std::map<std::string, KeyRef> keys;
  std::map<JobId, std::shared_ptr<Job>> jobs;
  std::deque<JobId> finished;  // finished jobs not yet awaited, oldest first
  JobId next_job = 1;
  size_t pending_partitions = 0, pending_bytes = 0;
  bool draining = false;
  Counters counters;
  std::vector<PartitionObserver> observers;
  std::map<int, std::string> recovery_errors;         // per GPU, the last failed recovery's reason
  std::map<int, Clock::time_point> recovery_due;      // per faulted GPU; keep_house's own
  std::jthread housekeeping;                          // keep_house
};

}  // namespace cuzk::service
