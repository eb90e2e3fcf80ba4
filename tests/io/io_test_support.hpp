// Shared by the io tests: where the fixtures are, what snarkjs says about them,
// a temporary directory, and an editable copy of a container file for building
// corrupted inputs.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "cuzk/io/binfile.hpp"

namespace cuzk::test {

namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;

inline fs::path fixture(const std::string& curve, const std::string& circuit, const std::string& file) {
  return fs::path(CUZK_SOURCE_DIR) / "tests" / "fixtures" / curve / circuit / file;
}

// Fixture facts, as reported by `npx snarkjs zkey export json circuit.zkey`
// (nVars, nPublic, domainSize, ccoefs.length) and `npx snarkjs r1cs info
// circuit.r1cs` (the rest); identical for bn128 and bls12381.
struct CircuitFacts {
  const char* name;
  uint32_t n_vars, n_public, domain_size, n_coefs;
  uint32_t n_constraints, n_pub_out, n_pub_in, n_prv_in, n_labels;
};
inline const CircuitFacts kCircuits[] = {
    {"multiplier", 254, 2, 256, 505, 251, 1, 1, 1, 255},
    {"nopublic", 103, 0, 128, 201, 100, 0, 0, 2, 103},
    {"linear", 83, 2, 64, 83, 41, 1, 1, 40, 83},
};
inline const char* const kCurves[] = {"bn128", "bls12381"};

inline Bytes read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

inline void write_bytes(const fs::path& p, const Bytes& b) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), (std::streamsize)b.size());
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

template <class T>
T get(const Bytes& b, size_t at) {
  T v;
  std::memcpy(&v, b.data() + at, sizeof v);
  return v;
}
template <class T>
void put(Bytes& b, size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof v);
}

// Little-endian bytes of a field's modulus, to plant as a coordinate or value
// that is exactly the first one out of range.
template <class F>
Bytes modulus_bytes() {
  Bytes b(F::bytes);
  for (size_t i = 0; i < F::N; ++i) put<uint64_t>(b, 8 * i, F::params::modulus(i));
  return b;
}

// A fresh directory, removed with its contents at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "cuzk-io-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

// A container split into its parts, to be edited and written back. `declared`
// overrides the size written in a section's header, to make it lie.
struct Container {
  struct Section {
    uint32_t id;
    Bytes data;
    std::optional<uint64_t> declared;
  };
  Bytes magic;
  uint32_t version = 0;
  std::vector<Section> sections;

  static Container parse(const Bytes& b) {
    Container c;
    c.magic.assign(b.begin(), b.begin() + 4);
    c.version = get<uint32_t>(b, 4);
    const uint32_t n = get<uint32_t>(b, 8);
    size_t pos = 12;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t id = get<uint32_t>(b, pos);
      const uint64_t size = get<uint64_t>(b, pos + 4);
      pos += 12;
      c.sections.push_back({id, Bytes(b.begin() + pos, b.begin() + pos + size), std::nullopt});
      pos += size;
    }
    return c;
  }
  static Container load(const fs::path& p) { return parse(read_bytes(p)); }

  Section& section(uint32_t id) {
    for (auto& s : sections)
      if (s.id == id) return s;
    throw std::runtime_error("no section " + std::to_string(id));
  }
  const Section& section(uint32_t id) const { return const_cast<Container*>(this)->section(id); }

  Bytes bytes() const {
    Bytes b(magic);
    b.resize(12);
    put<uint32_t>(b, 4, version);
    put<uint32_t>(b, 8, (uint32_t)sections.size());
    for (const auto& s : sections) {
      const size_t at = b.size();
      b.resize(at + 12);
      put<uint32_t>(b, at, s.id);
      put<uint64_t>(b, at + 4, s.declared.value_or(s.data.size()));
      b.insert(b.end(), s.data.begin(), s.data.end());
    }
    return b;
  }
  void save(const fs::path& p) const { write_bytes(p, bytes()); }
};

// One row of a bad-input table: how to make the file, and a distinctive part
// of the message the reader must give.
struct BadCase {
  std::string name;
  std::function<void(const fs::path&)> make;
  std::string expect;
};

// That read() throws a FormatError on one line, starting "<name>: " and
// containing `expect`.
template <class Read>
void expect_format_error(const std::string& name, Read read, const std::string& expect) {
  try {
    read();
    ADD_FAILURE() << "no error";
  } catch (const io::FormatError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind(name + ": ", 0), 0u) << msg;
    EXPECT_NE(msg.find(expect), std::string::npos) << "expected \"" << expect << "\" in: " << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

// Runs `read` on a file made by each case and checks that it throws
// FormatError, on one line, naming the file and containing the expected text.
template <class Read>
void run_bad_cases(const TempDir& dir, const std::vector<BadCase>& cases, Read read, const std::string& ext) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path p = dir / (c.name + ext);
    c.make(p);
    expect_format_error(p.string(), [&] { read(p); }, c.expect);
  }
}

