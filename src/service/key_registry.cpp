#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <system_error>
#include <sys/stat.h>

#include "cuzk/io/json.hpp"
#include "cuzk/util/timing.hpp"
#include "service_impl.hpp"

namespace cuzk::service {

template <class E>
KeyInfo Service::Impl::add(std::string id, groth16::SharedKey<E> prepared, Origin origin) {
  if (id.empty()) throw Error(ErrorKind::invalid_argument, "a key needs an id");
  recorder.report_stage("start engine", timed([&] { engine_for<E>(*prepared); }));
  auto key = std::make_shared<Key>();
  const auto& k = prepared->key();
  key->info = {id, std::move(origin.source), E::id, k.n_vars(), k.n_public(), k.domain_size(), origin.host_bytes, 0, {}};
  key->content = origin.content;
  key->prepared = std::move(prepared);
  KeyRef replaced;
  {
    std::lock_guard lock(mu);
    // Checked again here: a load of the same contents may have finished
    // while this one was reading.
    if (origin.same == SameContent::reuse && origin.content)
      if (auto loaded = with_content_locked(*origin.content)) return *loaded;
    check_room_locked(id, origin.host_bytes);
    // Its rows are sorted now, not by its first proof (on a GPU, under the
    // key cache's lock, which every other key's lookup on that GPU waits for).
    if (!k.coefs.empty()) key->sorting = groth16::sort_rows_ahead(std::get<groth16::SharedKey<E>>(key->prepared));
    auto& slot = keys[id];
    replaced = std::move(slot);
    slot = key;
  }
  if (replaced) forget(*replaced);
  return key->info;
}

// A new id past ServiceOptions::max_keys is refused (a replacement is not
// a new key), and so is a key whose host bytes would take the loaded keys'
// past max_key_bytes (the key it replaces counts as freed).
void Service::Impl::check_room_locked(const std::string& id, uint64_t bytes) const {
  const auto same = keys.find(id);
  if (options.max_keys && keys.size() >= options.max_keys && same == keys.end())
    throw Error(ErrorKind::resource_exhausted, "key " + id + ": " + std::to_string(keys.size()) +
                                                   " keys are loaded, the most this service holds (max_keys); evict one first");
  if (!options.max_key_bytes) return;
  const uint64_t held = key_bytes_locked() - (same == keys.end() ? 0 : same->second->info.host_bytes);
  if (bytes > options.max_key_bytes - std::min<uint64_t>(held, options.max_key_bytes))
    throw Error(ErrorKind::resource_exhausted,
                "key " + id + ": its " + std::to_string(bytes) + " bytes would take the keys' host memory past " +
                    std::to_string(options.max_key_bytes) + " (max_key_bytes), " + std::to_string(held) +
                    " held; evict one first");
}

void Service::Impl::check_room(const std::string& id, uint64_t bytes) const {
  std::lock_guard lock(mu);
  check_room_locked(id, bytes);
}

uint64_t Service::Impl::key_bytes_locked() const {
  uint64_t held = 0;
  for (const auto& [id, key] : keys) held += key->info.host_bytes;
  return held;
}

std::optional<KeyInfo> Service::Impl::with_content_locked(const util::Sha256Digest& content) const {
  for (const auto& [id, key] : keys)
    if (key->content == content) return key->info;
  return std::nullopt;
}

std::optional<KeyInfo> Service::Impl::with_content(const util::Sha256Digest& content) const {
  std::lock_guard lock(mu);
  return with_content_locked(content);
}

namespace {

// The key of whichever curve the file holds, prepared (its rows sorted
// later: as a service adds it, or on first use).
AnyKey prepared_key(const io::Zkey& zkey) {
  return zkey.visit([&](const auto& pk) -> AnyKey {
    using E = curve_of<decltype(pk)>;
    return groth16::PreparedKey<E>::make(zkey.share<E>());
  });
}

}  // namespace

AnyKey read_zkey(const std::filesystem::path& path, groth16::PointChecks checks) {
  const FileDescriptor fd = open_allowed(path, {}, true, "key");
  return as_error([&] { return prepared_key(io::Zkey::open_fd(fd.get(), path.string(), io::Residency::map, checks)); });
}

KeyInfo Service::Impl::load(const io::Zkey& zkey, std::string id, Origin origin) {
  AnyKey prepared;
  recorder.report_stage("prepare key", timed([&] { prepared = prepared_key(zkey); }));
  return std::visit(
      [&]<class E>(groth16::SharedKey<E>& key) { return add<E>(std::move(id), std::move(key), std::move(origin)); },
      prepared);
}

// Drops the engines' copies of a key that left the registry; jobs using it
// keep theirs.
void Service::Impl::forget(const Key& key) {
  std::visit(
      [&](const auto& prepared) {
        using E = curve_of<decltype(*prepared)>;
        if (auto* e = existing_engine<E>()) e->forget(*prepared);
      },
      key.prepared);
}

KeyRef Service::Impl::find_key(const std::string& id) {
  std::lock_guard lock(mu);
  const auto it = keys.find(id);
  if (it == keys.end()) throw Error(ErrorKind::not_found, "no key " + id + " is loaded");
  return it->second;
}


std::vector<KeyInfo> Service::Impl::key_list() {
  std::vector<KeyInfo> out;
  std::vector<AnyKey> prepared;  // out's keys, in its order
  {
    std::lock_guard lock(mu);
    for (const auto& [id, key] : keys) {
      KeyInfo info = key->info;
      info.jobs = (uint64_t)std::count_if(jobs.begin(), jobs.end(), [&](const auto& j) {
        return j.second->key == key && !j.second->finished();
      });
      out.push_back(std::move(info));
      prepared.push_back(key->prepared);
    }
  }
  // Asked outside mu: a GPU's key cache has a lock of its own.
  for (size_t i = 0; i < out.size(); ++i)
    std::visit(
        [&]<class E>(const groth16::SharedKey<E>& key) {
          if (auto* e = existing_engine<E>()) out[i].gpus = e->backend().gpus_holding(*key);
        },
        prepared[i]);
  return out;
}

KeyInfo Service::load_key(const std::filesystem::path& path, std::string id, PathFrom from, SameContent same) {
  const auto& o = impl_->options;
  if (id.empty()) id = path.stem().string();
  const FileDescriptor fd =
      from == PathFrom::client ? open_allowed(path, o.key_dirs, o.any_path_without_dirs, "key")
                               : open_allowed(path, {}, true, "key");
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0)
    throw Error(ErrorKind::invalid_argument, path.string() + ": cannot stat: " + std::strerror(errno));
  const uint64_t bytes = o.key_storage == KeyStorage::copy ? (uint64_t)st.st_size : 0;
  // A load that may be answered with a loaded key counts against max_keys
  // and max_key_bytes once it is known not to be; any other before the file
  // is read.
  if (same == SameContent::load) impl_->check_room(id, bytes);
  std::optional<util::Sha256Digest> content;
  if (impl_->hashes(same))
    content = as_error([&] {
      try {
        return util::sha256_fd(fd.get());
      } catch (const std::system_error& e) {
        throw Error(ErrorKind::invalid_argument, path.string() + ": cannot read: " + e.code().message());
      }
    });
  if (same == SameContent::reuse) {
    if (auto loaded = impl_->with_content(*content)) return *loaded;
    impl_->check_room(id, bytes);
  }
  const auto residency = o.key_storage == KeyStorage::copy ? io::Residency::copy : io::Residency::map;
  std::future<void> starting = impl_->start_engine_for(path);
  const io::Zkey zkey = as_error([&] {
    const auto t0 = std::chrono::steady_clock::now();
    io::Zkey opened = io::Zkey::open_fd(fd.get(), path.string(), residency);
    impl_->recorder.report_stage("open zkey", seconds_since(t0));
    return opened;
  });
  return as_error([&] { return impl_->load(zkey, std::move(id), {path.string(), bytes, content, same}); });
}

