// io::Zkey::from_bytes on arbitrary bytes: a FormatError, one line naming the
// input, is the expected answer; any other exception, a sanitizer report, a
// hang or a huge allocation is a finding. A key that reads must be what the
// reader promises: every span the size the header gives, readable to its last
// byte (some live in aligned copies, some in the key's bytes), every
// coefficient in range. Zkey::open shares all of its checks. The same bytes
// read with the points' checks deferred fail exactly when they fail here.
#include <span>

#include "cuzk/io/zkey.hpp"
#include "harness.hpp"

namespace {

volatile uint8_t sink;

template <class T>
void touch(std::span<const T> s) {
  uint8_t acc = 0;
  for (std::byte b : std::as_bytes(s)) acc ^= (uint8_t)b;
  sink = acc;
}

// Read with the points' checks deferred and those then run (a one-shot
// proof's path): whether it fails, with one line naming the input.
bool deferred_read_fails(const std::string& name, const uint8_t* data, size_t size) {
  try {
    const auto key = cuzk::io::Zkey::from_bytes(name, {data, size}, cuzk::io::PointChecks::deferred);
    key.visit([](const auto& pk) {
      CUZK_FUZZ_REQUIRE(pk.check_points);
      pk.check_points(pk);
    });
    return false;
  } catch (const cuzk::io::FormatError& e) {
    CUZK_FUZZ_REQUIRE(cuzk::fuzz::one_line_naming(e.what(), name));
    return true;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string name = "fuzz input";
  // The deferred checks are the read's, later: the same inputs fail (which
  // fault is named first may differ, a coefficient's before a point's).
  const bool deferred_fails = deferred_read_fails(name, data, size);
  try {
    const auto key = cuzk::io::Zkey::from_bytes(name, {data, size});
    const auto& h = key.header();
    key.visit([&](const auto& pk) {
      CUZK_FUZZ_REQUIRE(pk.ic.size() == (size_t)h.n_public + 1);
      CUZK_FUZZ_REQUIRE(pk.a.size() == h.n_vars && pk.b1.size() == h.n_vars && pk.b2.size() == h.n_vars);
      CUZK_FUZZ_REQUIRE(pk.c.size() == (size_t)h.n_vars - h.n_public - 1);
      CUZK_FUZZ_REQUIRE(pk.h.size() == h.domain_size);
      CUZK_FUZZ_REQUIRE(pk.coefs.size() == h.n_coefs);
      CUZK_FUZZ_REQUIRE(!pk.check_points);  // every point checked on reading
      touch(pk.ic), touch(pk.a), touch(pk.b1), touch(pk.b2), touch(pk.c), touch(pk.h);
      for (const auto& c : pk.coefs)
        CUZK_FUZZ_REQUIRE(c.matrix <= 1 && c.constraint < h.domain_size && c.signal < h.n_vars);
    });
    CUZK_FUZZ_REQUIRE(!deferred_fails);
  } catch (const cuzk::io::FormatError& e) {
    CUZK_FUZZ_REQUIRE(cuzk::fuzz::one_line_naming(e.what(), name));
    CUZK_FUZZ_REQUIRE(deferred_fails);
  }
  return 0;
}
