// The .zkey reader against snarkjs's own fixtures (counts from zkey export
// json, points from vk.json, coefficients from the .r1cs), plus a table of
// corrupted keys that must each fail with a message naming the problem; the
// same key mapped, copied or from bytes, and a copied key that outlives
// changes to its file.
#include "cuzk/io/zkey.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <map>
#include <nlohmann/json.hpp>

#include "cuzk/ff/detail/mont52x8.hpp"
#include "cuzk/ff/encode.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/io/r1cs.hpp"
#include "cuzk/io/wtns.hpp"
#include "io_test_support.hpp"

namespace cuzk::test {
namespace {

using ec::Bls12_381;
using ec::Bn254;
using io::Zkey;
using groth16::ProvingKey;
using json = nlohmann::json;

json load_json(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

template <class F>
F dec(const json& j) {
  F f;
  if (!ff::from_decimal(j.get<std::string>(), f)) throw std::runtime_error("bad decimal in fixture JSON");
  return f;
}

template <class E>
ec::Affine<typename E::G1> g1(const json& j) {
  EXPECT_EQ(j.at(2), "1");
  return {dec<typename E::Fq>(j.at(0)), dec<typename E::Fq>(j.at(1))};
}

template <class E>
ec::Affine<typename E::G2> g2(const json& j) {
  using Fq = typename E::Fq;
  EXPECT_EQ(j.at(2), json({"1", "0"}));
  return {{dec<Fq>(j.at(0).at(0)), dec<Fq>(j.at(0).at(1))}, {dec<Fq>(j.at(1).at(0)), dec<Fq>(j.at(1).at(1))}};
}

// The points vk.json was exported from are the ones the key holds, so the
// in-place Montgomery view agrees with snarkjs's decimal export.
template <class E>
void check_against_vk(const ProvingKey<E>& d, const json& vk) {
  EXPECT_EQ(d.alpha1, g1<E>(vk.at("vk_alpha_1")));
  EXPECT_EQ(d.beta2, g2<E>(vk.at("vk_beta_2")));
  EXPECT_EQ(d.gamma2, g2<E>(vk.at("vk_gamma_2")));
  EXPECT_EQ(d.delta2, g2<E>(vk.at("vk_delta_2")));
  ASSERT_EQ(d.ic.size(), vk.at("IC").size());
  for (size_t i = 0; i < d.ic.size(); ++i) EXPECT_EQ(d.ic[i], g1<E>(vk.at("IC").at(i))) << "IC " << i;
}

// Section 4 against the circuit: the A and B rows of every constraint, plus
// one A entry (constraint nConstraints + s, signal s, value 1) for each public
// signal s = 0..nPublic that zkey_new appends. And the points: a signal with no
// A entry has A = infinity, one with no B entry has B1 = B2 = infinity.
template <class E>
void check_coefs(const ProvingKey<E>& d, const io::R1cs& r1cs, const CircuitFacts& f) {
  using Fr = typename E::Fr;
  using Row = std::vector<std::pair<uint32_t, Fr>>;
  const auto by_signal = [](const auto& a, const auto& b) { return a.first < b.first; };
  std::map<std::pair<uint32_t, uint32_t>, Row> rows;  // (matrix, constraint) -> terms
  std::vector<bool> in_a(f.n_vars), in_b(f.n_vars);
  for (const auto& c : d.coefs) {
    rows[{c.matrix, c.constraint}].push_back({c.signal, c.value});
    (c.matrix == 0 ? in_a : in_b)[c.signal] = true;
  }

  for (uint32_t s = 0; s <= f.n_public; ++s) {
    const Row expect{{s, Fr::one()}};
    const Row& got = rows[{0, f.n_constraints + s}];
    EXPECT_EQ(got, expect) << "public-input row for signal " << s;
  }
  size_t extra = 0;
  for (const auto& [k, row] : rows) {
    if (k.second >= f.n_constraints) extra += row.size();
  }
  EXPECT_EQ(extra, f.n_public + 1u);

  const auto& sys = r1cs.as<E>();
  size_t stored = 0;
  for (uint32_t c = 0; c < f.n_constraints; ++c)
    for (uint32_t m = 0; m < 2; ++m) {
      Row expect;
      for (const auto& t : sys.lc(c, m)) expect.push_back({t.wire, t.coef});
      Row got = rows[{m, c}];
      std::sort(expect.begin(), expect.end(), by_signal);
      std::sort(got.begin(), got.end(), by_signal);
      EXPECT_EQ(got, expect) << "matrix " << m << " constraint " << c;
      stored += expect.size();
    }
  EXPECT_EQ(stored + f.n_public + 1, d.coefs.size());

  size_t in_neither = 0;
  for (uint32_t i = 0; i < f.n_vars; ++i) {
    EXPECT_EQ(d.a[i].is_inf(), !in_a[i]) << "A point of signal " << i;
    EXPECT_EQ(d.b1[i].is_inf(), !in_b[i]) << "B1 point of signal " << i;
    EXPECT_EQ(d.b2[i].is_inf(), !in_b[i]) << "B2 point of signal " << i;
    in_neither += !in_a[i] && !in_b[i];
  }
  // The linear circuit exists to have signals outside A and B.
  if (std::string(f.name) == "linear") {
    EXPECT_GT(in_neither, 0u);
  }
}

TEST(Zkey, FixturesMatchSnarkjs) {
  for (const char* curve : kCurves)
    for (const auto& f : kCircuits) {
      SCOPED_TRACE(std::string(curve) + "/" + f.name);
      const Zkey key = Zkey::open(fixture(curve, f.name, "circuit.zkey"));
      const auto& h = key.header();
      EXPECT_EQ(h.curve, std::string(curve) == "bn128" ? ec::Curve::bn254 : ec::Curve::bls12_381);
      EXPECT_EQ(ec::curve_name(h.curve), std::string(curve));
      EXPECT_EQ(h.n8q, std::string(curve) == "bn128" ? 32u : 48u);
      EXPECT_EQ(h.n8r, 32u);
      EXPECT_EQ(h.n_vars, f.n_vars);
      EXPECT_EQ(h.n_public, f.n_public);
      EXPECT_EQ(h.domain_size, f.domain_size);
      EXPECT_EQ(h.n_coefs, f.n_coefs);

      const auto r1cs = io::R1cs::open(fixture(curve, f.name, "circuit.r1cs"));
      const json vk = load_json(fixture(curve, f.name, "vk.json"));
      EXPECT_EQ(vk.at("nPublic"), f.n_public);
      key.visit([&](const auto& d) {
        using E = typename std::remove_cvref_t<decltype(d)>::CurveTypes;
        EXPECT_EQ(d.ic.size(), f.n_public + 1u);
        EXPECT_EQ(d.a.size(), f.n_vars);
        EXPECT_EQ(d.b1.size(), f.n_vars);
        EXPECT_EQ(d.b2.size(), f.n_vars);
        EXPECT_EQ(d.c.size(), f.n_vars - f.n_public - 1u);
        EXPECT_EQ(d.h.size(), f.domain_size);
        check_against_vk<E>(d, vk);
        check_coefs<E>(d, r1cs, f);
      });

      const auto w = io::read_wtns(fixture(curve, f.name, "witness.wtns"));
      EXPECT_NO_THROW(io::check_witness_matches(key, w));
    }
}

// The three ways to read a key: its file mapped, its file copied into memory
// the key owns, and its bytes handed over.
enum class Way { map, copy, bytes };
const Way kWays[] = {Way::map, Way::copy, Way::bytes};
const char* way_name(Way w) { return w == Way::map ? "map" : w == Way::copy ? "copy" : "bytes"; }
Zkey read_key(const fs::path& p, Way w) {
  if (w == Way::bytes) return Zkey::from_bytes("bytes of " + p.filename().string(), read_bytes(p));
  return Zkey::open(p, w == Way::map ? io::Residency::map : io::Residency::copy);
}

// snarkjs puts every section behind a 12-byte header, so payloads alternate
// between 0 and 4 mod 8: the aligned ones must be views into the file's bytes
// (mapped or owned, which keep the file's alignment), the others aligned copies.
TEST(Zkey, AlignedSectionsAreViewedInPlaceOthersCopied) {
  for (const char* curve : kCurves)
    for (Way way : kWays) {
      SCOPED_TRACE(std::string(curve) + ", " + way_name(way));
      const Zkey key = read_key(fixture(curve, "multiplier", "circuit.zkey"), way);
      key.visit([&](const auto& d) {
        const std::pair<uint32_t, const void*> sections[] = {{3, d.ic.data()}, {5, d.a.data()}, {6, d.b1.data()},
                                                             {7, d.b2.data()}, {8, d.c.data()}, {9, d.h.data()}};
        int in_place = 0, copied = 0;
        for (const auto& [id, data] : sections) {
          const bool aligned = key.file().offset(id) % 8 == 0;
          EXPECT_EQ(data == key.file().section(id).data(), aligned) << "section " << id;
          EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % 8, 0u) << "section " << id;
          (aligned ? in_place : copied)++;
        }
        EXPECT_GT(in_place, 0);
        EXPECT_GT(copied, 0);
        // So that a GPU streaming the key copies the points rather than
        // page-lock a file mapping; owned bytes may be page-locked.
        EXPECT_EQ(d.points_in_file_mapping, way == Way::map);
        EXPECT_EQ(key.file().residency(), way == Way::map ? io::Residency::map : io::Residency::copy);
      });
    }
}

template <class E>
void expect_same_key(const Zkey& x, const Zkey& y) {
  const auto& a = x.as<E>();
  const auto& b = y.as<E>();
  EXPECT_EQ(x.header().n_coefs, y.header().n_coefs);
  EXPECT_TRUE(a.alpha1 == b.alpha1 && a.beta1 == b.beta1 && a.delta1 == b.delta1);
  EXPECT_TRUE(a.beta2 == b.beta2 && a.gamma2 == b.gamma2 && a.delta2 == b.delta2);
  const auto same = [](auto s, auto t) { return std::equal(s.begin(), s.end(), t.begin(), t.end()); };
  EXPECT_TRUE(same(a.ic, b.ic) && same(a.a, b.a) && same(a.b1, b.b1) && same(a.b2, b.b2) && same(a.c, b.c) &&
              same(a.h, b.h));
  ASSERT_EQ(a.coefs.size(), b.coefs.size());
  for (size_t i = 0; i < a.coefs.size(); ++i) {
    const auto &p = a.coefs[i], &q = b.coefs[i];
    EXPECT_TRUE(p.matrix == q.matrix && p.constraint == q.constraint && p.signal == q.signal && p.value == q.value);
  }
}

TEST(Zkey, EveryWayReadsTheSameKey) {
  for (const auto& f : kCircuits) {
    SCOPED_TRACE(f.name);
    const fs::path bn = fixture("bn128", f.name, "circuit.zkey"), bls = fixture("bls12381", f.name, "circuit.zkey");
    const Zkey bn_key = Zkey::open(bn), bls_key = Zkey::open(bls);
    for (Way way : {Way::copy, Way::bytes}) {
      SCOPED_TRACE(way_name(way));
      expect_same_key<Bn254>(bn_key, read_key(bn, way));
      expect_same_key<Bls12_381>(bls_key, read_key(bls, way));
    }
  }
  EXPECT_EQ(read_key(fixture("bn128", "linear", "circuit.zkey"), Way::bytes).name(), "bytes of circuit.zkey");
}

// The header alone (what libcuzk's size queries read) gives the counts the
// full reader gives, from a file or bytes, and fails as it does on a key
// whose header is bad; the rest of the key is not looked at.
TEST(Zkey, HeaderAloneMatchesTheFullReader) {
  for (const char* curve : kCurves)
    for (const auto& f : kCircuits) {
      SCOPED_TRACE(std::string(curve) + " " + f.name);
      const fs::path path = fixture(curve, f.name, "circuit.zkey");
      const io::ZkeyHeader full = Zkey::open(path).header();
      const Bytes bytes = read_bytes(path);
      for (const io::ZkeyHeader& h : {io::read_zkey_header(path), io::read_zkey_header_bytes("key", bytes)}) {
        EXPECT_EQ(h.curve, full.curve);
        EXPECT_EQ(h.n8q, full.n8q);
        EXPECT_EQ(h.n8r, full.n8r);
        EXPECT_EQ(h.n_vars, full.n_vars);
        EXPECT_EQ(h.n_public, full.n_public);
        EXPECT_EQ(h.domain_size, full.domain_size);
      }
    }
  const Bytes key = read_bytes(fixture("bn128", "multiplier", "circuit.zkey"));
  const std::span<const uint8_t> all(key);
  EXPECT_THROW(io::read_zkey_header_bytes("key", all.first(all.size() / 2)), io::FormatError);
  EXPECT_THROW(io::read_zkey_header_bytes("key", all.first(40)), io::FormatError);
  EXPECT_THROW(io::read_zkey_header(fixture("bn128", "multiplier", "witness.wtns")), io::FormatError);
}

// The sum of every byte of every section, by section id.
std::map<uint32_t, uint64_t> section_sums(const io::BinFile& file) {
  std::map<uint32_t, uint64_t> sums;
  for (uint32_t id = 1; id <= 10; ++id)
    if (file.has(id))
      for (uint8_t b : file.section(id)) sums[id] += b;
  return sums;
}

// What Residency::copy is for: a key read into owned memory is untouched when
// its file is truncated, rewritten with other bytes, replaced and deleted
// while the key is in use.
TEST(Zkey, ACopiedKeyOutlivesChangesToItsFile) {
  TempDir dir;
  const fs::path good = fixture("bls12381", "multiplier", "circuit.zkey"), path = dir / "key.zkey";
  fs::copy_file(good, path);
  const Zkey key = Zkey::open(path, io::Residency::copy);
  const auto sums = section_sums(key.file());
  ASSERT_EQ(sums.size(), 10u);

  fs::resize_file(path, 0);
  EXPECT_EQ(section_sums(key.file()), sums);
  // Other bytes in the same file: the other curve's key, longer than this one.
  write_bytes(path, read_bytes(fixture("bn128", "multiplier", "circuit.zkey")));
  Bytes noise(fs::file_size(good) + 4096);
  std::mt19937_64 rng(7);
  for (auto& b : noise) b = (uint8_t)rng();
  write_bytes(dir / "noise", noise);
  fs::rename(dir / "noise", path);
  EXPECT_EQ(section_sums(key.file()), sums);
  fs::remove(path);

  EXPECT_EQ(section_sums(key.file()), sums);
  expect_same_key<Bls12_381>(Zkey::open(good), key);
  EXPECT_TRUE(key.as<Bls12_381>().b2.back().on_curve());
}

// Why Residency::copy exists: a mapped key whose file is truncated kills the
// process with SIGBUS at its next read. The statement runs in a fresh child
// process; its file is unlinked at once, so nothing is left behind.
TEST(Zkey, AMappedKeyDiesBySigbusWhenItsFileIsTruncated) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const auto read_truncated = [] {
    std::string tmpl = (fs::temp_directory_path() / "cuzk-io-XXXXXX").string();
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0) std::exit(2);
    write_bytes(tmpl, read_bytes(fixture("bn128", "multiplier", "circuit.zkey")));
    const Zkey key = Zkey::open(tmpl);
    fs::remove(tmpl);
    if (::ftruncate(fd, 0) != 0) std::exit(3);
    std::exit(section_sums(key.file()).size() == 10 ? 0 : 4);
  };
  EXPECT_EXIT(read_truncated(), ::testing::KilledBySignal(SIGBUS), "");
}

