// Counts in plain English for summaries: "1 worker", "2 workers".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace cuzk {

// n and the noun, in the plural unless n is 1 (regular English plurals:
// "witnesses", "workers").
inline std::string count(size_t n, std::string_view noun) {
  std::string out = std::to_string(n) + " ";
  out += noun;
  if (n == 1) return out;
  const bool sibilant = noun.ends_with('s') || noun.ends_with('x') || noun.ends_with("ch") || noun.ends_with("sh");
  out += sibilant ? "es" : "s";
  return out;
}

}  // namespace cuzk
