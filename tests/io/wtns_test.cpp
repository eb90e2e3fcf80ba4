// The .wtns reader and writer: snarkjs's fixtures read back with the public
// signals of public.json, from the file or its bytes, are rewritten byte for
// byte, and corrupted copies fail with a message naming the problem.
#include "cuzk/io/wtns.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <system_error>

#include "cuzk/ff/encode.hpp"
#include "freed_bytes.hpp"
#include "io_test_support.hpp"

namespace cuzk::test {
namespace {

using ec::Bls12_381;
using ec::Bn254;

TEST(Wtns, FixturesMatchSnarkjs) {
  for (const char* curve : kCurves)
    for (const auto& f : kCircuits) {
      SCOPED_TRACE(std::string(curve) + "/" + f.name);
      const auto path = fixture(curve, f.name, "witness.wtns");
      const io::Witness w = io::read_wtns(path);
      EXPECT_EQ(ec::curve_name(w.curve()), std::string(curve));
      EXPECT_EQ(w.source, path.string());
      ASSERT_EQ(w.size(), f.n_vars);
      std::ifstream in(fixture(curve, f.name, "public.json"));
      const auto pub = nlohmann::json::parse(in);
      ASSERT_EQ(pub.size(), f.n_public);
      std::visit(
          [&](const auto& v) {
            using Fr = typename std::remove_cvref_t<decltype(v)>::value_type;
            EXPECT_EQ(v[0], Fr::one());
            for (size_t i = 0; i < f.n_public; ++i) EXPECT_EQ(ff::to_decimal(v[1 + i]), pub[i].get<std::string>()) << "signal " << 1 + i;
          },
          w.values);
    }
}

// A witness's bytes read as its file is, under the name they came with.
TEST(Wtns, BytesReadAsTheFile) {
  for (const char* curve : kCurves)
    for (const auto& f : kCircuits) {
      SCOPED_TRACE(std::string(curve) + "/" + f.name);
      const auto path = fixture(curve, f.name, "witness.wtns");
      const io::Witness from_file = io::read_wtns(path);
      const io::Witness w = io::read_wtns_bytes("job 7, partition 0", read_bytes(path));
      EXPECT_EQ(w.source, "job 7, partition 0");
      EXPECT_EQ(w.values, from_file.values);
    }
}

TEST(Wtns, WriterReproducesCircomsBytes) {
  TempDir dir;
  for (const char* curve : kCurves)
    for (const auto& f : kCircuits) {
      SCOPED_TRACE(std::string(curve) + "/" + f.name);
      const auto path = fixture(curve, f.name, "witness.wtns");
      const auto out = dir / (std::string(curve) + f.name + ".wtns");
      io::write_wtns(out, io::read_wtns(path));
      EXPECT_EQ(read_bytes(out), read_bytes(path));
    }
}

TEST(Wtns, WriterReplacesAnExistingFileWhole) {
  TempDir dir;
  const auto out = dir / "w.wtns";
  write_bytes(out, Bytes(100000, 0xab));
  io::Witness w{std::vector<ff::bls12_381::Fr>{ff::bls12_381::Fr::one(), ff::bls12_381::Fr::from_uint(7)}, ""};
  io::write_wtns(out, w);
  const auto back = io::read_wtns(out);
  EXPECT_EQ(back.as<Bls12_381>(), w.as<Bls12_381>());
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), {}), 1);
}

// A failed write throws and leaves nothing behind: not the target, not a
// temporary file.
TEST(Wtns, FailedWriteLeavesNoFile) {
  TempDir dir;
  const io::Witness w = io::read_wtns(fixture("bn128", "linear", "witness.wtns"));
  EXPECT_THROW(io::write_wtns(dir / "no" / "such" / "dir.wtns", w), std::system_error);
  EXPECT_TRUE(fs::is_empty(dir.path()));

  // The rename fails when the target is a non-empty directory.
  fs::create_directory(dir / "taken.wtns");
  write_bytes(dir / "taken.wtns" / "x", {1});
  try {
    io::write_wtns(dir / "taken.wtns", w);
    ADD_FAILURE() << "no error";
  } catch (const std::system_error& e) {
    EXPECT_NE(std::string(e.what()).find((dir / "taken.wtns").string() + ": rename failed"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), {}), 1);
  EXPECT_TRUE(fs::is_directory(dir / "taken.wtns"));
}

TEST(Wtns, WrongCurveAccessNamesTheFile) {
  const auto path = fixture("bls12381", "nopublic", "witness.wtns");
  const io::Witness w = io::read_wtns(path);
  try {
    w.as<Bn254>();
    FAIL() << "no error";
  } catch (const io::FormatError& e) {
    EXPECT_EQ(std::string(e.what()), path.string() + ": the witness is for bls12381, not bn128");
  }
}

