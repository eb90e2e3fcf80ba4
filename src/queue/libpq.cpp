#include "libpq.hpp"

#include <dlfcn.h>

#include <stdexcept>
#include <string>

namespace cuzk::queue {
namespace {

struct Loaded {
  LibPq functions;
  std::string error;  // empty once every function resolved
};

void* open_libpq(std::string& error) {
  for (const char* name : {"libpq.so.5", CUZK_LIBPQ_PATH}) {
    if (void* lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)) return lib;
    if (const char* why = dlerror()) error = why;
  }
  return nullptr;
}

Loaded load() {
  Loaded loaded;
  std::string why;
  void* lib = open_libpq(why);
  if (!lib) {
    loaded.error = "the job queue needs libpq (libpq.so.5; Debian's libpq5): " + why;
    return loaded;
  }
#define CUZK_LIBPQ_RESOLVE(name)                                                              \
  loaded.functions.name = reinterpret_cast<decltype(&PQ##name)>(dlsym(lib, "PQ" #name));     \
  if (!loaded.functions.name && loaded.error.empty()) loaded.error = "libpq has no PQ" #name;
  CUZK_LIBPQ_FUNCTIONS(CUZK_LIBPQ_RESOLVE)
#undef CUZK_LIBPQ_RESOLVE
  return loaded;
}

}  // namespace

const LibPq& libpq() {
  // Never unloaded: connections may outlive any owner but the process.
  static const Loaded loaded = load();
  if (!loaded.error.empty()) throw std::runtime_error(loaded.error);
  return loaded.functions;
}

}  // namespace cuzk::queue
