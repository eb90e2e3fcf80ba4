#include "noble.hpp"

#include <cstdio>
#include <map>
#include <memory>

namespace cuzk::test {

std::string oracle_output(const std::string& command) {
  const std::string cmd = std::string("cd '") + CUZK_SOURCE_DIR + "' && " + command;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  if (!pipe) throw std::runtime_error("cannot start the oracle `" + command + "`");
  std::string out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe.get())) > 0) out.append(buf, n);
  const int status = pclose(pipe.release());
  if (status != 0)
    throw std::runtime_error("the oracle `" + command + "` failed (exit " + std::to_string(status) +
                             "); run scripts/setup.sh to install what it needs");
  return out;
}

const json& noble_vectors(uint64_t seed, int count) {
  static std::map<std::pair<uint64_t, int>, json> cache;
  auto key = std::make_pair(seed, count);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  return cache[key] = json::parse(oracle_output("node tests/oracle/noble_vectors.mjs " + std::to_string(seed) + " " +
                                                std::to_string(count)));
}

}  // namespace cuzk::test
