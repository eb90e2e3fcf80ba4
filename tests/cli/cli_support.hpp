// Shared by the cli tests: running the cuzk program under test and the snarkjs
// oracle, plus the io tests' fixtures, TempDir and bad-file tables.
#pragma once

#include <string>
#include <vector>

#include "../io/io_test_support.hpp"
#include "subprocess.hpp"

namespace cuzk::test {

// The cuzk binary built with this tree (CUZK_BINARY), run with `args`.
ProcessResult cuzk(const std::vector<std::string>& args);
// The same with CUZK_TIMING=1 (stage lines on stderr).
ProcessResult cuzk_with_timing(const std::vector<std::string>& args);
// The same, bound by file permissions even when the tests run as root (CI):
// there it runs under setpriv without the capabilities that override them
// (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER), still as root.
ProcessResult cuzk_bound_by_permissions(const std::vector<std::string>& args);

// node_modules/.bin/snarkjs of the source tree (scripts/setup.sh installs it).
ProcessResult snarkjs(const std::vector<std::string>& args);

// The names in `dir`, sorted: what a failed command must leave unchanged.
std::vector<std::string> listing(const fs::path& dir);

// prove-batch's mixed inputs for the multiplier key of `curve`, written into
// `dir`: first.wtns and second.wtns (good), other_circuit.wtns (the linear
// circuit's witness) and truncated.wtns (the first 100 bytes of a good one).
void write_mixed_witnesses(const fs::path& dir, const std::string& curve);

}  // namespace cuzk::test