// Sections in reverse order (as `groth16 setup` writes them out of order), and
// shifted by 4 mod 8 with an unknown empty section in front, so the sections
// that were viewed are copied and the other way round.
TEST(Zkey, SectionOrderAndPlacementDoNotMatter) {
  TempDir dir;
  const fs::path good = fixture("bls12381", "multiplier", "circuit.zkey");
  Container reversed = Container::load(good);
  std::reverse(reversed.sections.begin(), reversed.sections.end());
  reversed.save(dir / "reversed.zkey");
  Container shifted = Container::load(good);
  shifted.sections.insert(shifted.sections.begin(), {4000, {}, std::nullopt});
  shifted.save(dir / "shifted.zkey");

  const Zkey key = Zkey::open(good);
  expect_same_key<Bls12_381>(key, Zkey::open(dir / "reversed.zkey"));
  expect_same_key<Bls12_381>(key, Zkey::open(dir / "shifted.zkey"));
}

TEST(Zkey, MovingKeepsViewsValid) {
  Zkey key = Zkey::open(fixture("bn128", "linear", "circuit.zkey"));
  const auto a0 = key.as<Bn254>().a.data();
  const Zkey moved = std::move(key);
  EXPECT_EQ(moved.as<Bn254>().a.data(), a0);
  EXPECT_TRUE(moved.as<Bn254>().a[1].on_curve());
}

