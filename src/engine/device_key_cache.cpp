#include "cuzk/engine/device_key_cache.hpp"

#include <algorithm>
#include <string>

#include "cuzk/ec/curves.hpp"

namespace cuzk::engine {

bool DeviceKeyBudget::make_room(size_t need) {
  for (Member* m : members) m->count_departures();
  if (need > budget_) return false;  // evicting would not help
  while (used + need > budget_ && evict_oldest_unused()) {
  }
  return used + need <= budget_;
}

bool DeviceKeyBudget::evict_oldest_unused() {
  Member* oldest = nullptr;
  uint64_t oldest_use = 0;
  for (Member* m : members)
    if (const auto use = m->oldest_unused(); use && (!oldest || *use < oldest_use)) oldest = m, oldest_use = *use;
  if (!oldest) return false;  // every key left is in use
  oldest->evict_oldest_unused();
  return true;
}

size_t DeviceKeyBudget::unused_bytes() const {
  size_t bytes = 0;
  for (const Member* m : members) bytes += m->unused_bytes();
  return bytes;
}

template <class E>
DeviceKeyCache<E>::DeviceKeyCache(int device, std::shared_ptr<DeviceKeyBudget> budget,
                                  groth16::gpu::DeviceKeyOptions options)
    : device_(device), budget_(std::move(budget)), options_(options) {
  std::lock_guard lock(budget_->mu);
  budget_->members.push_back(this);
}

template <class E>
DeviceKeyCache<E>::~DeviceKeyCache() {
  std::lock_guard lock(budget_->mu);
  std::erase(budget_->members, static_cast<DeviceKeyBudget::Member*>(this));
  budget_->used -= std::min(budget_->used, counters_.bytes);
}

template <class E>
typename std::list<typename DeviceKeyCache<E>::Entry>::iterator DeviceKeyCache<E>::remove(
    typename std::list<Entry>::iterator it) {
  // use_count is exact here: copies are made only under the lock, by acquire.
  if (it->key.use_count() > 1) {
    leaving_.push_back({it->key, it->bytes});
  } else {
    counters_.bytes -= it->bytes;
    budget_->used -= it->bytes;
  }
  return entries_.erase(it);
}

template <class E>
void DeviceKeyCache<E>::count_departures() {
  std::erase_if(leaving_, [&](const Leaving& l) {
    if (!l.key.expired()) return false;
    counters_.bytes -= l.bytes;
    budget_->used -= l.bytes;
    return true;
  });
}

template <class E>
typename std::list<typename DeviceKeyCache<E>::Entry>::const_iterator DeviceKeyCache<E>::oldest_unused_entry() const {
  for (auto it = entries_.end(); it != entries_.begin();) {
    --it;
    if (it->key.use_count() == 1) return it;  // else a worker is proving with it
  }
  return entries_.end();
}

template <class E>
std::optional<uint64_t> DeviceKeyCache<E>::oldest_unused() const {
  const auto it = oldest_unused_entry();
  if (it == entries_.end()) return std::nullopt;
  return it->used_at;
}

template <class E>
void DeviceKeyCache<E>::evict_oldest_unused() {
  const auto it = oldest_unused_entry();
  if (it == entries_.end()) return;
  ++counters_.evictions;
  remove(entries_.erase(it, it));  // the same position, as a mutable iterator
}

template <class E>
size_t DeviceKeyCache<E>::unused_bytes() const {
  size_t bytes = 0;
  for (const Entry& e : entries_)
    if (e.key.use_count() == 1) bytes += e.bytes;
  return bytes;
}

// Resident where the device has room for the key and a proof beside it, else
// streamed (groth16::gpu::plan_residency). Where the memory free now allows
// less than that, what others keep for reuse is given back first: the
// arenas' free blocks (earlier proofs' scratch, which the next proof takes
// again), then, where that makes the key resident or lets it fit at all, the
// keys nobody is proving with, least recently used first: a second large
// key (a circuit registered through cuzk_supraseal beside its SRS at 2^26,
// on an 80 GB GPU) finds the first one's points and the workers' scratch in
// the way, neither of them in use.
template <class E>
groth16::gpu::DeviceKeyOptions DeviceKeyCache<E>::plan_with_room(const groth16::PreparedKey<E>& key) {
  namespace gpu = groth16::gpu;
  const cuda::DeviceScope on(device_);
  const auto plan = [&](size_t extra) {
    return gpu::try_plan_residency(key, options_, cuda::free_device_memory() + extra);
  };
  const auto resident = [](const std::optional<gpu::DeviceKeyOptions>& o) { return o && !o->streamed; };
  auto options = plan(0);
  if (resident(options)) return *options;
  cuda::Arena::trim_all(cuda::physical_device(device_));
  options = plan(0);
  // Unused keys go while that is what makes the key resident, or what lets
  // it fit at all; none where evicting them all would not help.
  const auto all_evicted = plan(budget_->unused_bytes());
  const auto enough = [&] { return resident(all_evicted) ? resident(options) : options || !all_evicted; };
  while (!enough() && budget_->evict_oldest_unused()) options = plan(0);
  return options ? *options : gpu::plan_residency(key, options_, cuda::free_device_memory());  // throws the shortfall
}

template <class E>
std::shared_ptr<const typename DeviceKeyCache<E>::DeviceKey> DeviceKeyCache<E>::acquire(
    const groth16::SharedKey<E>& key, bool* uploaded) {
  std::lock_guard lock(budget_->mu);
  if (uploaded) *uploaded = false;
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (&it->key->prepared() == key.get()) {
      entries_.splice(entries_.begin(), entries_, it);
      it->used_at = ++budget_->clock;
      ++counters_.hits;
      return it->key;
    }
  // Resident where the budget and the device allow, else streamed.
  auto options = plan_with_room(*key);
  std::shared_ptr<DeviceKey> dk;
  if (!options.streamed && budget_->make_room(DeviceKey::bytes_needed(*key, options))) {
    try {
      dk = std::make_shared<DeviceKey>(key, device_, options);
    } catch (const cuda::Error&) {
      cudaGetLastError();
    }
  }
  if (!dk) {
    auto streamed = options_;
    streamed.streamed = true;
    options = groth16::gpu::plan_residency(*key, streamed, cuda::free_device_memory());
    const size_t need = DeviceKey::bytes_needed(*key, options);
    if (!budget_->make_room(need))
      throw cuda::Error("GPU " + std::to_string(device_) + ": even streamed, the proving key needs " +
                                std::to_string(need >> 20) + " MiB, and the keys in use leave " +
                                std::to_string((budget_->bytes() - std::min(budget_->bytes(), budget_->used)) >> 20) +
                                " MiB of the GPU's key budget");
    dk = std::make_shared<DeviceKey>(key, device_, options);
  }
  entries_.push_front({dk, dk->bytes(), ++budget_->clock});
  counters_.bytes += entries_.front().bytes;
  budget_->used += entries_.front().bytes;
  ++counters_.uploads;
  counters_.streamed += options.streamed;
  if (uploaded) *uploaded = true;
  return dk;
}

template <class E>
auto DeviceKeyCache<E>::residence(const groth16::PreparedKey<E>& key) -> std::optional<Residence> {
  std::unique_lock lock(budget_->mu, std::try_to_lock);
  if (!lock) return std::nullopt;
  const auto it = std::ranges::find_if(entries_, [&](const Entry& e) { return &e.key->prepared() == &key; });
  if (it == entries_.end()) return Residence::absent;
  return it->key->streamed() ? Residence::streamed : Residence::resident;
}

template <class E>
void DeviceKeyCache<E>::forget(const groth16::PreparedKey<E>& key) {
  std::lock_guard lock(budget_->mu);
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (&it->key->prepared() == &key) {
      remove(it);
      break;
    }
  count_departures();
}

template <class E>
void DeviceKeyCache<E>::clear() {
  std::lock_guard lock(budget_->mu);
  budget_->used -= std::min(budget_->used, counters_.bytes);
  entries_.clear();
  leaving_.clear();
  counters_.bytes = 0;
}

template <class E>
typename DeviceKeyCache<E>::Counters DeviceKeyCache<E>::counters() {
  std::lock_guard lock(budget_->mu);
  count_departures();
  return counters_;
}

template class DeviceKeyCache<ec::Bn254>;
template class DeviceKeyCache<ec::Bls12_381>;

}  // namespace cuzk::engine
