#include "cuzk/io/json.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "cuzk/ec/ops.hpp"
#include "cuzk/ff/bigint.hpp"
#include "cuzk/ff/encode.hpp"
#include "cuzk/io/atomic_file.hpp"

namespace cuzk::io {

namespace fs = std::filesystem;
using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

// The file being read, for messages "<file>: <where>: <problem>".
struct Doc {
  std::string name;
  json root;

  [[noreturn]] void fail(const std::string& where, const std::string& problem) const {
    throw FormatError(name + ": " + (where.empty() ? "" : where + ": ") + problem);
  }
};

Doc parse(std::string_view text, std::string name) {
  Doc d{std::move(name), {}};
  if (text.empty()) d.fail("", "file is empty");
  try {
    d.root = json::parse(text);
  } catch (const json::exception& e) {
    d.fail("", std::string("invalid JSON: ") + e.what());
  }
  return d;
}

Doc load(const fs::path& path) { return parse(read_json_document(path), path.string()); }

// A value in a message: clipped and without control characters.
std::string shown(const std::string& s) {
  std::string r;
  for (char c : s.substr(0, 40)) r += std::isprint((unsigned char)c) ? c : '?';
  if (s.size() > 40) r += "...";
  return "\"" + r + "\"";
}

// "<prefix>[i]", built by appending (GCC 12 gives a false -Wrestrict for
// "[" + std::to_string(i), its bug 105329).
std::string indexed(const std::string& prefix, size_t i) {
  std::string r = prefix;
  r += '[';
  r += std::to_string(i);
  r += ']';
  return r;
}

const json& member(const Doc& d, const json& obj, const char* key) {
  if (!obj.is_object()) d.fail("", "not a JSON object");
  const auto it = obj.find(key);
  if (it == obj.end()) d.fail("", std::string("missing key \"") + key + "\"");
  return *it;
}

const json& array_of(const Doc& d, const json& v, const std::string& where, size_t n) {
  if (!v.is_array()) d.fail(where, "not an array");
  if (v.size() != n) d.fail(where, "has " + std::to_string(v.size()) + " entries, expected " + std::to_string(n));
  return v;
}

template <class F>
F decimal(const Doc& d, const json& v, const std::string& where, const char* modulus) {
  if (!v.is_string()) d.fail(where, "not a decimal string");
  const std::string& s = v.get_ref<const std::string&>();
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
    d.fail(where, shown(s) + " is not a decimal integer");
  // from_decimal takes time quadratic in the digits (a 1 MB public.json entry
  // took over a minute), so a number with more significant digits than F's
  // limbs hold (10^(20N) > 2^(64N)) is refused before it is parsed.
  const size_t digits = s.size() - std::min(s.find_first_not_of('0'), s.size());
  ff::BigUint b;
  uint64_t limbs[F::N];
  F out;
  if (digits > 20 * F::N || !ff::BigUint::from_decimal(s, b) || !b.to_limbs(limbs, F::N) ||
      !F::from_canonical(limbs, out))
    d.fail(where, "value is not below " + std::string(modulus));
  return out;
}

template <class F>
constexpr bool is_fp2 = requires { typename F::Base; };

template <class F>
F coordinate(const Doc& d, const json& v, const std::string& where) {
  if constexpr (is_fp2<F>) {
    const json& a = array_of(d, v, where, 2);
    return {decimal<typename F::Base>(d, a[0], indexed(where, 0), "q"), decimal<typename F::Base>(d, a[1], indexed(where, 1), "q")};
  } else {
    return decimal<F>(d, v, where, "q");
  }
}

// [x, y, z] (z may be left out, meaning 1): z = 0 is infinity, otherwise
// Jacobian (x/z^2, y/z^3), which for z = 1 is (x, y).
template <class C>
ec::Affine<C> point(const Doc& d, const json& v, const std::string& where) {
  using F = typename C::F;
  if (!v.is_array() || (v.size() != 2 && v.size() != 3)) d.fail(where, "not a point: expected an array [x, y, z]");
  const F x = coordinate<F>(d, v[0], indexed(where, 0));
  const F y = coordinate<F>(d, v[1], indexed(where, 1));
  const F z = v.size() == 3 ? coordinate<F>(d, v[2], indexed(where, 2)) : F::one();
  if (z.is_zero()) return ec::Affine<C>::infinity();
  const ec::Jacobian<C> j{x, y, z};
  // Checked on the projective form: (0, 0, 1) is no curve point, though its
  // affine form is our encoding of infinity.
  if (!j.on_curve()) d.fail(where, "point is not on the curve");
  return j.to_affine();
}

template <class F>
std::string dec(const F& a) {
  return ff::to_decimal(a);
}

template <class F>
ojson coord_json(const F& a) {
  if constexpr (is_fp2<F>)
    return ojson::array({dec(a.c0), dec(a.c1)});
  else
    return dec(a);
}

template <class C>
ojson point_json(const ec::Affine<C>& p) {
  using F = typename C::F;
  if (p.is_inf()) return ojson::array({coord_json(F::zero()), coord_json(F::one()), coord_json(F::zero())});
  return ojson::array({coord_json(p.x), coord_json(p.y), coord_json(F::one())});
}

template <class F12>
ojson fq12_json(const F12& a) {
  auto f6 = [](const auto& b) { return ojson::array({coord_json(b.c0), coord_json(b.c1), coord_json(b.c2)}); };
  return ojson::array({f6(a.c0), f6(a.c1)});
}

template <class F12>
F12 fq12(const Doc& d, const json& v, const std::string& where) {
  using F2 = decltype(F12{}.c0.c0);
  const json& a = array_of(d, v, where, 2);
  F12 r;
  auto f6 = [&](const json& b, const std::string& w, auto& out) {
    array_of(d, b, w, 3);
    out.c0 = coordinate<F2>(d, b[0], indexed(w, 0));
    out.c1 = coordinate<F2>(d, b[1], indexed(w, 1));
    out.c2 = coordinate<F2>(d, b[2], indexed(w, 2));
  };
  f6(a[0], indexed(where, 0), r.c0);
  f6(a[1], indexed(where, 1), r.c1);
  return r;
}

// "curve": required or not, it must name E when present.
template <class E>
void check_curve(const Doc& d, bool required) {
  if (!d.root.is_object()) d.fail("", "not a JSON object");
  if (!d.root.contains("curve")) {
    if (required) d.fail("", "missing key \"curve\"");
    return;
  }
  const json& c = d.root["curve"];
  if (!c.is_string()) d.fail("curve", "not a string");
  const auto curve = curve_from_name(c.get_ref<const std::string&>());
  if (!curve) d.fail("curve", "unknown curve " + shown(c.get<std::string>()));
  if (*curve != E::id)
    d.fail("curve", std::string("the file is for ") + curve_name(*curve) + ", not " + curve_name(E::id));
}

void check_protocol(const Doc& d, bool required) {
  if (!d.root.is_object()) d.fail("", "not a JSON object");
  if (!d.root.contains("protocol")) {
    if (required) d.fail("", "missing key \"protocol\"");
    return;
  }
  const json& p = d.root["protocol"];
  if (!p.is_string() || p.get<std::string>() != "groth16") d.fail("protocol", "not \"groth16\"");
}

template <class C>
ec::Affine<C> subgroup_point(const Doc& d, const json& v, const std::string& where) {
  const auto p = point<C>(d, v, where);
  if (!ec::in_subgroup(p)) d.fail(where, "point is not in the order-r subgroup");
  return p;
}

}  // namespace