TEST(Zkey, WrongCurveAccessNamesBoth) {
  const Zkey key = Zkey::open(fixture("bn128", "linear", "circuit.zkey"));
  try {
    key.as<Bls12_381>();
    FAIL() << "no error";
  } catch (const io::FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("the key is for bn128, not bls12381"), std::string::npos) << e.what();
  }
}

TEST(Zkey, WitnessMustMatchKey) {
  const auto key_path = fixture("bn128", "multiplier", "circuit.zkey");
  const Zkey key = Zkey::open(key_path);
  const auto expect_error = [&](const io::Witness& w, const std::string& text) {
    try {
      io::check_witness_matches(key, w);
      ADD_FAILURE() << "no error for " << w.source;
    } catch (const io::FormatError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(text), std::string::npos) << msg;
      EXPECT_NE(msg.find(w.source), std::string::npos) << msg;
      EXPECT_NE(msg.find(key_path.string()), std::string::npos) << msg;
    }
  };
  expect_error(io::read_wtns(fixture("bls12381", "multiplier", "witness.wtns")),
               "is a bls12381 witness but " + key_path.string() + " is a bn128 key");
  expect_error(io::read_wtns(fixture("bn128", "nopublic", "witness.wtns")),
               "Invalid witness length. Circuit: 254, witness: 103");
}

