// io::read_wtns_bytes on arbitrary bytes: a FormatError, one line naming the
// input, is the expected answer; any other exception, a sanitizer report, a
// hang or a huge allocation is a finding. A witness that reads must name its
// input.
#include "cuzk/io/wtns.hpp"
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string name = "fuzz input";
  try {
    const cuzk::io::Witness w = cuzk::io::read_wtns_bytes(name, {data, size});
    CUZK_FUZZ_REQUIRE(w.source == name);
  } catch (const cuzk::io::FormatError& e) {
    CUZK_FUZZ_REQUIRE(cuzk::fuzz::one_line_naming(e.what(), name));
  }
  return 0;
}