std::optional<Curve> curve_from_name(std::string_view name) {
  // snarkjs curves.js: upper-case, keep [A-Za-z0-9] only, then compare.
  std::string n;
  for (char c : name)
    if (std::isalnum((unsigned char)c)) n += (char)std::toupper((unsigned char)c);
  if (n == "BN128" || n == "BN254" || n == "ALTBN128") return Curve::bn254;
  if (n == "BLS12381") return Curve::bls12_381;
  return std::nullopt;
}

JsonKind json_kind(const fs::path& path) {
  try {
    const Doc d = load(path);
    if (d.root.is_array()) return JsonKind::public_signals;
    if (!d.root.is_object()) return JsonKind::unknown;
    if (d.root.contains("pi_a")) return JsonKind::proof;
    if (d.root.contains("vk_alpha_1")) return JsonKind::verifying_key;
  } catch (const FormatError&) {
  }
  return JsonKind::unknown;
}

const char* json_kind_name(JsonKind kind) {
  switch (kind) {
    case JsonKind::proof: return "a proof";
    case JsonKind::public_signals: return "public signals";
    case JsonKind::verifying_key: return "a verification key";
    case JsonKind::unknown: break;
  }
  return "unknown";
}

namespace {

Curve curve_of(const Doc& d) {
  const json& c = member(d, d.root, "curve");
  if (!c.is_string()) d.fail("curve", "not a string");
  const auto curve = curve_from_name(c.get_ref<const std::string&>());
  if (!curve) d.fail("curve", "unknown curve " + shown(c.get<std::string>()));
  return *curve;
}

template <class E>
groth16::Proof<E> proof_of(const Doc& d) {
  check_protocol(d, false);
  check_curve<E>(d, false);
  groth16::Proof<E> p;
  p.a = point<typename E::G1>(d, member(d, d.root, "pi_a"), "pi_a");
  p.b = point<typename E::G2>(d, member(d, d.root, "pi_b"), "pi_b");
  p.c = point<typename E::G1>(d, member(d, d.root, "pi_c"), "pi_c");
  return p;
}

template <class E>
std::vector<typename E::Fr> publics_of(const Doc& d) {
  if (!d.root.is_array()) d.fail("", "not a JSON array of decimal strings");
  std::vector<typename E::Fr> out;
  out.reserve(d.root.size());
  for (size_t i = 0; i < d.root.size(); ++i)
    out.push_back(decimal<typename E::Fr>(d, d.root[i], indexed("", i), "r"));
  return out;
}

template <class E>
groth16::VerifyingKey<E> vk_of(const Doc& d) {
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  check_protocol(d, true);
  check_curve<E>(d, true);
  const json& np = member(d, d.root, "nPublic");
  if (!np.is_number_integer() || np.get<int64_t>() < 0) d.fail("nPublic", "not a non-negative integer");
  const uint64_t n_public = np.get<uint64_t>();
  groth16::VerifyingKey<E> vk;
  vk.alpha1 = subgroup_point<G1>(d, member(d, d.root, "vk_alpha_1"), "vk_alpha_1");
  vk.beta2 = subgroup_point<G2>(d, member(d, d.root, "vk_beta_2"), "vk_beta_2");
  vk.gamma2 = subgroup_point<G2>(d, member(d, d.root, "vk_gamma_2"), "vk_gamma_2");
  vk.delta2 = subgroup_point<G2>(d, member(d, d.root, "vk_delta_2"), "vk_delta_2");
  vk.alphabeta = fq12<typename groth16::VerifyingKey<E>::Fq12>(d, member(d, d.root, "vk_alphabeta_12"), "vk_alphabeta_12");
  const json& ic = member(d, d.root, "IC");
  if (!ic.is_array()) d.fail("IC", "not an array");
  if (ic.size() != n_public + 1)
    d.fail("IC", "has " + std::to_string(ic.size()) + " points, expected nPublic + 1 = " + std::to_string(n_public + 1));
  for (size_t i = 0; i < ic.size(); ++i) vk.ic.push_back(subgroup_point<G1>(d, ic[i], indexed("IC", i)));
  return vk;
}

}  // namespace