template <class E>
std::vector<BadCase> zkey_cases(const fs::path& good) {
  using Fq = typename E::Fq;
  constexpr size_t n8q = Fq::bytes, g1 = 2 * n8q, g2 = 4 * n8q, n8r = 32, coef = 12 + n8r;
  const Container c = Container::load(good);
  const CircuitFacts& f = kCircuits[0];
  const std::string base = ec::curve_name(E::id);
  // Header layout (section 2): n8q, q, n8r, r, nVars, nPublic, domainSize,
  // alpha1, beta1, beta2, gamma2, delta1, delta2.
  const size_t at_vars = 4 + n8q + 4 + n8r, at_alpha1 = at_vars + 12;
  const size_t at_delta2 = at_alpha1 + 2 * g1 + 2 * g2 + g1;

  std::vector<BadCase> v;
  const auto edit = [&](std::string name, std::function<void(Container&)> change, std::string expect) {
    Container d = c;
    change(d);
    v.push_back({base + "_" + name, [d](const fs::path& p) { d.save(p); }, std::move(expect)});
  };
  const auto set_u32 = [](uint32_t id, size_t at, uint32_t x) {
    return [=](Container& d) { put<uint32_t>(d.section(id).data, at, x); };
  };
  const auto plant = [](uint32_t id, size_t at, Bytes x) {
    return [=](Container& d) { std::copy(x.begin(), x.end(), d.section(id).data.begin() + at); };
  };
  const auto flip = [](uint32_t id, size_t at) { return [=](Container& d) { d.section(id).data[at] ^= 1; }; };
  // A point that is not infinity (flipping a bit of infinity gives (0, 1),
  // which is off the curve too, but a real point is the stronger case).
  // The first finite point of section `id` from index `from` on.
  const auto finite = [&](uint32_t id, size_t size, size_t from = 0) {
    const Bytes& s = c.section(id).data;
    for (size_t i = from; i * size < s.size(); ++i)
      if (std::any_of(s.begin() + i * size, s.begin() + (i + 1) * size, [](uint8_t b) { return b != 0; })) return i;
    throw std::runtime_error("no finite point");
  };
  const Bytes q = modulus_bytes<Fq>();
  const Bytes r = modulus_bytes<typename E::Fr>();
  using Other = std::conditional_t<E::id == ec::Curve::bn254, Bls12_381, Bn254>;
  const Bytes other_r = modulus_bytes<typename Other::Fr>();
  const std::string vars = std::to_string(f.n_vars);

  edit("plonk", set_u32(1, 0, 2), "PLONK key (protocol 2): only Groth16 keys (protocol 1) are supported");
  edit("fflonk", set_u32(1, 0, 10), "FFLONK key (protocol 10)");
  edit("protocol_7", set_u32(1, 0, 7), "unknown protocol 7");
  edit("protocol_long", [](Container& d) { d.section(1).data.resize(8); },
       "section 1: 4 bytes left over after the protocol");
  edit("missing_h", [](Container& d) { std::erase_if(d.sections, [](auto& s) { return s.id == 9; }); },
       "section 9 is missing");
  edit("unsupported_q", flip(2, 4), "section 2: unsupported base field q = ");
  edit("n8q_7", set_u32(2, 0, 7), "unsupported base field q = ");
  edit("n8q_huge", set_u32(2, 0, 1u << 30), "section 2: truncated: reading q needs 1073741824 bytes");
  edit("other_curves_r", plant(2, 8 + n8q, other_r),
       std::string("is not the scalar field of ") + ec::curve_name(E::id));
  edit("domain_255", set_u32(2, at_vars + 8, 255), "section 2: domainSize 255 is not a power of two");
  edit("domain_0", set_u32(2, at_vars + 8, 0), "domainSize 0 is not a power of two");
  edit("npublic_eq_nvars", set_u32(2, at_vars + 4, f.n_vars), "nPublic " + vars + " is not below nVars " + vars);
  edit("nvars_plus_1", set_u32(2, at_vars, f.n_vars + 1),
       "section 5 is " + std::to_string(f.n_vars * g1) + " bytes but " + std::to_string(f.n_vars + 1) + " × " +
           std::to_string(g1) + " bytes are needed for " + std::to_string(f.n_vars + 1) + " A points");
  edit("header_long", [](Container& d) { d.section(2).data.resize(d.section(2).data.size() + 8); },
       "section 2: 8 bytes left over after the header points");
  edit("header_short", [&](Container& d) { d.section(2).data.resize(at_delta2 + 3); },
       "section 2: truncated: reading delta2");
  edit("a_long", [&](Container& d) { d.section(5).data.resize((f.n_vars + 1) * g1); },
       "section 5 is " + std::to_string((f.n_vars + 1) * g1) + " bytes but " + vars + " × " + std::to_string(g1) +
           " bytes are needed for " + vars + " A points");
  edit("b2_short", [&](Container& d) { d.section(7).data.resize((f.n_vars - 1) * g2); },
       "bytes are needed for " + vars + " B2 points");
  edit("ic_long", [&](Container& d) { d.section(3).data.resize(d.section(3).data.size() + g1); }, "IC points");
  edit("c_short", [&](Container& d) { d.section(8).data.resize(d.section(8).data.size() - g1); }, "C points");
  edit("h_short", [&](Container& d) { d.section(9).data.resize(d.section(9).data.size() - 1); }, "H points");

  edit("alpha1_x_is_q", plant(2, at_alpha1, q), "section 2: alpha1 has a coordinate ≥ q");
  edit("alpha1_off_curve", flip(2, at_alpha1 + n8q), "section 2: alpha1 is not on the curve");
  edit("delta2_off_curve", flip(2, at_delta2 + 3 * n8q), "section 2: delta2 is not on the curve");
  const size_t ia = finite(5, g1), ib = finite(7, g2), ic = finite(3, g1), iC = finite(8, g1), ih = finite(9, g1);
  const auto nth = [](const char* what, size_t i) { return std::string(what) + " point " + std::to_string(i); };
  edit("a_x_is_q", plant(5, ia * g1, q), "section 5: " + nth("A", ia) + " has a coordinate ≥ q");
  edit("a_y_all_ones", plant(5, ia * g1 + n8q, Bytes(n8q, 0xff)), "section 5: " + nth("A", ia) + " has a coordinate ≥ q");
  edit("b2_y_c1_is_q", plant(7, ib * g2 + 3 * n8q, q), "section 7: " + nth("B2", ib) + " has a coordinate ≥ q");
  edit("a_off_curve", flip(5, ia * g1 + n8q), "section 5: " + nth("A", ia) + " is not on the curve");
  edit("b1_off_curve", flip(6, finite(6, g1) * g1), "section 6: " + nth("B1", finite(6, g1)) + " is not on the curve");
  edit("b2_off_curve", flip(7, ib * g2 + 2 * n8q), "section 7: " + nth("B2", ib) + " is not on the curve");
  edit("ic_off_curve", flip(3, ic * g1 + n8q), "section 3: " + nth("IC", ic) + " is not on the curve");
  edit("c_off_curve", flip(8, iC * g1 + n8q), "section 8: " + nth("C", iC) + " is not on the curve");
  edit("h_off_curve", flip(9, ih * g1 + n8q), "section 9: " + nth("H", ih) + " is not on the curve");
  edit("h_last_off_curve", flip(9, (f.domain_size - 1) * g1 + n8q), nth("H", f.domain_size - 1));
  edit("a_zero_y", plant(5, ia * g1 + n8q, Bytes(n8q, 0)), nth("A", ia) + " is not on the curve");
  // Inside a later group of eight (the IFMA check's unit), for both groups' fields.
  const size_t ih9 = finite(9, g1, 9), ib13 = finite(7, g2, 13);
  edit("h_later_off_curve", flip(9, ih9 * g1 + n8q), "section 9: " + nth("H", ih9) + " is not on the curve");
  edit("h_later_x_is_q", plant(9, (ih9 + 2) * g1, q), "section 9: " + nth("H", ih9 + 2) + " has a coordinate ≥ q");
  edit("b2_later_off_curve", flip(7, ib13 * g2 + n8q), "section 7: " + nth("B2", ib13) + " is not on the curve");

  // Coefficient entries: u32 nCoefs, then (matrix, constraint, signal, value).
  const auto entry = [&](size_t i) { return 4 + i * coef; };
  edit("coef_matrix_2", set_u32(4, entry(3), 2), "section 4: coefficient 3 has matrix 2");
  edit("coef_constraint_big", set_u32(4, entry(4) + 4, f.domain_size),
       "coefficient 4 has constraint 256, not below domainSize 256");
  edit("coef_signal_big", set_u32(4, entry(5) + 8, f.n_vars), "coefficient 5 has signal " + vars + ", not below nVars " + vars);
  edit("coef_value_is_r", plant(4, entry(6) + 12, r), "section 4: coefficient 6 has a value ≥ r");
  edit("coef_value_ones", plant(4, entry(f.n_coefs - 1) + 12, Bytes(n8r, 0xff)),
       "coefficient " + std::to_string(f.n_coefs - 1) + " has a value ≥ r");
  edit("coef_count_plus_1", set_u32(4, 0, f.n_coefs + 1),
       "section 4 is " + std::to_string(4 + f.n_coefs * coef) + " bytes but 4 + " + std::to_string(f.n_coefs + 1) +
           " × " + std::to_string(coef) + " bytes are needed for " + std::to_string(f.n_coefs + 1) + " coefficients");
  edit("coef_section_empty", [](Container& d) { d.section(4).data.clear(); }, "section 4: truncated: reading nCoefs");
  return v;
}

