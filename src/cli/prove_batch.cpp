// cuzk prove-batch <zkey> <wtns>... --out DIR: one key, many witnesses, proved
// by the engine (synthesis threads read each witness and, unless the GPU does
// it from the key's rows, compute its a/b/c; workers prove; a finalizer
// verifies). Each witness gets DIR/<stem>.proof.json
// and DIR/<stem>.public.json, written together (DIR is created if missing,
// and earlier outputs of the same names are removed first); a witness that
// fails gets an "error: <file>: ..." line and no files, and the others are
// unharmed (exit 1 if any failed). With --r1cs each witness is checked against
// the circuit first. The run ends with the engine's stage summary (unless
// --quiet); --trace writes the timeline for Perfetto.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>

#include "commands.hpp"
#if defined(CUZK_HAVE_DAEMON_CLIENT)
#include "client.hpp"
#endif
#include "cuzk/io/json.hpp"
#include "cuzk/io/r1cs.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey.hpp"
#include "cuzk/util/plural.hpp"
#include "engine_setup.hpp"
#include "output.hpp"

namespace cuzk::cli {

namespace {

template <class E>
int batch_with(const io::Zkey& zkey, const io::R1cs* circuit, const std::vector<std::string>& wtns,
               const std::vector<std::filesystem::path>& outputs, const BatchOptions& o) {
  using Fr = typename E::Fr;
  const auto key = groth16::PreparedKey<E>::make(zkey.share<E>());
  const Placement where = resolve_placement(o.run);
  const bool on_gpu_abc = gpu_abc(where, o.engine, true);
  engine::Recorder recorder;
  std::vector<engine::PartitionResult<E>> results;
  std::string backend, memory;
  {
    auto eng = make_engine<E>(*key, where, o.engine, o.run.threads, on_gpu_abc, recorder);
    std::vector<engine::Synthesize<E>> sources;
    for (const std::string& path : wtns)
      sources.push_back([&zkey, &key, circuit, path, threads = o.run.threads](std::span<Fr> w, std::span<Fr> a,
                                                                              std::span<Fr> b, std::span<Fr> c) {
        const io::Witness witness = io::read_wtns(path);
        io::check_witness_matches(zkey, witness);
        if (circuit) check_satisfies(*circuit, witness);
        const auto& values = witness.as<E>();
        std::copy(values.begin(), values.end(), w.begin());
        if (!a.empty()) key->evaluate_abc(w, a, b, c, threads);
      });
    results = eng->submit(key, std::move(sources)).get();
    backend = eng->backend().describe();
    memory = eng->memory_name();
  }
  size_t failed = 0;
  for (size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    if (!r.proof) {
      std::fprintf(stderr, "error: %s: %s\n", wtns[i].c_str(), r.error.c_str());
      ++failed;
      continue;
    }
    const std::pair<std::filesystem::path, nlohmann::ordered_json> files[] = {
        {outputs[2 * i], io::proof_to_json<E>(*r.proof)},
        {outputs[2 * i + 1], io::public_to_json<E>(std::span<const Fr>(r.publics))}};
    io::write_json_files(files);
  }
  const auto spans = recorder.spans();
  if (!o.quiet)
    std::printf("cuzk prove-batch: %zu of %s proved and verified, in %s (%s; %s buffers; %s)\n%s",
                results.size() - failed, count(results.size(), "witness").c_str(), o.out.c_str(), backend.c_str(),
                memory.c_str(), count(o.engine.synthesis_threads, "synthesis thread").c_str(),
                engine::format_summary(engine::summarize(spans)).c_str());
  if (!o.engine.trace.empty()) io::write_json_file(o.engine.trace, engine::chrome_trace(spans));
  return failed ? 1 : 0;
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
  for (const auto& path : outputs) remove_earlier_output(path, FileKind::json);
#if defined(CUZK_HAVE_DAEMON_CLIENT)
  if (const auto daemon = daemon_for("prove-batch")) return prove_batch_on_daemon(*daemon, zkey_path, wtns, outputs, o);
#endif
  const io::Zkey zkey = io::Zkey::open(zkey_path);
  std::optional<io::R1cs> circuit;
  if (!o.r1cs.empty()) {
    circuit.emplace(io::R1cs::open(o.r1cs));
    check_describes(*circuit, zkey);
  }
  return ec::visit_curve(zkey.curve(), [&](auto curve) {
    return batch_with<decltype(curve)>(zkey, circuit ? &*circuit : nullptr, wtns, outputs, o);
  });
}

}  // namespace cuzk::cli
