// The snarkjs JSON readers on arbitrary bytes, every reader for both curves on
// each input (one grammar, so one target): a FormatError is the expected
// answer; any other exception (nlohmann's included), a sanitizer report or a
// hang is a finding.
#include "cuzk/io/json.hpp"
#include "harness.hpp"

namespace {

template <class Read>
void expect_format_errors_only(Read read) {
  try {
    read();
  } catch (const cuzk::io::FormatError&) {
  }
}

template <class E>
void read_all(const std::string& path) {
  expect_format_errors_only([&] { cuzk::io::read_proof_json<E>(path); });
  expect_format_errors_only([&] { cuzk::io::read_public_json<E>(path); });
  expect_format_errors_only([&] {
    const auto vk = cuzk::io::read_vk_json<E>(path);
    CUZK_FUZZ_REQUIRE(!vk.ic.empty());
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = cuzk::fuzz::input_file(data, size);
  expect_format_errors_only([&] { cuzk::io::read_json_curve(path); });
  read_all<cuzk::io::Bn254>(path);
  read_all<cuzk::io::Bls12_381>(path);
  return 0;
}