// The same through a reader of bytes in memory: read(name, bytes) with each
// case's file contents, under a name that is not a path, which every message
// must start with. A case that makes no file has no bytes and is left out.
template <class ReadBytes>
void run_bad_byte_cases(const TempDir& dir, const std::vector<BadCase>& cases, ReadBytes read,
                        const std::string& ext) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name + " (bytes)");
    const fs::path p = dir / (c.name + ext);
    c.make(p);
    if (!fs::exists(p)) continue;
    const Bytes bytes = read_bytes(p);
    const std::string name = "request " + c.name;
    expect_format_error(name, [&] { read(name, std::span<const uint8_t>(bytes)); }, c.expect);
  }
}

// Cases every container reader must handle the same way, from a valid file.
inline std::vector<BadCase> container_cases(const fs::path& good, const std::string& magic) {
  const Bytes b = read_bytes(good);
  const Container c = Container::parse(b);
  std::vector<BadCase> v;
  const auto write = [](Bytes x) { return [x](const fs::path& p) { write_bytes(p, x); }; };
  const auto prefix = [&](size_t n) { return Bytes(b.begin(), b.begin() + n); };
  v.push_back({"missing", [](const fs::path&) {}, "cannot open: No such file or directory"});
  v.push_back({"empty", write({}), "file is 0 bytes, too short for the 12-byte header"});
  v.push_back({"cut_in_magic", write(prefix(3)), "too short for the 12-byte header"});
  v.push_back({"cut_in_header", write(prefix(10)), "too short for the 12-byte header"});
  v.push_back({"no_sections", write(prefix(12)), "section table truncated"});
  v.push_back({"cut_in_section_table", write(prefix(18)), "section table truncated"});
  v.push_back({"cut_in_first_section", write(prefix(12 + 12 + 2)), "remain in the file"});
  v.push_back({"cut_mid_file", write(prefix(b.size() / 2)), "remain in the file"});
  v.push_back({"cut_last_byte", write(prefix(b.size() - 1)), "remain in the file"});
  v.push_back({"trailing_byte", [&, b](const fs::path& p) {
                 Bytes x = b;
                 x.push_back(0);
                 write_bytes(p, x);
               },
               "1 byte of trailing data"});
  {
    Bytes x = b;
    x[0] ^= 0x20;
    v.push_back({"wrong_magic", write(x), "wrong magic"});
    Bytes y = b;
    put<uint32_t>(y, 4, c.version + 1);
    v.push_back({"wrong_version", write(y), "version " + std::to_string(c.version + 1) + " is not supported"});
  }
  {
    Container d = c;
    d.sections.push_back(d.sections.front());
    v.push_back({"duplicate_section", write(d.bytes()),
                 "section " + std::to_string(c.sections.front().id) + " appears twice"});
  }
  {
    // The last section's header claims more, or fewer, bytes than follow it.
    Container d = c;
    d.sections.back().declared = d.sections.back().data.size() + 8;
    v.push_back({"last_size_too_big", write(d.bytes()), "claims"});
    Container e = c;
    e.sections.back().declared = e.sections.back().data.size() - 1;
    v.push_back({"last_size_too_small", write(e.bytes()), "1 byte of trailing data"});
    // A middle section that lies makes the rest of the table garbage: any
    // FormatError is right, as long as it names the file.
    Container f = c;
    f.sections[1].declared = f.sections[1].data.size() + 13;
    v.push_back({"middle_size_too_big", write(f.bytes()), ""});
    Container g = c;
    g.sections[1].declared = g.sections[1].data.size() - 5;
    v.push_back({"middle_size_too_small", write(g.bytes()), ""});
  }
  // Random bytes, with and without a plausible header in front.
  std::mt19937_64 rng(12345);
  for (size_t size : {size_t(12), size_t(100), b.size()}) {
    Bytes r(size);
    for (auto& x : r) x = (uint8_t)rng();
    v.push_back({"random_" + std::to_string(size), write(r), "wrong magic"});
    Bytes h = r;
    std::memcpy(h.data(), magic.data(), 4);
    put<uint32_t>(h, 4, c.version);
    v.push_back({"random_after_header_" + std::to_string(size), write(h), ""});
  }
  {
    Bytes r = prefix(12);
    put<uint32_t>(r, 8, 0xffffffffu);  // four billion sections in 12 bytes
    v.push_back({"huge_section_count", write(r), "section table truncated"});
  }
  return v;
}

}  // namespace cuzk::test
