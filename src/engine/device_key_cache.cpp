#include "cuzk/engine/device_key_cache.hpp"

#include <string>

#include "cuzk/ec/curves.hpp"

namespace cuzk::engine {

template <class E>
DeviceKeyCache<E>::DeviceKeyCache(int device, size_t budget_bytes, groth16::cuda::DeviceKeyOptions options)
    : device_(device), budget_(budget_bytes), options_(options) {}

template <class E>
typename std::list<typename DeviceKeyCache<E>::Entry>::iterator DeviceKeyCache<E>::remove(
    typename std::list<Entry>::iterator it) {
  // use_count is exact here: copies are made only under mu_, by acquire.
  if (it->key.use_count() > 1) leaving_.push_back({it->key, it->bytes});
  else counters_.bytes -= it->bytes;
  return entries_.erase(it);
}

template <class E>
void DeviceKeyCache<E>::count_departures() {
  std::erase_if(leaving_, [&](const Leaving& l) {
    if (!l.key.expired()) return false;
    counters_.bytes -= l.bytes;
    return true;
  });
}

template <class E>
bool DeviceKeyCache<E>::make_room(size_t need) {
  count_departures();
  if (need > budget_) return false;  // evicting would not help
  for (auto it = entries_.end(); counters_.bytes + need > budget_ && it != entries_.begin();) {
    --it;
    if (it->key.use_count() > 1) continue;  // a worker is proving with it
    ++counters_.evictions;
    it = remove(it);
  }
  return counters_.bytes + need <= budget_;
}

template <class E>
std::shared_ptr<const typename DeviceKeyCache<E>::DeviceKey> DeviceKeyCache<E>::acquire(
    const groth16::SharedKey<E>& key, bool* uploaded) {
  std::lock_guard lock(mu_);
  if (uploaded) *uploaded = false;
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (&it->key->prepared() == key.get()) {
      entries_.splice(entries_.begin(), entries_, it);
      ++counters_.hits;
      return entries_.front().key;
    }
  // Resident where the budget allows and the device, whose free memory the
  // workers' scratch also takes, has room; else streamed.
  auto options = options_;
  options.streamed = false;
  std::shared_ptr<DeviceKey> dk;
  if (make_room(DeviceKey::bytes_needed(*key, options))) {
    try {
      dk = std::make_shared<DeviceKey>(key, device_, options);
    } catch (const ::cuzk::cuda::Error&) {
      cudaGetLastError();
    }
  }
  if (!dk) {
    options.streamed = true;
    const size_t need = DeviceKey::bytes_needed(*key, options);
    if (!make_room(need))
      throw ::cuzk::cuda::Error("GPU " + std::to_string(device_) + ": even streamed, the proving key needs " +
                                std::to_string(need >> 20) + " MiB, and the keys in use leave " +
                                std::to_string((budget_ - std::min(budget_, counters_.bytes)) >> 20) +
                                " MiB of the cache's budget");
    dk = std::make_shared<DeviceKey>(key, device_, options);
  }
  entries_.push_front({dk, dk->bytes()});
  counters_.bytes += entries_.front().bytes;
  ++counters_.uploads;
  counters_.streamed += options.streamed;
  if (uploaded) *uploaded = true;
  return dk;
}

template <class E>
void DeviceKeyCache<E>::forget(const groth16::PreparedKey<E>& key) {
  std::lock_guard lock(mu_);
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (&it->key->prepared() == &key) {
      remove(it);
      break;
    }
  count_departures();
}

template <class E>
typename DeviceKeyCache<E>::Counters DeviceKeyCache<E>::counters() {
  std::lock_guard lock(mu_);
  count_departures();
  return counters_;
}

template class DeviceKeyCache<ec::Bn254>;
template class DeviceKeyCache<ec::Bls12_381>;

}  // namespace cuzk::engine
