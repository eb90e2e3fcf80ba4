// What the PostgreSQL job queue costs a partition, with proving left out:
// W worker threads (each its own connection, as W cuzkd hosts would have)
// claim one partition at a time, renew their lease and write a result, until
// N partitions are done; per step p50/p95 and the partitions/s the queue alone
// allows, for W = 1, 2, 4, 8.
//   queue_overhead CONNINFO [N=2000]
// CONNINFO names a database that this program may fill and empty (it drops
// and re-creates the queue's tables: never point it at a production queue).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/queue/queue.hpp"
#include "cuzk/queue/schema.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using cuzk::queue::Pg;
using cuzk::queue::Queue;

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(p * (double)v.size()))];
}

void reset(const std::string& conninfo, size_t n) {
  Pg db(conninfo);
  db.exec("DROP TABLE IF EXISTS cuzk_partitions, cuzk_jobs, cuzk_keys, cuzk_schema");
  cuzk::queue::migrate(db);
  Queue q(conninfo);
  q.put_key({"k", "bn128", "/keys/k.zkey", "hash"});
  const std::string witness(1024, 'w');  // a small circuit's witness
  for (size_t done = 0; done < n; done += 100) {
    cuzk::queue::JobRequest job;
    job.key_id = "k";
    job.partitions.assign(std::min<size_t>(100, n - done), {witness, ""});
    q.submit(job);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: queue_overhead CONNINFO [N=2000]\n");
    return 2;
  }
  const std::string conninfo = argv[1];
  const size_t n = argc > 2 ? std::stoul(argv[2]) : 2000;
  std::printf("queue overhead: %zu partitions, 1 KiB witnesses inline, no proving; ms per step\n", n);
  std::printf("%8s %10s %10s %10s %10s %10s %12s\n", "workers", "claim p50", "renew p50", "write p50", "total p50",
              "total p95", "partitions/s");
  for (unsigned workers : {1u, 2u, 4u, 8u}) {
    reset(conninfo, n);
    std::vector<std::vector<double>> claim(workers), renew(workers), write(workers), total(workers);
    const auto t0 = Clock::now();
    std::vector<std::thread> threads;
    for (unsigned w = 0; w < workers; ++w)
      threads.emplace_back([&, w] {
        Queue q(conninfo);
        const std::string host = "bench-" + std::to_string(w);
        for (;;) {
          const auto a = Clock::now();
          const auto c = q.claim(host, 1, {"k"});
          const auto b = Clock::now();
          if (c.empty()) return;
          q.renew(host);
          const auto d = Clock::now();
          q.complete(c[0], host, "{}", "[]", "{}");
          const auto e = Clock::now();
          claim[w].push_back(ms(b - a)), renew[w].push_back(ms(d - b)), write[w].push_back(ms(e - d));
          total[w].push_back(ms(e - a));
        }
      });
    for (auto& t : threads) t.join();
    const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    const auto all = [](const std::vector<std::vector<double>>& v) {
      std::vector<double> out;
      for (const auto& x : v) out.insert(out.end(), x.begin(), x.end());
      return out;
    };
    std::printf("%8u %10.2f %10.2f %10.2f %10.2f %10.2f %12.0f\n", workers, percentile(all(claim), 0.5),
                percentile(all(renew), 0.5), percentile(all(write), 0.5), percentile(all(total), 0.5),
                percentile(all(total), 0.95), (double)n / seconds);
  }
  return 0;
}
