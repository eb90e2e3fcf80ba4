// io::read_bellperson_params_bytes on arbitrary bytes: a FormatError, one line
// naming the input, is the expected answer; any other exception, a sanitizer
// report, a hang or a huge allocation is a finding. Parameters that read must
// be what the reader promises: points and counts that account for every byte,
// and no point at infinity in the vectors. read_bellperson_params shares all of its
// checks. The same bytes go to io::decode_bellperson_proof, which must accept
// only 192 of them holding three finite points, and encode them back.
#include "cuzk/io/bellperson.hpp"
#include "cuzk/io/bellperson_proof.hpp"
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
  try {
    const auto proof = cuzk::io::decode_bellperson_proof(name, {data, size});
    CUZK_FUZZ_REQUIRE(size == cuzk::io::kBellpersonProofSize);
    CUZK_FUZZ_REQUIRE(!proof.a.is_inf() && !proof.b.is_inf() && !proof.c.is_inf());
    CUZK_FUZZ_REQUIRE(cuzk::io::decode_bellperson_proof(name, cuzk::io::encode_bellperson_proof(proof)) == proof);
  } catch (const cuzk::io::FormatError& e) {
    CUZK_FUZZ_REQUIRE(cuzk::fuzz::one_line_naming(e.what(), name));
  }
  return 0;
}
