// The keys the configuration names: loaded at start, and on SIGHUP brought in
// line with the configuration read again: new ids and changed ones (another
// path, or the file changed since it was read) are loaded, ids no longer
// named are evicted. Keys loaded through Preload are left alone.
#pragma once

#include <sys/types.h>

#include <ctime>
#include <map>
#include <string>
#include <vector>

#include "config.hpp"
#include "cuzk/service/service.hpp"

namespace cuzk::daemon {

class ConfiguredKeys {
 public:
  explicit ConfiguredKeys(service::Service& service) : service_(service) {}

  // Loads every key; the first that fails throws (its service::Error).
  void load_all(const std::vector<KeySpec>& keys);

  // Applies a new list; a key that fails to load is logged and the old one
  // (if any) kept. Returns the number of failures.
  size_t reload(const std::vector<KeySpec>& keys);

 private:
  // What identifies the file that was read.
  struct Loaded {
    std::filesystem::path path;
    dev_t dev = 0;
    ino_t ino = 0;
    off_t size = 0;
    timespec mtime{};
  };
  static Loaded identify(const KeySpec& k);
  static bool same(const Loaded& a, const Loaded& b);
  void load(const KeySpec& k);

  service::Service& service_;
  std::map<std::string, Loaded> loaded_;
};

}  // namespace cuzk::daemon
