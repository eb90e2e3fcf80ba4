#include "configured_keys.hpp"

#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <set>

namespace cuzk::daemon {

ConfiguredKeys::Loaded ConfiguredKeys::identify(const KeySpec& k) {
  Loaded l;
  l.path = k.path;
  struct stat st{};
  if (::stat(k.path.c_str(), &st) == 0) {
    l.dev = st.st_dev;
    l.ino = st.st_ino;
    l.size = st.st_size;
    l.mtime = st.st_mtim;
  }
  return l;
}

bool ConfiguredKeys::same(const Loaded& a, const Loaded& b) {
  return a.path == b.path && a.dev == b.dev && a.ino == b.ino && a.size == b.size &&
         a.mtime.tv_sec == b.mtime.tv_sec && a.mtime.tv_nsec == b.mtime.tv_nsec;
}

void ConfiguredKeys::load(const KeySpec& k) {
  // Identify the file before reading it: a change during the read shows at
  // the next reload.
  const Loaded before = identify(k);
  const auto info = service_.load_key(k.path, k.id, service::Service::PathFrom::configuration);
  loaded_[k.id] = before;
  spdlog::info("key {} loaded from {} ({}, {} variables, domain {})", info.id, k.path.string(),
               ec::curve_name(info.curve), info.n_vars, info.domain_size);
}

void ConfiguredKeys::load_all(const std::vector<KeySpec>& keys) {
  for (const auto& k : keys) load(k);
}

size_t ConfiguredKeys::reload(const std::vector<KeySpec>& keys) {
  size_t failures = 0;
  std::set<std::string> named;
  for (const auto& k : keys) {
    named.insert(k.id);
    auto it = loaded_.find(k.id);
    if (it != loaded_.end() && same(it->second, identify(k))) continue;
    try {
      load(k);
    } catch (const std::exception& e) {
      ++failures;
      spdlog::error("reload: key {}: {}", k.id, e.what());
    }
  }
  for (auto it = loaded_.begin(); it != loaded_.end();) {
    if (named.count(it->first)) {
      ++it;
      continue;
    }
    service_.evict(it->first);
    spdlog::info("key {} evicted (no longer configured)", it->first);
    it = loaded_.erase(it);
  }
  return failures;
}

}  // namespace cuzk::daemon