TEST(Zkey, BadInputsFailWithAClearMessage) {
  TempDir dir;
  for (const char* curve : kCurves) {
    const fs::path good = fixture(curve, "multiplier", "circuit.zkey");
    ASSERT_NO_THROW(Zkey::open(good));
    auto cases = container_cases(good, "zkey");
    for (auto& c : cases) c.name = std::string(curve) + "_" + c.name;  // zkey_cases are already prefixed
    const auto more = std::string(curve) == "bn128" ? zkey_cases<Bn254>(good) : zkey_cases<Bls12_381>(good);
    cases.insert(cases.end(), more.begin(), more.end());
    run_bad_cases(dir, cases, [](const fs::path& p) { Zkey::open(p); }, ".zkey");
    run_bad_cases(dir, cases, [](const fs::path& p) { Zkey::open(p, io::Residency::copy); }, ".zkey");
    run_bad_byte_cases(dir, cases, [](std::string name, std::span<const uint8_t> b) { Zkey::from_bytes(name, b); },
                       ".zkey");
#if defined(CUZK_HAVE_MONT52X8)
    // The points eight at a time (where the CPU has IFMA) and one at a time
    // name the same point and fault.
    if (ff::mont52x8::have_ifma()) {
      ff::mont52x8::set_ifma(false);
      run_bad_cases(dir, cases, [](const fs::path& p) { Zkey::open(p); }, ".zkey");
      ff::mont52x8::set_ifma(true);
    }
#endif
  }
}

