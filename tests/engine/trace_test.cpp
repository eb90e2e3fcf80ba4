// The pipeline's instrumentation: spans recorded from many threads, the Chrome
// trace file's structure, and the summary's statistics on spans whose answers
// are worked out by hand.
#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "cuzk/engine/trace.hpp"

namespace cuzk::engine {
namespace {

using Kind = Track::Kind;

Span span(Stage stage, Track track, double start, double end, uint64_t bytes = 0, uint32_t partition = 0) {
  Span s;
  s.stage = stage;
  s.track = track;
  s.start = start;
  s.end = end;
  s.bytes = bytes;
  s.partition = partition;
  return s;
}

TEST(Trace, NamesAreDistinct) {
  std::set<std::string> names;
  for (Stage s : kStages) names.insert(stage_name(s));
  EXPECT_EQ(names.size(), kStageCount);
  EXPECT_EQ(track_name({Kind::worker, 0, 1}), "GPU 0 worker 1");
  EXPECT_EQ(track_name({Kind::worker, -1, 2}), "CPU worker 2");
  EXPECT_EQ(track_name({Kind::copy, 2, 0}), "GPU 2 copy 0");
  EXPECT_EQ(track_name({Kind::synthesis, -1, 3}), "synthesis 3");
  EXPECT_EQ(track_name({Kind::finalizer, -1, 0}), "finalizer 0");
}

TEST(Trace, RecordsFromManyThreads) {
  Recorder r(false);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&r, t] {
      for (uint32_t i = 0; i < 1000; ++i) {
        Recorder::Scope scope(r, span(Stage::synthesis, {Kind::synthesis, -1, t}, 0, 0, 0, i));
      }
    });
  for (auto& t : threads) t.join();
  const auto spans = r.spans();
  ASSERT_EQ(spans.size(), 8000u);
  for (const Span& s : spans) EXPECT_LE(s.start, s.end);
  EXPECT_THROW(r.record(span(Stage::ntt, {}, 2.0, 1.0)), std::invalid_argument);
}

// A recorder keeps its latest spans, oldest first, and counts the rest: what
// a process proving for ever holds stays bounded.
TEST(Trace, KeepsTheLatestSpansWithinItsCapacity) {
  Recorder r(false, 4);
  for (uint32_t p = 0; p < 10; ++p) r.record(span(Stage::ntt, {}, p, p + 1, 0, p));
  const auto spans = r.spans();
  ASSERT_EQ(spans.size(), 4u);
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(spans[i].partition, 6 + i);
  EXPECT_EQ(r.dropped(), 6u);
  Recorder unfilled(false, 4);
  unfilled.record(span(Stage::ntt, {}, 0, 1, 0, 7));
  ASSERT_EQ(unfilled.spans().size(), 1u);
  EXPECT_EQ(unfilled.spans()[0].partition, 7u);
  EXPECT_EQ(unfilled.dropped(), 0u);
  // Capacity 0 keeps no span but every total, as cuzkd's metrics need.
  Recorder totals_only(false, 0);
  for (uint32_t p = 0; p < 3; ++p) totals_only.record(span(Stage::ntt, {}, p, p + 2, 0, p));
  EXPECT_TRUE(totals_only.spans().empty());
  EXPECT_EQ(totals_only.dropped(), 3u);
  const StageTotal ntt = totals_only.totals().at(-1)[(size_t)Stage::ntt];  // a copy: totals() is a value
  EXPECT_EQ(ntt.count, 3u);
  EXPECT_DOUBLE_EQ(ntt.seconds, 6.0);
}

// A recorder turned off (cuzk's CUZK_SPANS=0) keeps nothing and totals
// nothing, so that a run with and without spans shows what recording costs.
TEST(Trace, ARecorderTurnedOffKeepsNothing) {
  Recorder off(false, Recorder::kDefaultCapacity, false);
  off.record(span(Stage::ntt, {Kind::worker, 0, 0}, 0.0, 1.0));
  EXPECT_TRUE(off.spans().empty());
  EXPECT_TRUE(off.totals().empty());
  EXPECT_EQ(off.dropped(), 0u);
  EXPECT_GE(off.now(), 0.0);
}

