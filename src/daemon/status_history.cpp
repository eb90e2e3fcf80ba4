#include "status_history.hpp"

#include <algorithm>
#include <string_view>

namespace cuzk::daemon {

History::History(std::vector<std::string> devices, size_t capacity)
    : devices_(std::move(devices)), intervals_(capacity), busy_(devices_.size(), Ring<double>(capacity)) {}

void History::add(const Interval& interval, std::span<const double> busy, std::span<const unsigned> lanes) {
  intervals_.push(interval);
  const size_t n = intervals_.size();
  for (size_t d = 0; d < devices_.size(); ++d) {
    Ring<double>& shares = busy_[d];
    const double lane_count = d < lanes.size() && lanes[d] ? double(lanes[d]) : 1.0;
    double left = d < busy.size() ? std::max(busy[d], 0.0) / lane_count : 0.0;  // lane-seconds over one lane
    shares.push(0);
    for (size_t i = n; i-- > 0 && left > 0;) {
      const double seconds = intervals_[i].seconds;
      if (seconds <= 0) continue;
      const double take = std::min(left, (1 - shares[i]) * seconds);
      shares[i] += take / seconds;
      left -= take;
    }
  }
}

double History::proved_per_second(double window) const {
  double seconds = 0, proved = 0;
  for (size_t i = intervals_.size(); i-- > 0 && seconds < window;) {
    seconds += intervals_[i].seconds;
    proved += double(intervals_[i].proved);
  }
  return seconds > 0 ? proved / seconds : 0;
}

nlohmann::ordered_json History::to_json() const {
  using J = nlohmann::ordered_json;
  // One array a field, the intervals in order: what the page's charts plot.
  const auto column = [&](auto Interval::*field) {
    J values = J::array();
    for (size_t i = 0; i < intervals_.size(); ++i) values.push_back(intervals_[i].*field);
    return values;
  };
  J out = {{"end", column(&Interval::end)},       {"seconds", column(&Interval::seconds)},
           {"proved", column(&Interval::proved)}, {"failed", column(&Interval::failed)},
           {"queued", column(&Interval::queued)}, {"running", column(&Interval::running)}};
  J busy = J::array();
  for (size_t d = 0; d < devices_.size(); ++d) {
    J shares = J::array();
    for (size_t i = 0; i < busy_[d].size(); ++i) shares.push_back(busy_[d][i]);
    busy.push_back({{"device", devices_[d]}, {"share", std::move(shares)}});
  }
  out["busy"] = std::move(busy);
  return out;
}

std::string without_paths(const std::string& message) {
  std::string out;
  size_t i = 0;
  while (i < message.size()) {
    const size_t end = std::min(message.find(' ', i), message.size());
    const std::string_view word(message.data() + i, end - i);
    out += word.find('/') == std::string_view::npos ? std::string(word) : "<path>";
    if (end < message.size()) out += ' ';
    i = end + 1;
  }
  return out;
}

void FailureLog::add(Failure f) {
  f.message = without_paths(f.message);
  if (f.message.size() > kMessageBytes) f.message.resize(kMessageBytes);
  failures_.push(std::move(f));
}

nlohmann::ordered_json FailureLog::to_json() const {
  auto out = nlohmann::ordered_json::array();
  for (size_t i = failures_.size(); i-- > 0;) {
    const Failure& f = failures_[i];
    out.push_back({{"time", f.time},
                   {"job", f.job},
                   {"partition", f.partition},
                   {"key", f.key},
                   {"curve", f.curve},
                   {"reason", f.reason},
                   {"message", f.message}});
  }
  return out;
}

}  // namespace cuzk::daemon
