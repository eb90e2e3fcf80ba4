// What an exception says, whatever its type: the one line every layer that
// catches everything (the engine's stages, the service's error taxonomy)
// reports.
#pragma once

#include <exception>
#include <new>
#include <string>

namespace cuzk {

inline std::string exception_message(const std::exception_ptr& e) {
  if (!e) return {};
  try {
    std::rethrow_exception(e);
  } catch (const std::bad_alloc&) {
    return "out of host memory";
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

}  // namespace cuzk