TEST(Trace, ChromeTraceHasOneNamedThreadPerTrack) {
  const Track w0{Kind::worker, 0, 0}, w1{Kind::worker, 0, 1}, copy{Kind::copy, 0, 0}, fin{Kind::finalizer, -1, 0};
  const std::vector<Span> spans = {span(Stage::msm_a, w0, 0.001, 0.003), span(Stage::upload, copy, 0, 0.002, 1 << 20),
                                   span(Stage::msm_h, w1, 0.002, 0.004), span(Stage::msm_b1, w0, 0.003, 0.005),
                                   span(Stage::verify, fin, 0.005, 0.006)};
  // Through text and back: what a viewer reads.
  const auto j = nlohmann::json::parse(chrome_trace(spans).dump());
  ASSERT_TRUE(j.contains("traceEvents"));
  std::map<int, std::string> thread_names;
  std::map<std::string, std::set<int>> tids_of_stage;
  size_t complete = 0;
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] == "M") {
      EXPECT_EQ(e["name"], "thread_name");
      EXPECT_TRUE(thread_names.emplace(e["tid"].get<int>(), e["args"]["name"].get<std::string>()).second);
    } else {
      ASSERT_EQ(e["ph"], "X");
      ++complete;
      tids_of_stage[e["name"].get<std::string>()].insert(e["tid"].get<int>());
      EXPECT_GE(e["dur"].get<double>(), 0);
    }
  }
  EXPECT_EQ(complete, spans.size());
  ASSERT_EQ(thread_names.size(), 4u);  // four tracks
  std::set<std::string> names;
  for (const auto& [tid, name] : thread_names) names.insert(name);
  EXPECT_EQ(names, (std::set<std::string>{"GPU 0 worker 0", "GPU 0 worker 1", "GPU 0 copy 0", "finalizer 0"}));
  // Spans of one track share its thread; different tracks do not.
  EXPECT_EQ(thread_names.at(*tids_of_stage["msm A"].begin()), "GPU 0 worker 0");
  EXPECT_EQ(tids_of_stage["msm A"], tids_of_stage["msm B1"]);
  EXPECT_NE(tids_of_stage["msm A"], tids_of_stage["msm H"]);
  // Microseconds.
  for (const auto& e : j["traceEvents"])
    if (e["ph"] == "X" && e["name"] == "upload") {
      EXPECT_DOUBLE_EQ(e["ts"].get<double>(), 0);
      EXPECT_NEAR(e["dur"].get<double>(), 2000, 1e-6);
      EXPECT_EQ(e["args"]["bytes"], 1 << 20);
    }
}

