// What the cuzk bench commands share: medians, the repeat loop, the printed
// table and the optional JSON file.
#pragma once

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cuzk/io/json.hpp"
#include "output.hpp"

namespace cuzk::cli {

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// f() once to warm up, then `repeat` more times; the median of what f returns.
template <class F>
double warm_median(int repeat, F&& f) {
  f();
  std::vector<double> v;
  for (int i = 0; i < repeat; ++i) v.push_back(f());
  return median(std::move(v));
}

inline void check_repeat(int repeat) {
  if (repeat < 1) throw std::invalid_argument("--repeat must be at least 1");
}

// The threads a --threads value means (0: all).
inline unsigned thread_count(unsigned requested) {
  return requested ? requested : std::max(1u, std::thread::hardware_concurrency());
}

// One column of a table: the row key it shows, its heading and width, and the
// decimals of a floating-point value. Strings are left-aligned, numbers right;
// a row without the key (or with null) shows "-".
struct Column {
  const char* key;
  const char* heading;
  int width;
  int decimals = 1;
};

// rows: an array of objects; printed two spaces in, one line per row.
inline void print_table(const nlohmann::ordered_json& rows, std::initializer_list<Column> columns) {
  const auto is_text = [&](const Column& c) {
    for (const auto& r : rows)
      if (r.contains(c.key) && !r[c.key].is_null()) return r[c.key].is_string();
    return false;
  };
  std::printf(" ");
  for (const Column& c : columns) std::printf(is_text(c) ? " %-*s" : " %*s", c.width, c.heading);
  std::printf("\n");
  for (const auto& r : rows) {
    std::printf(" ");
    for (const Column& c : columns) {
      const auto v = r.contains(c.key) ? r[c.key] : nlohmann::ordered_json();
      if (v.is_string()) std::printf(" %-*s", c.width, v.get<std::string>().c_str());
      else if (v.is_number_integer()) std::printf(" %*lld", c.width, v.get<long long>());
      else if (v.is_number()) std::printf(" %*.*f", c.width, c.decimals, v.get<double>());
      else std::printf(" %*s", c.width, "-");
    }
    std::printf("\n");
  }
}

// A benchmark's --json and --trace files, checked before it runs
// (output.hpp): a rerun replaces its own JSON, but nothing else.
inline void check_json_outputs(std::initializer_list<std::string> paths) {
  for (const auto& p : paths)
    if (!p.empty()) check_output(p, FileKind::report, /*force=*/true);
}

// Writes the figures to `path` when one was given (--json).
inline void write_json_if(const std::string& path, const nlohmann::ordered_json& j) {
  if (!path.empty()) io::write_json_file(path, j);
}

}  // namespace cuzk::cli