std::string read_json_document(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Doc{path.string(), {}}.fail("", std::string("cannot open: ") + std::strerror(errno));
  std::string text((std::istreambuf_iterator<char>(in)), {});
  if (in.bad()) Doc{path.string(), {}}.fail("", "read error");
  return text;
}

Curve read_json_curve(const fs::path& path) { return curve_of(load(path)); }
Curve parse_json_curve(std::string_view text, const std::string& name) { return curve_of(parse(text, name)); }

std::string json_text(const ojson& j) { return j.dump(1); }

void write_json_files(std::span<const std::pair<fs::path, ojson>> files) {
  std::vector<std::string> texts;
  std::vector<FileContents> out;
  texts.reserve(files.size());  // never reallocated: `out` points into it
  for (const auto& [path, j] : files) out.push_back({path, bytes_of(std::span(texts.emplace_back(json_text(j))))});
  write_together(out);
}

void write_json_file(const fs::path& path, const ojson& j) {
  const std::pair<fs::path, ojson> one[] = {{path, j}};
  write_json_files(one);
}

template <class E>
groth16::Proof<E> read_proof_json(const fs::path& path) {
  return proof_of<E>(load(path));
}
template <class E>
groth16::Proof<E> parse_proof_json(std::string_view text, const std::string& name) {
  return proof_of<E>(parse(text, name));
}

