// cuzkd's status page (src/daemon/status_page.hpp) against a real cuzkd on
// the CPU: a few jobs, one partition of them failing, then
//   - /status.json: its figures are /metrics's, the failure is listed with
//     its reason, the page and its files are served with their policy;
//   - StatusPageBrowser (CTest daemon_status_page_browser_test, label
//     browser, where Chromium is found: CUZK_CHROMIUM): the page opened in
//     headless Chromium shows the same figures and the failure once its
//     script ran, and a screenshot is saved beside the build
//     (CUZK_STATUS_SHOT) as the test's artifact.
#include <cstdlib>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "daemon_support.hpp"

namespace cuzk::test {
namespace {

v1::Partition faulty() {
  v1::Partition p = wtns_partition("bn128", "multiplier");
  p.set_name("fault:throw");
  return p;
}

// A cuzkd with one key that has proved four partitions in three jobs and
// failed the second partition of the third.
class Loaded {
 public:
  Loaded() {
    ::setenv("CUZK_TEST_FAULTS", "1", 1);
    daemon_ = std::make_unique<Daemon>(dir_.path(), key_entry("mult", fixture("bn128", "multiplier", "circuit.zkey")));
    ::unsetenv("CUZK_TEST_FAULTS");
    prove({wtns_partition("bn128", "multiplier"), wtns_partition("bn128", "multiplier")});
    prove({wtns_partition("bn128", "multiplier")});
    failed_job_ = prove({wtns_partition("bn128", "multiplier"), faulty()});
  }
  Daemon& daemon() { return *daemon_; }
  int port() const { return daemon_->metrics_port(); }
  const fs::path& dir() const { return dir_.path(); }
  // The job whose second partition failed.
  uint64_t failed_job() const { return failed_job_; }

  // /status.json once the sampler has seen every partition.
  nlohmann::json settled_status() {
    nlohmann::json j;
    const bool settled = eventually(
        [&] {
          j = nlohmann::json::parse(http_get(port(), "/status.json").body);
          return j["totals"]["partitions_proved"] == 4 && j["totals"]["partitions_failed"] == 1;
        },
        10s);
    EXPECT_TRUE(settled) << j.dump(1);
    return j;
  }

 private:
  uint64_t prove(const std::vector<v1::Partition>& partitions) {
    v1::SubmitRequest req;
    req.set_key_id("mult");
    for (const auto& p : partitions) *req.add_partitions() = p;
    v1::JobResult result;
    const auto s = daemon_->stub().Prove(context().get(), req, &result);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return result.job_id();
  }
  TempDir dir_;
  std::unique_ptr<Daemon> daemon_;
  uint64_t failed_job_ = 0;
};

// The value of an unlabelled series of /metrics, or the sum of a labelled
// family's series.
double metric(const std::string& text, const std::string& name) {
  double sum = 0;
  const std::regex line("^" + name + "(\\{[^}]*\\})? ([0-9.e+-]+)$", std::regex::multiline);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), line); it != std::sregex_iterator(); ++it)
    sum += std::stod((*it)[2]);
  return sum;
}

TEST(StatusPage, StatusJsonAgreesWithMetricsAndListsTheFailure) {
  Loaded l;
  const nlohmann::json s = l.settled_status();
  const std::string metrics = http_get(l.port(), "/metrics").body;
  EXPECT_EQ(s["schema"], 1);
  EXPECT_EQ(s["backend"], "cpu");
  EXPECT_EQ(double(s["totals"]["partitions_proved"]), metric(metrics, "cuzk_partitions_proved_total"));
  EXPECT_EQ(double(s["totals"]["partitions_failed"]), metric(metrics, "cuzk_partitions_failed_total"));
  EXPECT_EQ(double(s["totals"]["jobs_submitted"]), metric(metrics, "cuzk_jobs_submitted_total"));
  EXPECT_EQ(s["totals"]["partitions_failed_by_reason"]["internal"], 1);

  ASSERT_EQ(s["failures"].size(), 1u) << s["failures"];
  EXPECT_EQ(s["failures"][0]["job"], l.failed_job());
  EXPECT_EQ(s["failures"][0]["partition"], 1);
  EXPECT_EQ(s["failures"][0]["key"], "mult");
  EXPECT_EQ(s["failures"][0]["reason"], "internal");
  EXPECT_NE(s["failures"][0]["message"].get<std::string>().find("injected fault"), std::string::npos);

  ASSERT_EQ(s["keys"].size(), 1u);
  EXPECT_EQ(s["keys"][0]["id"], "mult");
  EXPECT_GT(s["keys"][0]["host_bytes"], 0);
  EXPECT_EQ(s["keys"][0]["gpus"], nlohmann::json::array()) << "the CPU backend holds no key on a GPU";
  EXPECT_EQ(s["gpus"].size(), 0u);
  EXPECT_EQ(s["queue"]["queued_partitions"], 0);
  EXPECT_TRUE(s["fleet"].is_null());
  // The CPU's stages of the partitions proved, each with a median and p95.
  std::set<std::string> stages;
  for (const auto& st : s["stages"]["stages"]) {
    stages.insert(st["stage"]);
    EXPECT_LE(st["median_s"], st["p95_s"]);
  }
  for (const char* stage : {"synthesis", "ntt", "finish"}) EXPECT_TRUE(stages.count(stage)) << stage;
  // One busy series, the CPU's, as long as the other columns.
  const auto& h = s["history"];
  ASSERT_EQ(h["busy"].size(), 1u);
  EXPECT_EQ(h["busy"][0]["device"], "cpu");
  EXPECT_EQ(h["busy"][0]["share"].size(), h["end"].size());
  double proved = 0;
  for (const auto& n : h["proved"]) proved += double(n);
  EXPECT_EQ(proved, 4);
}

