// The kernel's flags for this process's memory, for tests of what stays out
// of core dumps (MADV_DONTDUMP is "dd").
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

namespace cuzk::test {

// The VmFlags line of the mapping of this process that holds `address`.
inline std::string vm_flags_of(const void* address) {
  std::ifstream smaps("/proc/self/smaps");
  const auto at = reinterpret_cast<uintptr_t>(address);
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    unsigned long begin = 0, end = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx", &begin, &end) == 2) inside = begin <= at && at < end;  // a mapping's first line
    else if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return "";
}

// Whether the mapping that holds `address` is left out of core dumps.
inline bool out_of_core_dumps(const void* address) {
  return (vm_flags_of(address) + " ").find(" dd ") != std::string::npos;
}

}  // namespace cuzk::test