TEST(Trace, SummaryStatistics) {
  std::vector<Span> spans;
  // Synthesis spans of 1, 2, ..., 100 ms: median 50 ms and p95 95 ms by nearest rank.
  for (int i = 1; i <= 100; ++i) spans.push_back(span(Stage::synthesis, {Kind::synthesis, -1, 0}, 0, 1e-3 * i));
  // GPU 0: kernels over [0, 1] ∪ [0.5, 2] ∪ [3, 4] = 3 s of 4; GPU 1: [0, 2] = 2 s of 4.
  spans.push_back(span(Stage::ntt, {Kind::worker, 0, 0}, 0, 1));
  spans.push_back(span(Stage::msm_h, {Kind::worker, 0, 1}, 0.5, 2));
  spans.push_back(span(Stage::msm_a, {Kind::worker, 0, 0}, 3, 4));
  spans.push_back(span(Stage::msm_b2, {Kind::worker, 1, 0}, 0, 2));
  // A lock wait is not kernel time, even on a worker track.
  spans.push_back(span(Stage::lock_wait, {Kind::worker, 1, 0}, 2, 4));
  spans.push_back(span(Stage::lock_held, {Kind::worker, 1, 0}, 0, 0.25));
  // 2 GB in 40 ms plus 1 GB in 20 ms: 50 GB/s.
  spans.push_back(span(Stage::upload, {Kind::copy, 0, 0}, 0, 0.04, 2'000'000'000));
  spans.push_back(span(Stage::upload, {Kind::copy, 1, 0}, 0, 0.02, 1'000'000'000));

  const Summary s = summarize(spans);
  EXPECT_DOUBLE_EQ(s.wall, 4.0);
  ASSERT_FALSE(s.stages.empty());
  EXPECT_EQ(s.stages[0].stage, Stage::synthesis);
  EXPECT_EQ(s.stages[0].count, 100u);
  EXPECT_NEAR(s.stages[0].median, 0.050, 1e-12);
  EXPECT_NEAR(s.stages[0].p95, 0.095, 1e-12);
  EXPECT_NEAR(s.stages[0].total, 5.050, 1e-9);
  EXPECT_EQ(s.gpus, 2u);
  EXPECT_NEAR(s.gpu_busy, (3.0 / 4 + 2.0 / 4) / 2, 1e-12);
  // Steady state: GPU 0 from its first kernel (0) to its last (4), GPU 1 over [0, 2].
  EXPECT_NEAR(s.gpu_busy_steady, (3.0 / 4 + 2.0 / 2) / 2, 1e-12);
  EXPECT_NEAR(s.upload_gbps, 50.0, 1e-9);
  EXPECT_DOUBLE_EQ(s.lock_wait, 2.0);
  EXPECT_DOUBLE_EQ(s.lock_held, 0.25);
  // Stages in their declared order, each once.
  for (size_t i = 1; i < s.stages.size(); ++i) EXPECT_LT(s.stages[i - 1].stage, s.stages[i].stage);

  const std::string text = format_summary(s);
  EXPECT_NE(text.find("synthesis"), std::string::npos);
  EXPECT_NE(text.find("GPU busy 62.5% (steady state 87.5%)"), std::string::npos) << text;
  EXPECT_NE(text.find("upload 50.0 GB/s"), std::string::npos) << text;
  EXPECT_NE(text.find("lock wait 2000.0 ms, held 250.0 ms"), std::string::npos) << text;
}

TEST(Trace, EmptyAndCpuOnlyRuns) {
  const Summary empty = summarize({});
  EXPECT_TRUE(empty.stages.empty());
  EXPECT_EQ(empty.gpu_busy, 0);
  // CPU workers' stages are not GPU time.
  const std::vector<Span> cpu = {span(Stage::synthesis, {Kind::synthesis, -1, 0}, 1, 2),
                                 span(Stage::msm_h, {Kind::worker, -1, 0}, 1, 2),
                                 span(Stage::verify, {Kind::finalizer, -1, 0}, 2, 3)};
  const Summary s = summarize(cpu);
  EXPECT_DOUBLE_EQ(s.wall, 2.0);
  EXPECT_EQ(s.gpu_busy, 0);
  EXPECT_EQ(s.upload_gbps, 0);
  EXPECT_EQ(s.stages.size(), 3u);
  EXPECT_EQ(s.gpus, 0u);
  // A CPU run's summary says nothing of GPUs, uploads or the GPU lock.
  const std::string text = format_summary(s);
  EXPECT_NE(text.find("wall 2.000 s"), std::string::npos) << text;
  for (const char* absent : {"GPU", "upload", "lock"}) EXPECT_EQ(text.find(absent), std::string::npos) << text;
}

// The totals count every span, the overwritten ones too, per GPU and stage.
TEST(Trace, TotalsCountEverySpanPerGpuAndStage) {
  Recorder r(false, 4);
  for (int i = 0; i < 10; ++i) r.record(Span{Stage::upload, {Track::Kind::copy, 1, 0}, 0, (uint32_t)i, 1.0, 1.5, 100});
  r.record(Span{Stage::lock_held, {Track::Kind::worker, 1, 0}, 0, 0, 2.0, 2.25});
  r.record(Span{Stage::synthesis, {Track::Kind::synthesis, -1, 0}, 0, 0, 0.0, 3.0});
  const StageTotals t = r.totals();
  ASSERT_EQ(t.size(), 2u);
  const auto& gpu = t.at(1)[(size_t)Stage::upload];
  EXPECT_EQ(gpu.count, 10u);
  EXPECT_DOUBLE_EQ(gpu.seconds, 5.0);
  EXPECT_EQ(gpu.bytes, 1000u);
  EXPECT_DOUBLE_EQ(t.at(1)[(size_t)Stage::lock_held].seconds, 0.25);
  EXPECT_EQ(t.at(-1)[(size_t)Stage::synthesis].count, 1u);
  EXPECT_EQ(r.spans().size(), 4u);
}

}  // namespace
}  // namespace cuzk::engine
