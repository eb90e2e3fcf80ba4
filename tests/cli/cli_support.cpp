#include "cli_support.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace cuzk::test {

namespace {

ProcessResult run_cuzk(const std::vector<std::string>& args, bool timing, std::vector<std::string> argv = {}) {
  // CUZK_TIMING adds stage lines to stderr, which the one-line error contract
  // does not cover; a developer's shell may have it set.
  if (timing) ::setenv("CUZK_TIMING", "1", 1);
  else ::unsetenv("CUZK_TIMING");
  argv.push_back(CUZK_BINARY);
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessResult r = run_process(argv, std::chrono::seconds(120));
  ::unsetenv("CUZK_TIMING");
  if (!r.exited()) ADD_FAILURE() << describe(argv, r);
  return r;
}

}  // namespace

ProcessResult cuzk(const std::vector<std::string>& args) { return run_cuzk(args, false); }
ProcessResult cuzk_with_timing(const std::vector<std::string>& args) { return run_cuzk(args, true); }

ProcessResult cuzk_bound_by_permissions(const std::vector<std::string>& args) {
  if (::geteuid() != 0) return run_cuzk(args, false);
  const char* setpriv = "/usr/bin/setpriv";
  if (!fs::exists(setpriv)) throw std::runtime_error(std::string(setpriv) + " (util-linux) is missing: as root, it "
                                                     "is what makes file permissions bind the program under test");
  const std::string caps = "-dac_override,-dac_read_search,-fowner";
  return run_cuzk(args, false, {setpriv, "--inh-caps=" + caps, "--bounding-set=" + caps, "--"});
}

ProcessResult snarkjs(const std::vector<std::string>& args) {
  const fs::path bin = fs::path(CUZK_SOURCE_DIR) / "node_modules" / ".bin" / "snarkjs";
  if (!fs::exists(bin)) throw std::runtime_error(bin.string() + " is missing; run scripts/setup.sh");
  std::vector<std::string> argv{bin.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessResult r = run_process(argv, std::chrono::seconds(300));
  if (!r.exited()) ADD_FAILURE() << describe(argv, r);
  return r;
}

std::vector<std::string> listing(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

void write_mixed_witnesses(const fs::path& dir, const std::string& curve) {
  const fs::path good = fixture(curve, "multiplier", "witness.wtns");
  fs::copy_file(good, dir / "first.wtns");
  fs::copy_file(good, dir / "second.wtns");
  fs::copy_file(fixture(curve, "linear", "witness.wtns"), dir / "other_circuit.wtns");
  const Bytes bytes = read_bytes(good);
  write_bytes(dir / "truncated.wtns", Bytes(bytes.begin(), bytes.begin() + 100));
}

}  // namespace cuzk::test
