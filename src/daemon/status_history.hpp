// What cuzkd's status page (status_page.hpp) shows that the service does not
// keep, each in a ring of fixed size, so that a daemon that runs for months
// holds the same few kilobytes as one that just started:
//   - History: per sampling interval, each device's busy share, the
//     partitions proved and failed, and the queue at the interval's end;
//   - FailureLog: the latest failed partitions with their reasons.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cuzk::daemon {

// The latest `capacity` values pushed; index 0 is the oldest kept.
template <class T>
class Ring {
 public:
  explicit Ring(size_t capacity) : capacity_(capacity) { items_.reserve(capacity); }
  void push(T value) {
    if (capacity_ == 0) return;
    if (items_.size() < capacity_) {
      items_.push_back(std::move(value));
      return;
    }
    items_[head_] = std::move(value);
    head_ = (head_ + 1) % capacity_;
  }
  size_t size() const { return items_.size(); }
  size_t capacity() const { return capacity_; }
  T& operator[](size_t i) { return items_[(head_ + i) % items_.size()]; }
  const T& operator[](size_t i) const { return items_[(head_ + i) % items_.size()]; }

 private:
  size_t capacity_;
  std::vector<T> items_;
  size_t head_ = 0;  // the oldest, once full
};

class History {
 public:
  // `devices` names the busy series ("0", "1": GPUs; "cpu"); `capacity`
  // intervals are kept.
  History(std::vector<std::string> devices, size_t capacity);

  struct Interval {
    double end = 0;      // Unix seconds
    double seconds = 0;  // its length
    uint64_t proved = 0, failed = 0;  // partitions that ended in it
    uint64_t queued = 0, running = 0;  // at its end
  };
  // One interval. `busy` holds, per device (in the constructor's order), the
  // busy seconds recorded during it, and `lanes` how many units of work the
  // device runs at once (1 for a GPU, whose kernel lock admits one worker);
  // a share is busy / (seconds × lanes). Busy time is recorded when the work
  // that took it ends, so a share above 1 is work that began earlier: the
  // excess goes back to the intervals before, latest first, each up to 1,
  // and what finds no room (older than the ring) is dropped.
  void add(const Interval& interval, std::span<const double> busy, std::span<const unsigned> lanes);

  const std::vector<std::string>& devices() const { return devices_; }
  size_t size() const { return intervals_.size(); }
  // Device d's busy share of the kept interval i (0: the oldest).
  double busy(size_t d, size_t i) const { return busy_[d][i]; }
  const Interval& interval(size_t i) const { return intervals_[i]; }
  // Partitions proved per second over the latest intervals that span up to
  // `window` seconds; 0 before the first.
  double proved_per_second(double window) const;

  // The kept intervals as columns (docs/DAEMON.md, "history"): end times,
  // lengths, proved, failed, queued, running, and per device its shares.
  nlohmann::ordered_json to_json() const;

 private:
  std::vector<std::string> devices_;
  Ring<Interval> intervals_;
  std::vector<Ring<double>> busy_;  // per device, in step with intervals_
};

// `message` with each word that holds a '/' as "<path>": the metrics
// address shows no path (docs/SECURITY.md).
std::string without_paths(const std::string& message);

struct Failure {
  double time = 0;  // Unix seconds
  uint64_t job = 0;
  size_t partition = 0;
  std::string key, curve, reason, message;
};

// The latest failed partitions, their messages without paths and cut to
// kMessageBytes, so that the log's size has a bound whatever they say.
class FailureLog {
 public:
  static constexpr size_t kMessageBytes = 512;
  explicit FailureLog(size_t capacity) : failures_(capacity) {}
  void add(Failure f);
  // Newest first.
  nlohmann::ordered_json to_json() const;
  size_t size() const { return failures_.size(); }

 private:
  Ring<Failure> failures_;
};

}  // namespace cuzk::daemon