TEST(Wtns, BadInputsFailWithAClearMessage) {
  TempDir dir;
  const fs::path good = fixture("bn128", "multiplier", "witness.wtns");
  ASSERT_NO_THROW(io::read_wtns(good));
  const CircuitFacts& f = kCircuits[0];
  const Container c = Container::load(good);
  auto cases = container_cases(good, "wtns");

  const auto edit = [&](std::string name, std::function<void(Container&)> change, std::string expect) {
    Container d = c;
    change(d);
    cases.push_back({name, [d](const fs::path& p) { d.save(p); }, std::move(expect)});
  };
  const auto plant = [](uint32_t id, size_t at, Bytes x) {
    return [=](Container& d) { std::copy(x.begin(), x.end(), d.section(id).data.begin() + at); };
  };
  const std::string n = std::to_string(f.n_vars), bytes = std::to_string(32 * f.n_vars);
  // Section 1: u32 n8, prime (n8 bytes), u32 nWitness.
  edit("n8_48", [](Container& d) { put<uint32_t>(d.section(1).data, 0, 48); },
       "section 1: n8 = 48, but the supported scalar fields have 32-byte elements");
  edit("prime_flipped", [](Container& d) { d.section(1).data[4] ^= 2; },
       "is not the scalar field of bn128 or bls12381");
  edit("prime_is_q", plant(1, 4, modulus_bytes<ff::bn254::Fq>()), "is not the scalar field of bn128 or bls12381");
  edit("header_long", [](Container& d) { d.section(1).data.resize(44); },
       "section 1: 4 bytes left over after the header");
  edit("header_short", [](Container& d) { d.section(1).data.resize(37); }, "section 1: truncated: reading nWitness");
  edit("count_plus_1", [&](Container& d) { put<uint32_t>(d.section(1).data, 36, f.n_vars + 1); },
       "section 2 is " + bytes + " bytes but " + std::to_string(f.n_vars + 1) + " × 32 bytes are needed for " +
           std::to_string(f.n_vars + 1) + " witness values");
  edit("values_long", [](Container& d) { d.section(2).data.resize(d.section(2).data.size() + 32); },
       "section 2 is " + std::to_string(32 * (f.n_vars + 1)) + " bytes but " + n + " × 32 bytes are needed for " + n +
           " witness values");
  edit("values_short", [](Container& d) { d.section(2).data.resize(d.section(2).data.size() - 1); },
       "bytes are needed for " + n + " witness values");
  edit("missing_values", [](Container& d) { d.sections.pop_back(); }, "section 2 is missing");
  edit("missing_header", [](Container& d) { d.sections.erase(d.sections.begin()); }, "section 1 is missing");
  edit("value_5_is_r", plant(2, 5 * 32, modulus_bytes<ff::bn254::Fr>()),
       "witness value 5 is not below the scalar field modulus r of bn128");
  edit("last_value_ones", plant(2, (f.n_vars - 1) * 32, Bytes(32, 0xff)),
       "witness value " + std::to_string(f.n_vars - 1) + " is not below");
  // The BLS12-381 prime with 32-byte values that are fine for BN254 but not
  // for BLS12-381 (bn254's r - 1 < bls12-381's r, so plant bls's own r).
  edit("bls_prime_value_is_r", [](Container& d) {
         const Bytes r = modulus_bytes<ff::bls12_381::Fr>();
         std::copy(r.begin(), r.end(), d.section(1).data.begin() + 4);
         std::copy(r.begin(), r.end(), d.section(2).data.begin() + 64);
       },
       "witness value 2 is not below the scalar field modulus r of bls12381");
  run_bad_cases(dir, cases, [](const fs::path& p) { io::read_wtns(p); }, ".wtns");
  run_bad_byte_cases(dir, cases, [](std::string name, std::span<const uint8_t> b) { io::read_wtns_bytes(name, b); },
                     ".wtns");
}

// before: a witness's values were freed as they were, to linger in the heap
TEST(Wtns, AWitnessIsZeroedBeforeItsMemoryIsFreed) {
  const auto path = fixture("bn128", "multiplier", "witness.wtns");
  {
    const io::Witness w = io::read_wtns(path);
    FreedBytes::watch(w.as<Bn254>().data());
  }
  EXPECT_EQ(FreedBytes::state(), Freed::zeroed) << "when it goes";
  io::Witness w = io::read_wtns(path);
  FreedBytes::watch(w.as<Bn254>().data());
  w = io::read_wtns(fixture("bn128", "linear", "witness.wtns"));
  EXPECT_EQ(FreedBytes::state(), Freed::zeroed) << "when it is assigned over";
}

}  // namespace
}  // namespace cuzk::test