KeyInfo Service::load_key_bytes(std::vector<uint8_t> bytes, std::string name, std::string id, SameContent same) {
  if (id.empty()) id = name;
  std::optional<util::Sha256Digest> content;
  if (impl_->hashes(same)) content = util::sha256(bytes);
  if (same == SameContent::reuse)
    if (auto loaded = impl_->with_content(*content)) return *loaded;
  const uint64_t size = bytes.size();
  impl_->check_room(id, size);
  const io::Zkey zkey = as_error([&] { return io::Zkey::from_bytes(name, bytes); });
  bytes = {};  // from_bytes made its own copy
  return as_error([&] { return impl_->load(zkey, std::move(id), {"<bytes> " + name, size, content, same}); });
}

KeyInfo Service::add_key(std::string id, groth16::SharedKey<Bn254> key, std::string source) {
  return impl_->add<Bn254>(std::move(id), std::move(key), {std::move(source)});
}
KeyInfo Service::add_key(std::string id, groth16::SharedKey<Bls12_381> key, std::string source) {
  return impl_->add<Bls12_381>(std::move(id), std::move(key), {std::move(source)});
}
KeyInfo Service::add_key(std::string id, AnyKey key, std::string source) {
  return std::visit([&](auto& k) { return add_key(std::move(id), std::move(k), std::move(source)); }, key);
}

void Service::start_engine_for(const std::filesystem::path& key_file) {
  if (std::future<void> starting = impl_->start_engine_for(key_file); starting.valid()) starting.get();
}

bool Service::evict(const std::string& id) {
  KeyRef key;
  {
    std::lock_guard lock(impl_->mu);
    const auto it = impl_->keys.find(id);
    if (it == impl_->keys.end()) return false;
    key = std::move(it->second);
    impl_->keys.erase(it);
  }
  impl_->forget(*key);
  return true;
}

std::vector<KeyInfo> Service::keys() const { return impl_->key_list(); }

nlohmann::ordered_json Service::verifying_key(const std::string& id) const {
  const KeyRef key = impl_->find_key(id);
  return std::visit([](const auto& prepared) { return io::vk_to_json(prepared->vk()); }, key->prepared);
}

}  // namespace cuzk::service
