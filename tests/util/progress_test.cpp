// util/progress.hpp: the rendering at fixed moments, the counter under
// concurrent adds, and what a step writes (nothing when short, lines or a bar
// when long, one step at a time).
#include "cuzk/util/progress.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace cuzk {
namespace {

ProgressState at(uint64_t done, uint64_t total, double elapsed, std::string_view unit = "points") {
  return {"setup", unit, done, total, elapsed};
}

TEST(ProgressRender, Bar) {
  // 150 points/s; 550 left take 3.7 s.
  EXPECT_EQ(render_bar(at(450, 1000, 3.0), 10), "setup [####      ] 45% 150 points/s ETA 0:04");
  EXPECT_EQ(render_bar(at(4'500'000, 10'000'000, 3.75), 20),
            "setup [#########           ] 45% 1.2 M points/s ETA 0:05");
  EXPECT_EQ(render_bar(at(0, 1000, 0.5), 4), "setup [    ] 0% 0 points/s ETA -:--");
  EXPECT_EQ(render_bar(at(1000, 1000, 2.0), 4), "setup [####] 100% 500 points/s ETA 0:00");
  EXPECT_EQ(render_bar(at(1, 3601, 1.0), 2), "setup [  ] 0% 1 points/s ETA 1:00:00");
  // A short unit joins its prefix.
  EXPECT_EQ(render_bar(at(5'000'000'000, 10'000'000'000, 2.0, "B"), 2), "setup [# ] 50% 2.5 GB/s ETA 0:02");
  // An unknown total: the count and the rate alone.
  EXPECT_EQ(render_bar(at(1500, 0, 2.0), 10), "setup 1.5 k points 750 points/s");
}

TEST(ProgressRender, LineAndEnd) {
  EXPECT_EQ(render_line(at(4'500'000, 10'000'000, 3.75)), "setup: 45% (4.5 M of 10.0 M points), 1.2 M points/s, ETA 0:05");
  EXPECT_EQ(render_end(at(12'000'000, 12'000'000, 10.0)), "setup: done, 12.0 M points in 10.0 s (1.2 M points/s)");
  EXPECT_EQ(render_end(at(4'500'000, 10'000'000, 90.0)), "setup: stopped at 45%, 4.5 M points in 1:30 (50.0 k points/s)");
}

TEST(Progress, CountsAddsFromManyThreads) {
  set_progress_output({});
  Progress p("count", 8 * 100000, "items");
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 100000; ++i) p.add(1);
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(p.done(), 8u * 100000);
}

// Runs `step` with progress going to a temporary file; returns what it wrote.
// step(drawn) may call drawn(text) to wait until the drawing thread has
// written `text` (at most 30 s, then the test fails).
template <class F>
std::string written(ProgressOutput o, F step) {
  std::FILE* f = std::tmpfile();
  o.out = f;
  set_progress_output(o);
  const auto so_far = [&] {
    // The drawer flushes each line; read them through the descriptor, not
    // the FILE, whose position is the drawer's.
    std::string text(1 << 16, '\0');
    const ssize_t n = ::pread(::fileno(f), text.data(), text.size(), 0);
    text.resize(n > 0 ? size_t(n) : 0);
    return text;
  };
  const auto drawn = [&](const std::string& part) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (so_far().find(part) == std::string::npos) {
      if (std::chrono::steady_clock::now() > until) {
        ADD_FAILURE() << "\"" << part << "\" was not drawn in 30 s; drawn: " << so_far();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  };
  step(drawn);
  set_progress_output({});
  std::string text(std::ftell(f), '\0');
  std::rewind(f);
  text.resize(std::fread(text.data(), 1, text.size(), f));
  std::fclose(f);
  return text;
}

TEST(Progress, AShortStepShowsNothing) {
  EXPECT_EQ(written({.delay = 60}, [](auto) {
              Progress p("short", 10, "items");
              p.add(10);
            }),
            "");
}

TEST(Progress, ALongStepWritesLinesAndAnEnd) {
  const std::string text = written({.delay = 0, .line_period = 60}, [](auto drawn) {
    Progress p("long", 10, "items");
    drawn("long: 0%");  // the first line is drawn at once, at 0%
    p.add(10);
  });
  EXPECT_TRUE(text.starts_with("long: 0% (0 of 10 items), ")) << text;
  EXPECT_NE(text.find("\nlong: done, 10 items in "), std::string::npos) << text;
  EXPECT_TRUE(text.ends_with(")\n")) << text;
}

TEST(Progress, OnATerminalABarIsRedrawnInPlace) {
  const std::string text = written({.terminal = true, .delay = 0, .period = 60}, [](auto drawn) {
    Progress p("bar", 4, "items");
    drawn("\rbar [");
    p.add(4);
  });
  EXPECT_TRUE(text.starts_with("\rbar [                              ] 0% ")) << text;
  EXPECT_NE(text.find("\033[K\rbar: done, 4 items in "), std::string::npos) << text;
  EXPECT_TRUE(text.ends_with("\033[K\n")) << text;
}

TEST(Progress, OneStepIsDrawnAtATime) {
  const std::string text = written({.delay = 0, .line_period = 60}, [](auto drawn) {
    Progress first("first", 1, "items"), second("second", 1, "items");
    drawn("first: ");
  });
  EXPECT_NE(text.find("first: "), std::string::npos) << text;
  EXPECT_EQ(text.find("second"), std::string::npos) << text;
  // The display is free again.
  const std::string next = written({.delay = 0, .line_period = 60}, [](auto drawn) {
    Progress p("next", 1, "items");
    drawn("next: ");
  });
  EXPECT_TRUE(next.starts_with("next: ")) << next;
}

TEST(Progress, StoppedEarlySaysSo) {
  const std::string text = written({.delay = 0, .line_period = 60}, [](auto drawn) {
    Progress p("early", 4, "items");
    p.add(1);
    drawn("early: ");  // shown, so its end is written
  });
  EXPECT_NE(text.find("early: stopped at 25%, 1 items in "), std::string::npos) << text;
}

}  // namespace
}  // namespace cuzk