template <class E>
ojson proof_to_json(const groth16::Proof<E>& p) {
  ojson j = ojson::object();
  j["pi_a"] = point_json(p.a);
  j["pi_b"] = point_json(p.b);
  j["pi_c"] = point_json(p.c);
  j["protocol"] = "groth16";
  j["curve"] = curve_name(E::id);
  return j;
}

template <class E>
void write_proof_json(const fs::path& path, const groth16::Proof<E>& p) {
  write_json_file(path, proof_to_json(p));
}

template <class E>
std::vector<typename E::Fr> read_public_json(const fs::path& path) {
  return publics_of<E>(load(path));
}
template <class E>
std::vector<typename E::Fr> parse_public_json(std::string_view text, const std::string& name) {
  return publics_of<E>(parse(text, name));
}

template <class E>
ojson public_to_json(std::span<const typename E::Fr> publics) {
  ojson j = ojson::array();
  for (const auto& x : publics) j.push_back(dec(x));
  return j;
}

template <class E>
void write_public_json(const fs::path& path, std::span<const typename E::Fr> publics) {
  write_json_file(path, public_to_json<E>(publics));
}

template <class E>
groth16::VerifyingKey<E> read_vk_json(const fs::path& path) {
  return vk_of<E>(load(path));
}
template <class E>
groth16::VerifyingKey<E> parse_vk_json(std::string_view text, const std::string& name) {
  return vk_of<E>(parse(text, name));
}

template <class E>
ojson vk_to_json(const groth16::VerifyingKey<E>& vk) {
  ojson j = ojson::object();
  j["protocol"] = "groth16";
  j["curve"] = curve_name(E::id);
  j["nPublic"] = vk.n_public();
  j["vk_alpha_1"] = point_json(vk.alpha1);
  j["vk_beta_2"] = point_json(vk.beta2);
  j["vk_gamma_2"] = point_json(vk.gamma2);
  j["vk_delta_2"] = point_json(vk.delta2);
  j["vk_alphabeta_12"] = fq12_json(vk.alphabeta);
  ojson ic = ojson::array();
  for (const auto& p : vk.ic) ic.push_back(point_json(p));
  j["IC"] = ic;
  return j;
}

template <class E>
void write_vk_json(const fs::path& path, const groth16::VerifyingKey<E>& vk) {
  write_json_file(path, vk_to_json(vk));
}

#define CUZK_IO_JSON_INST(E)                                                                    \
  template groth16::Proof<E> read_proof_json<E>(const fs::path&);                               \
  template groth16::Proof<E> parse_proof_json<E>(std::string_view, const std::string&);         \
  template std::vector<E::Fr> parse_public_json<E>(std::string_view, const std::string&);       \
  template groth16::VerifyingKey<E> parse_vk_json<E>(std::string_view, const std::string&);     \
  template ojson proof_to_json<E>(const groth16::Proof<E>&);                                    \
  template void write_proof_json<E>(const fs::path&, const groth16::Proof<E>&);                 \
  template std::vector<E::Fr> read_public_json<E>(const fs::path&);                             \
  template ojson public_to_json<E>(std::span<const E::Fr>);                                     \
  template void write_public_json<E>(const fs::path&, std::span<const E::Fr>);                  \
  template groth16::VerifyingKey<E> read_vk_json<E>(const fs::path&);                           \
  template ojson vk_to_json<E>(const groth16::VerifyingKey<E>&);                                \
  template void write_vk_json<E>(const fs::path&, const groth16::VerifyingKey<E>&);
CUZK_IO_JSON_INST(Bn254)
CUZK_IO_JSON_INST(Bls12_381)

}  // namespace cuzk::io
