// io::read_wtns on arbitrary bytes: a FormatError is the expected answer; any
// other exception, a sanitizer report, a hang or a huge allocation is a
// finding. A witness that reads must name its file.
#include "cuzk/io/wtns.hpp"
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = cuzk::fuzz::input_file(data, size);
  try {
    const cuzk::io::Witness w = cuzk::io::read_wtns(path);
    CUZK_FUZZ_REQUIRE(w.source == path);
  } catch (const cuzk::io::FormatError&) {
  }
  return 0;
}
