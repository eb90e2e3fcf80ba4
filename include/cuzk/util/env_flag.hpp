// A switch a front end documents as an environment variable (CUZK_TIMING,
// CUZK_SPANS, CUZK_PROGRESS): "0" is off, any other value on, unset or empty
// the default. Only front ends call it; the layers below take what it says
// as options.
#pragma once

#include <cstdlib>
#include <cstring>

namespace cuzk {

inline bool env_flag(const char* name, bool otherwise) {
  const char* v = std::getenv(name);
  if (!v || !*v) return otherwise;
  return std::strcmp(v, "0") != 0;
}

}  // namespace cuzk