// The key's first use of its points, as PreparedKey gates it: the checks a
// deferred read left, or nothing for a key checked on reading.
void use_points(const Zkey& key) {
  key.visit([&](const auto& pk) {
    using E = typename std::remove_cvref_t<decltype(pk)>::CurveTypes;
    groth16::PreparedKey<E>::make(key.share<E>())->require_checked_points();
  });
}

// Deferred point checks (a one-shot proof's): every fault of the table is met
// with the message of a checked read, by the read or by the points' first use.
TEST(Zkey, DeferredPointChecksMeetEveryFaultWithTheSameMessage) {
  TempDir dir;
  for (const char* curve : kCurves) {
    const fs::path good = fixture(curve, "multiplier", "circuit.zkey");
    auto cases = std::string(curve) == "bn128" ? zkey_cases<Bn254>(good) : zkey_cases<Bls12_381>(good);
    for (auto& c : cases) c.name = std::string(curve) + "_deferred_" + c.name;
    run_bad_cases(dir, cases, [](const fs::path& p) { use_points(Zkey::open(p, io::Residency::map, io::PointChecks::deferred)); },
                  ".zkey");
    run_bad_byte_cases(
        dir, cases,
        [](std::string name, std::span<const uint8_t> b) { use_points(Zkey::from_bytes(name, b, io::PointChecks::deferred)); },
        ".zkey");
  }
}

