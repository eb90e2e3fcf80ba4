#include "timing.hpp"

#include <ctime>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <unistd.h>

namespace cuzk::cli {

double process_age_s() {
  std::ifstream in("/proc/self/stat");
  const std::string stat{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  // The command's name (field 2) is in parentheses and may hold spaces or
  // parentheses of its own: the fields are counted from the last ')'.
  const size_t name_end = stat.rfind(')');
  if (name_end == std::string::npos) return -1;
  std::istringstream fields(stat.substr(name_end + 1));
  std::string field;
  // Fields 3 to 21, then 22: the start time in clock ticks since boot.
  for (int i = 3; i <= 21; ++i) fields >> field;
  unsigned long long start_ticks = 0;
  timespec now{};
  const long ticks_per_s = ::sysconf(_SC_CLK_TCK);
  if (!(fields >> start_ticks) || ticks_per_s <= 0 || ::clock_gettime(CLOCK_BOOTTIME, &now) != 0) return -1;
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec) -
         static_cast<double>(start_ticks) / static_cast<double>(ticks_per_s);
}

void report_process_age(const char* where) {
  if (!timing_lines()) return;
  const std::string stage = std::string("process age at ") + where;
  engine::report_stage(stage.c_str(), process_age_s());
}

}  // namespace cuzk::cli
