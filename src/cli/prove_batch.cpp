// cuzk prove-batch <zkey> <wtns>... --out DIR: one key, many witnesses, proved
// by the service as one job of a partition per witness (synthesis threads
// read each witness and, unless the GPU does it from the key's rows, compute
// its a/b/c; workers prove; a finalizer verifies). Each witness gets DIR/<stem>.proof.json
// and DIR/<stem>.public.json, written together (DIR is created if missing,
// and earlier outputs of the same names are removed first); a witness that
// fails gets an "error: <file>: ..." line and no files, and the others are
// unharmed (exit 1 if any failed). With --r1cs each witness is checked against
// the circuit first. The run ends with the engine's stage summary (unless
// --quiet); --trace writes the timeline for Perfetto.
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "commands.hpp"
#if defined(CUZK_HAVE_DAEMON_CLIENT)
#include "client.hpp"
#endif
#include "cuzk/io/json.hpp"
#include "cuzk/service/circuit_check.hpp"
#include "cuzk/util/plural.hpp"
#include "service_setup.hpp"
#include "output.hpp"

namespace cuzk::cli {

namespace {

// --r1cs: each witness is checked against the circuit before any proving;
// one that fails is reported alone (its index in `failures`). Each is read
// again when proved, unlike prove's one witness: holding every decoded
// witness of a batch until its turn would take memory in proportion to the
// batch.
std::map<size_t, std::string> check_witnesses(const service::CircuitCheck& circuit,
                                             const std::vector<std::string>& wtns) {
  std::map<size_t, std::string> failures;
  for (size_t i = 0; i < wtns.size(); ++i) {
    try {
      circuit.check_witness(wtns[i]);
    } catch (const std::exception& e) {
      failures[i] = e.what();
    }
  }
  return failures;
}

}  // namespace

int prove_batch(const std::string& zkey_path, const std::vector<std::string>& wtns, const BatchOptions& o) {
  // Output names come from the witnesses' names, which must therefore differ.
  std::vector<std::filesystem::path> outputs;
  std::set<std::filesystem::path> seen;
  for (const std::string& path : wtns) {
    const std::filesystem::path stem = std::filesystem::path(path).stem();
    if (!seen.insert(stem).second)
      throw std::invalid_argument("prove-batch: two witnesses are named " + stem.string() +
                                  ", so their outputs would collide");
    const std::filesystem::path base = std::filesystem::path(o.out) / stem;
    outputs.push_back(base.string() + ".proof.json");
    outputs.push_back(base.string() + ".public.json");
  }
  std::error_code ec;
  std::filesystem::create_directories(o.out, ec);
  if (!std::filesystem::is_directory(o.out))
    throw std::invalid_argument("prove-batch: --out " + o.out + " is not a directory and cannot be made one" +
                             (ec ? ": " + ec.message() : ""));
  for (size_t i = 0; i < outputs.size(); ++i)  // proof, public signals, for each witness in turn
    remove_earlier_output(outputs[i], i % 2 == 0 ? FileKind::proof : FileKind::public_signals);
#if defined(CUZK_HAVE_DAEMON_CLIENT)
  if (const auto daemon = daemon_for("prove-batch")) return prove_batch_on_daemon(*daemon, zkey_path, wtns, outputs, o);
#endif
  const service::ServiceOptions options = service_options(o.run, o.engine, false);
  service::Service svc(options);
  const service::KeyInfo key = svc.load_key(zkey_path);
  std::map<size_t, std::string> failures;
  if (!o.r1cs.empty()) {
    const service::CircuitCheck circuit(o.r1cs);
    circuit.check_describes(key);
    failures = check_witnesses(circuit, wtns);
  }
  std::vector<size_t> submitted;  // witness index of each partition
  std::vector<service::PartitionInput> partitions;
  for (size_t i = 0; i < wtns.size(); ++i)
    if (!failures.count(i)) {
      submitted.push_back(i);
      partitions.push_back(service::WitnessFile{wtns[i]});
    }
  if (!partitions.empty()) {
    const service::JobOutcome job = *svc.await(svc.submit(key.id, std::move(partitions)));
    for (size_t p = 0; p < job.partitions.size(); ++p) {
      const auto& r = job.partitions[p];
      const size_t i = submitted[p];
      if (!r.ok()) {
        failures[i] = r.error;
        continue;
      }
      write_proof_outputs(outputs[2 * i], outputs[2 * i + 1], *r.proved);
    }
  }
  for (const auto& [i, error] : failures) std::fprintf(stderr, "error: %s: %s\n", wtns[i].c_str(), error.c_str());
  const auto spans = svc.spans();
  if (!o.quiet)
    std::printf("cuzk prove-batch: %zu of %s proved and verified, in %s (%s; %s buffers; %s)\n%s",
                wtns.size() - failures.size(), count(wtns.size(), "witness").c_str(), o.out.c_str(),
                svc.describe().c_str(), memory_name(options, svc.placement()),
                count(o.engine.synthesis_threads, "synthesis thread").c_str(),
                engine::format_summary(engine::summarize(spans)).c_str());
  if (!o.engine.trace.empty()) io::write_json_file(o.engine.trace, engine::chrome_trace(spans));
  return failures.empty() ? 0 : 1;
}

}  // namespace cuzk::cli