// What deferral defers: a B2 point off its curve reads, its first use fails
// and every later one again, and a GPU's word cannot clear it; a good key's
// points pass once; a copy of a key is checked on its own spans; a key
// checked on reading has nothing left to check.
TEST(Zkey, DeferredPointChecksRunOnceAtFirstUse) {
  TempDir dir;
  const fs::path good = fixture("bn128", "multiplier", "circuit.zkey");
  Container c = Container::load(good);
  c.section(7).data[128 + 64] ^= 1;  // B2 point 1's y
  c.save(dir / "b2.zkey");
  const Zkey bad = Zkey::open(dir / "b2.zkey", io::Residency::map, io::PointChecks::deferred);
  const auto prepared = groth16::PreparedKey<Bn254>::make(bad.share<Bn254>());
  EXPECT_TRUE(prepared->points_unchecked());
  for (int use = 0; use < 2; ++use)
    EXPECT_THROW(
        {
          try {
            prepared->require_checked_points();
          } catch (const io::FormatError& e) {
            EXPECT_NE(std::string(e.what()).find("section 7: B2 point 1 is not on the curve"), std::string::npos)
                << e.what();
            throw;
          }
        },
        io::FormatError);
  EXPECT_TRUE(prepared->points_failed());
  prepared->points_checked_on_gpu();
  EXPECT_TRUE(prepared->points_unchecked());
  EXPECT_THROW(prepared->require_checked_points(), io::FormatError);
  EXPECT_THROW(Zkey::open(dir / "b2.zkey"), io::FormatError);

  const Zkey deferred = Zkey::open(good, io::Residency::map, io::PointChecks::deferred);
  const auto fine = groth16::PreparedKey<Bn254>::make(deferred.share<Bn254>());
  EXPECT_TRUE(fine->points_unchecked());
  fine->require_checked_points();
  EXPECT_FALSE(fine->points_unchecked());
  EXPECT_FALSE(fine->points_failed());

  // A copy of the good key that views the bad key's B2: its own points are checked.
  auto copy = std::make_shared<ProvingKey<Bn254>>(deferred.as<Bn254>());
  copy->b2 = bad.as<Bn254>().b2;
  try {
    groth16::PreparedKey<Bn254>::make(copy)->require_checked_points();
    ADD_FAILURE() << "the copy's B2 passed";
  } catch (const io::FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("section 7: B2 point 1 is not on the curve"), std::string::npos) << e.what();
  }
  const Zkey checked = Zkey::open(good);
  EXPECT_FALSE(groth16::PreparedKey<Bn254>::make(checked.share<Bn254>())->points_unchecked());
}

// Infinity (all-zero) is a valid point anywhere, including where the key had
// a finite one.
TEST(Zkey, InfinityIsAcceptedAnywhere) {
  TempDir dir;
  Container c = Container::load(fixture("bn128", "multiplier", "circuit.zkey"));
  std::fill(c.section(5).data.begin(), c.section(5).data.begin() + 64 * 10, 0);
  c.save(dir / "inf.zkey");
  const Zkey key = Zkey::open(dir / "inf.zkey");
  EXPECT_TRUE(key.as<Bn254>().a[3].is_inf());
}

}  // namespace
}  // namespace cuzk::test
