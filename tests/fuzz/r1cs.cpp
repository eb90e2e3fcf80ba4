// io::R1cs::open on arbitrary bytes: a FormatError is the expected answer; any
// other exception, a sanitizer report, a hang or a huge allocation is a
// finding. A circuit that opens must be what the reader promises: nConstraints
// constraints, every linear combination inside the term array, every wire
// below nWires, one label (below nLabels) per wire or none.
#include "cuzk/io/r1cs.hpp"
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto r = cuzk::io::R1cs::open(cuzk::fuzz::input_file(data, size));
    const auto& h = r.header();
    CUZK_FUZZ_REQUIRE(r.labels().empty() || r.labels().size() == h.n_wires);
    for (uint64_t label : r.labels()) CUZK_FUZZ_REQUIRE(label < h.n_labels);
    r.visit([&](const auto& sys) {
      CUZK_FUZZ_REQUIRE(sys.n_constraints() == h.n_constraints && sys.starts.back() == sys.terms.size());
      for (size_t i = 0; i < sys.n_constraints(); ++i)
        for (int m = 0; m < 3; ++m) {
          CUZK_FUZZ_REQUIRE(sys.starts[3 * i + m] <= sys.starts[3 * i + m + 1]);
          for (const auto& t : sys.lc(i, m)) CUZK_FUZZ_REQUIRE(t.wire < h.n_wires);
        }
    });
  } catch (const cuzk::io::FormatError&) {
  }
  return 0;
}
