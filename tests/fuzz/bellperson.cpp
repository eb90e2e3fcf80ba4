// io::read_bellperson_params_bytes on arbitrary bytes: a FormatError, one line
// naming the input, is the expected answer; any other exception, a sanitizer
// report, a hang or a huge allocation is a finding. Parameters that read must
// be what the reader promises: points and counts that account for every byte,
// and no point at infinity in the vectors. read_bellperson_params shares all of its
// checks.
#include "cuzk/io/bellperson.hpp"
#include "harness.hpp"

namespace {

template <class V>
bool finite(const V& v) {
  for (const auto& p : v)
    if (p.is_inf()) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string name = "fuzz input";
  try {
    const auto p = cuzk::io::read_bellperson_params_bytes(name, {data, size});
    const size_t g1 = p.ic.size() + p.h.size() + p.l.size() + p.a.size() + p.b_g1.size();
    CUZK_FUZZ_REQUIRE(size == 3 * 96 + 3 * 192 + 6 * 4 + 96 * g1 + 192 * p.b_g2.size());
    CUZK_FUZZ_REQUIRE(finite(p.h) && finite(p.l) && finite(p.a) && finite(p.b_g1) && finite(p.b_g2));
  } catch (const cuzk::io::FormatError& e) {
    CUZK_FUZZ_REQUIRE(cuzk::fuzz::one_line_naming(e.what(), name));
  }
  return 0;
}
