// The status page's rings (src/daemon/status_history.hpp): bounded, oldest
// dropped first, busy time that ends late put back where it was spent.
#include <gtest/gtest.h>

#include "status_history.hpp"

namespace cuzk::daemon {
namespace {

History::Interval interval(double end, double seconds = 1, uint64_t proved = 0) {
  History::Interval v;
  v.end = end;
  v.seconds = seconds;
  v.proved = proved;
  return v;
}

TEST(StatusHistory, RingKeepsTheLatestOldestFirst) {
  Ring<int> r(3);
  for (int i = 1; i <= 7; ++i) r.push(i);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0], 5);
  EXPECT_EQ(r[1], 6);
  EXPECT_EQ(r[2], 7);
  Ring<int> none(0);
  none.push(1);
  EXPECT_EQ(none.size(), 0u);
}

TEST(StatusHistory, BusyShareOfEachInterval) {
  History h({"0", "1"}, 10);
  const double busy[] = {0.25, 1.0};
  const unsigned lanes[] = {1, 1};
  h.add(interval(100), busy, lanes);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_DOUBLE_EQ(h.busy(0, 0), 0.25);
  EXPECT_DOUBLE_EQ(h.busy(1, 0), 1.0);
}

// A kernel region of 2.5 s recorded when it ends fills the interval it ended
// in and goes back over the ones before, latest first, each up to 1.
TEST(StatusHistory, BusyRecordedLateGoesBackToTheIntervalsItSpanned) {
  History h({"0"}, 10);
  const unsigned lanes[] = {1};
  const double idle[] = {0.0}, partly[] = {0.5}, late[] = {2.5};
  h.add(interval(1), idle, lanes);
  h.add(interval(2), partly, lanes);  // 0.5 of room left
  h.add(interval(3), idle, lanes);
  h.add(interval(4), late, lanes);
  ASSERT_EQ(h.size(), 4u);
  EXPECT_DOUBLE_EQ(h.busy(0, 3), 1.0);
  EXPECT_DOUBLE_EQ(h.busy(0, 2), 1.0);
  EXPECT_DOUBLE_EQ(h.busy(0, 1), 1.0);
  EXPECT_DOUBLE_EQ(h.busy(0, 0), 0.0);
}

TEST(StatusHistory, BusyBeyondTheRingIsDroppedAndLanesDivide) {
  History h({"cpu"}, 2);
  const unsigned lanes[] = {4};
  const double some[] = {2.0}, lots[] = {40.0};
  h.add(interval(1, 1), some, lanes);  // 2 of 4 lanes for a second
  EXPECT_DOUBLE_EQ(h.busy(0, 0), 0.5);
  h.add(interval(2, 1), lots, lanes);  // 10 lane-seconds a lane: 1.5 fit
  EXPECT_DOUBLE_EQ(h.busy(0, 0), 1.0);
  EXPECT_DOUBLE_EQ(h.busy(0, 1), 1.0);
  h.add(interval(3, 1), some, lanes);  // the first interval leaves the ring
  ASSERT_EQ(h.size(), 2u);
  EXPECT_DOUBLE_EQ(h.busy(0, 0), 1.0);
  EXPECT_DOUBLE_EQ(h.busy(0, 1), 0.5);
  EXPECT_EQ(h.interval(0).end, 2);
}

TEST(StatusHistory, ProvedPerSecondOverTheLatestWindow) {
  History h({}, 100);
  EXPECT_EQ(h.proved_per_second(60), 0);
  for (int i = 0; i < 90; ++i) h.add(interval(i, 1, i < 30 ? 10 : 2), {}, {});
  EXPECT_DOUBLE_EQ(h.proved_per_second(60), 2.0);  // the first 30 s are older than the window
  EXPECT_DOUBLE_EQ(h.proved_per_second(90), (30 * 10 + 60 * 2) / 90.0);
}

TEST(StatusHistory, JsonHasOneColumnEntryPerInterval) {
  History h({"0"}, 3);
  const unsigned lanes[] = {1};
  const double busy[] = {0.5};
  for (int i = 0; i < 5; ++i) h.add(interval(i), busy, lanes);
  const auto j = h.to_json();
  for (const char* column : {"end", "seconds", "proved", "failed", "queued", "running"})
    EXPECT_EQ(j[column].size(), 3u) << column;
  ASSERT_EQ(j["busy"].size(), 1u);
  EXPECT_EQ(j["busy"][0]["device"], "0");
  EXPECT_EQ(j["busy"][0]["share"].size(), 3u);
  EXPECT_EQ(j["end"][0], 2);
}

TEST(StatusHistory, FailureLogKeepsTheLatestNewestFirstWithoutPaths) {
  FailureLog log(2);
  for (int i = 0; i < 5; ++i)
    log.add({double(i), uint64_t(100 + i), 1, "k" + std::to_string(i), "bn128", "invalid_argument",
             "witness /srv/w/" + std::to_string(i) + ".wtns: too short"});
  ASSERT_EQ(log.size(), 2u);
  const auto j = log.to_json();
  EXPECT_EQ(j[0]["key"], "k4");
  EXPECT_EQ(j[0]["job"], 104);
  EXPECT_EQ(j[0]["partition"], 1);
  EXPECT_EQ(j[1]["key"], "k3");
  EXPECT_EQ(j[0]["message"], "witness <path> too short");
}

TEST(StatusHistory, FailureMessagesAreCut) {
  FailureLog log(1);
  log.add({0, 1, 0, "k", "bn128", "internal", std::string(10000, 'x')});
  EXPECT_EQ(log.to_json()[0]["message"].get<std::string>().size(), FailureLog::kMessageBytes);
  EXPECT_EQ(without_paths("a b/c d"), "a <path> d");
  EXPECT_EQ(without_paths(""), "");
  EXPECT_EQ(without_paths("no paths here"), "no paths here");
}

}  // namespace
}  // namespace cuzk::daemon