TEST(StatusPage, ThePageAndItsFilesAreServedWithTheirPolicy) {
  TempDir dir;
  Daemon d(dir.path(), "");
  const HttpReply page = http_get(d.metrics_port(), "/");
  ASSERT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("<script src=\"/app.js\""), std::string::npos);
  EXPECT_EQ(page.body.find("http"), std::string::npos) << "the page names nothing outside the daemon";
  for (const char* file : {"/app.js", "/app.css", "/uplot.js", "/uplot.css"}) {
    const HttpReply r = http_get(d.metrics_port(), file);
    EXPECT_EQ(r.status, 200) << file;
    EXPECT_GT(r.body.size(), 500u) << file;
  }
  EXPECT_EQ(http_get(d.metrics_port(), "/no-such-file").status, 404);
  EXPECT_EQ(http_get(d.metrics_port(), "/status.json").status, 200);
}

#if defined(CUZK_CHROMIUM)
// Chromium, headless, on `url` with `args`; its standard output.
std::string chromium(const fs::path& profile, const std::string& url, std::vector<std::string> args) {
  std::vector<std::string> argv{CUZK_CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                "--disable-dev-shm-usage", "--user-data-dir=" + profile.string(),
                                // Long enough in virtual time for the script to load, fetch and draw.
                                "--virtual-time-budget=5000"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back(url);
  const ProcessResult r = run_process(argv, 120s);
  EXPECT_TRUE(r.exited() && r.exit_code == 0) << describe(argv, r);
  return r.out;
}

// The text of the element with `id` in the dumped DOM (no markup inside it).
std::string element_text(const std::string& dom, const std::string& id) {
  std::smatch m;
  if (!std::regex_search(dom, m, std::regex("id=\"" + id + "\"[^>]*>([^<]*)<"))) return "(no #" + id + ")";
  return m[1];
}

// The markup of the table with `id`.
std::string table(const std::string& dom, const std::string& id) {
  const size_t at = dom.find("id=\"" + id + "\"");
  if (at == std::string::npos) return "";
  return dom.substr(at, dom.find("</table>", at) - at);
}

TEST(StatusPageBrowser, ThePageShowsWhatMetricsSayAndTheFailure) {
  Loaded l;
  l.settled_status();
  const std::string metrics = http_get(l.port(), "/metrics").body;
  const std::string url = "http://127.0.0.1:" + std::to_string(l.port()) + "/";
  const std::string dom = chromium(l.dir() / "chromium", url, {"--dump-dom"});
  ASSERT_NE(dom.find("data-updated="), std::string::npos) << "the script did not draw:\n" << dom;

  EXPECT_EQ(element_text(dom, "partitions-proved"), std::to_string(int(metric(metrics, "cuzk_partitions_proved_total"))));
  EXPECT_EQ(element_text(dom, "partitions-failed"), std::to_string(int(metric(metrics, "cuzk_partitions_failed_total"))));
  EXPECT_EQ(element_text(dom, "jobs-submitted"), std::to_string(int(metric(metrics, "cuzk_jobs_submitted_total"))));
  EXPECT_EQ(element_text(dom, "backend"), "cpu");

  const std::string failures = table(dom, "failures-table");
  EXPECT_NE(failures.find("<td>mult</td>"), std::string::npos) << failures;
  EXPECT_NE(failures.find("<td>" + std::to_string(l.failed_job()) + "</td>"), std::string::npos) << failures;
  EXPECT_NE(failures.find(">internal</td>"), std::string::npos) << failures;
  EXPECT_NE(failures.find("injected fault"), std::string::npos) << failures;
  EXPECT_NE(table(dom, "keys-table").find("<td>mult</td>"), std::string::npos);
  const std::string stages = table(dom, "stages-table");
  EXPECT_NE(stages.find("<td>synthesis</td>"), std::string::npos) << stages;
  // uPlot drew the busy chart (a canvas in its element).
  const size_t busy = dom.find("id=\"busy-chart\"");
  ASSERT_NE(busy, std::string::npos);
  EXPECT_NE(dom.find("<canvas", busy), std::string::npos) << "no chart drawn";

  const fs::path shot = CUZK_STATUS_SHOT;
  fs::remove(shot);
  chromium(l.dir() / "chromium", url, {"--screenshot=" + shot.string(), "--window-size=1280,2000",
                                       "--hide-scrollbars"});
  EXPECT_TRUE(fs::exists(shot) && fs::file_size(shot) > 10000) << shot;
}
#endif

}  // namespace
}  // namespace cuzk::test
