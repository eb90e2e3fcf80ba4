#include "cuzk/io/zkey.hpp"

#include <algorithm>
#include <functional>
#include <type_traits>

#include "cuzk/ec/on_curve_lanes.hpp"
#include "cuzk/ec/point_check.hpp"
#include "cuzk/util/progress.hpp"

namespace cuzk::io {

namespace {

constexpr uint32_t kVersion = 1;
enum Section : uint32_t { kProtocol = 1, kHeader = 2, kIC = 3, kCoefs = 4, kA = 5, kB1 = 6, kB2 = 7, kC = 8, kH = 9 };

using ec::check_point;
using ec::PointFault;
using ec::reduced;

std::string str(uint64_t v) { return std::to_string(v); }

// The first point of `view` that check_point refuses (view.size() when none).
// Eight at a time where IFMA is there: a group is good when its coordinates
// are reduced and each point passes on_curve_lanes or is infinity; the first
// bad group is then searched point by point, so that the index and the fault
// named are the scalar check's.
template <class C>
size_t first_bad_point(std::span<const ec::Affine<C>> view, Progress& progress) {
  using P = ec::Affine<C>;
  const auto good = [&](size_t i) { return check_point(view[i]) == PointFault::none; };
#if defined(CUZK_HAVE_MONT52X8)
  if constexpr (ec::kHasOnCurveLanes<C>) {
    if (!ff::mont52x8::use_ifma()) return first_invalid_reported(view.size(), sizeof(P), progress, good);
    const size_t g = first_invalid_reported(view.size() / 8, 8 * sizeof(P), progress, [&](size_t g) {
      const P* q = view.data() + 8 * g;
      for (int l = 0; l < 8; ++l)
        if (!reduced(q[l].x) || !reduced(q[l].y)) return false;
      const uint8_t on = ec::on_curve_lanes(q);
      for (int l = 0; l < 8; ++l)
        if (!((on >> l) & 1) && !q[l].is_inf()) return false;
      return true;
    });
    for (size_t i = 8 * g; i < view.size(); ++i)
      if (!good(i)) return i;
    return view.size();
  }
#endif
  return first_invalid_reported(view.size(), sizeof(P), progress, good);
}

// The sections whose points PointChecks::deferred leaves unchecked: A, B1,
// B2, C and H, the bulk of a key (IC and the header's points, which the
// verifying key is made of, are checked as they are read).
bool deferrable(uint32_t id) { return id >= kA && id <= kH; }

// The bytes that the checks of points and coefficients read as the key is:
// sections 3 to 9 but for section 4's count, less the deferred sections.
uint64_t checked_bytes(const BinFile& file, PointChecks checks) {
  uint64_t total = 0;
  for (uint32_t id = kIC; id <= kH; ++id)
    if (file.has(id) && !(checks == PointChecks::deferred && deferrable(id))) total += file.section(id).size();
  return file.has(kCoefs) && total >= 4 ? total - 4 : total;
}

// The file's name without its folders, for progress lines.
std::string base_name(const std::string& name) { return std::filesystem::path(name).filename().string(); }

// Fails naming the first point of section `id` that check_point refuses, as
// BinFile::fail does for the file called `name`.
template <class P>
void check_section_points(const std::string& name, uint32_t id, std::span<const P> view, const char* what,
                          Progress& progress) {
  const size_t bad = first_bad_point(view, progress);
  if (bad != view.size())
    throw FormatError(name + ": section " + str(id) + ": " + what + " point " + str(bad) +
                      (check_point(view[bad]) == PointFault::not_reduced ? " has a coordinate ≥ q"
                                                                         : " is not on the curve"));
}

}  // namespace

template <class E>
struct ZkeyLoader {
  using G1 = ec::Affine<typename E::G1>;
  using G2 = ec::Affine<typename E::G2>;
  using Fr = typename E::Fr;
  static_assert(std::is_trivially_copyable_v<G1> && sizeof(G1) == 2 * E::Fq::bytes &&
                    sizeof(G2) == 4 * E::Fq::bytes && alignof(G1) == 8 && alignof(G2) == 8,
                "ec::Affine must have snarkjs's packed layout to be viewed in place");

  Zkey& key;
  PointChecks checks;
  groth16::ProvingKey<E> data{};
  // Reading a large key is mostly its checks, paced by the disk.
  Progress progress{"read " + base_name(key.name()), checked_bytes(key.file(), checks), "B"};

  void run(SectionReader& header) {
    const ZkeyHeader& h = key.state_->header;
    data.alpha1 = header_point<G1>(header, "alpha1");
    data.beta1 = header_point<G1>(header, "beta1");
    data.beta2 = header_point<G2>(header, "beta2");
    data.gamma2 = header_point<G2>(header, "gamma2");
    data.delta1 = header_point<G1>(header, "delta1");
    data.delta2 = header_point<G2>(header, "delta2");
    header.expect_end("the header points");

    data.ic = points<G1>(kIC, (uint64_t)h.n_public + 1, "IC");
    data.a = points<G1>(kA, h.n_vars, "A");
    data.b1 = points<G1>(kB1, h.n_vars, "B1");
    data.b2 = points<G2>(kB2, h.n_vars, "B2");
    data.c = points<G1>(kC, (uint64_t)h.n_vars - h.n_public - 1, "C");
    data.h = points<G1>(kH, h.domain_size, "H");
    data.points_in_file_mapping = key.file().residency() == Residency::map;
    read_coefs();
    if (checks == PointChecks::deferred) data.check_points = deferred_checks(key.name());
    key.state_->data = std::move(data);
  }

  // The checks the read left, of the key they are given (its spans, not the
  // file's: a copy of the key may view other points), named after the file.
  static std::function<void(const groth16::ProvingKey<E>&)> deferred_checks(std::string name) {
    return [name = std::move(name)](const groth16::ProvingKey<E>& k) {
      const uint64_t bytes = (k.a.size() + k.b1.size() + k.c.size() + k.h.size()) * sizeof(G1) + k.b2.size() * sizeof(G2);
      Progress progress{"check " + base_name(name), bytes, "B"};
      check_section_points(name, kA, k.a, "A", progress);
      check_section_points(name, kB1, k.b1, "B1", progress);
      check_section_points(name, kB2, k.b2, "B2", progress);
      check_section_points(name, kC, k.c, "C", progress);
      check_section_points(name, kH, k.h, "H", progress);
    };
  }

  template <class P>
  P header_point(SectionReader& s, const char* what) {
    P p;
    std::memcpy(&p, s.bytes(sizeof p, what).data(), sizeof p);
    switch (check_point(p)) {
      case PointFault::none: return p;
      case PointFault::not_reduced: s.fail(std::string(what) + " has a coordinate ≥ q");
      case PointFault::off_curve: s.fail(std::string(what) + " is not on the curve");
    }
    return p;
  }

  // A point section, viewed in place where its payload is 8-byte aligned in
  // the file (and so in memory), else in an aligned copy: the limbs are
  // uint64_t, and reading them through a misaligned pointer is undefined
  // behaviour (and traps on some targets).
  template <class P>
  std::span<const P> points(uint32_t id, uint64_t count, const char* what) {
    const auto bytes = key.state_->file.section(id);
    if (bytes.size() != count * sizeof(P))
      key.state_->file.fail("section " + str(id) + " is " + str(bytes.size()) + " bytes but " + str(count) + " × " +
                     str(sizeof(P)) + " bytes are needed for " + str(count) + " " + what + " points");
    // ec::Affine is trivially copyable with no padding (asserted above), so the
    // file's bytes are used as points, as rapidsnark does with its mapping.
    static_assert(alignof(P) <= 8);
    const std::span<const P> view(reinterpret_cast<const P*>(key.state_->file.aligned_section(id).data()), count);
    if (checks == PointChecks::on_read || !deferrable(id)) check_section_points(key.name(), id, view, what, progress);
    return view;
  }

  void read_coefs() {
    const ZkeyHeader& h = key.state_->header;
    SectionReader s(key.state_->file, kCoefs);
    const uint32_t n = s.u32("nCoefs");
    constexpr size_t entry = 12 + Fr::bytes;
    if (s.remaining() != (uint64_t)n * entry)
      key.state_->file.fail("section 4 is " + str(4 + s.remaining()) + " bytes but 4 + " + str(n) + " × " + str(entry) +
                     " bytes are needed for " + str(n) + " coefficients");
    const uint8_t* base = s.bytes(s.remaining(), "the coefficients").data();
    key.state_->header.n_coefs = n;

    data.coefs.resize(n);
    enum class Fault { none, matrix, constraint, signal, value };
    const auto decode = [&](size_t i) {
      const uint8_t* e = base + i * entry;
      groth16::Coef<E>& c = data.coefs[i];
      c.matrix = SectionReader::load<uint32_t>(e);
      c.constraint = SectionReader::load<uint32_t>(e + 4);
      c.signal = SectionReader::load<uint32_t>(e + 8);
      std::memcpy(c.value.limb, e + 12, Fr::bytes);
      if (c.matrix > 1) return Fault::matrix;
      if (c.constraint >= h.domain_size) return Fault::constraint;
      if (c.signal >= h.n_vars) return Fault::signal;
      if (!Fr::less_than_modulus(c.value.limb)) return Fault::value;
      c.value = coef_from_stored(c.value);
      return Fault::none;
    };
    const size_t bad = first_invalid_reported(n, entry, progress, [&](size_t i) { return decode(i) == Fault::none; });
    if (bad == n) return;
    const groth16::Coef<E>& c = data.coefs[bad];
    std::string problem = "section 4: coefficient " + str(bad);
    switch (decode(bad)) {
      case Fault::matrix: problem += " has matrix " + str(c.matrix) + " (only 0 = A and 1 = B are stored)"; break;
      case Fault::constraint:
        problem += " has constraint " + str(c.constraint) + ", not below domainSize " + str(h.domain_size);
        break;
      case Fault::signal: problem += " has signal " + str(c.signal) + ", not below nVars " + str(h.n_vars); break;
      default: problem += " has a value ≥ r"; break;
    }
    key.state_->file.fail(problem);
  }
};

Zkey Zkey::open(const std::filesystem::path& path, Residency residency, PointChecks checks) {
  return read(BinFile::open(path, "zkey", kVersion, residency), checks);
}

Zkey Zkey::open_fd(int fd, std::string name, Residency residency, PointChecks checks) {
  return read(BinFile::open_fd(fd, std::move(name), "zkey", kVersion, residency), checks);
}

Zkey Zkey::from_bytes(std::string name, std::span<const uint8_t> bytes, PointChecks checks) {
  return read(BinFile::from_bytes(std::move(name), bytes, "zkey", kVersion), checks);
}

namespace {

// Sections 1 (the protocol) and 2 up to the points: what Zkey::read and
// read_zkey_header share. `s` is left at the header's points.
ZkeyHeader read_counts(const BinFile& file, SectionReader& s) {
  SectionReader proto(file, kProtocol);
  const uint32_t protocol = proto.u32("the protocol");
  proto.expect_end("the protocol");
  switch (protocol) {
    case 1: break;
    case 2: file.fail("PLONK key (protocol 2): only Groth16 keys (protocol 1) are supported");
    case 10: file.fail("FFLONK key (protocol 10): only Groth16 keys (protocol 1) are supported");
    default: file.fail("unknown protocol " + str(protocol) + ": only Groth16 keys (protocol 1) are supported");
  }

  ZkeyHeader h{};
  h.n8q = s.u32("n8q");
  const auto q = s.bytes(h.n8q, "q");
  const auto curve = curve_from_q(q);
  if (!curve)
    s.fail("unsupported base field q = " + prime_to_decimal(q) + " (n8q = " + str(h.n8q) +
           "); cuzk supports bn128 and bls12381");
  h.curve = *curve;
  h.n8r = s.u32("n8r");
  const auto r = s.bytes(h.n8r, "r");
  if (curve_from_r(r) != curve)
    s.fail("r = " + prime_to_decimal(r) + " is not the scalar field of " + curve_name(*curve));
  h.n_vars = s.u32("nVars");
  h.n_public = s.u32("nPublic");
  h.domain_size = s.u32("domainSize");
  if (h.domain_size == 0 || (h.domain_size & (h.domain_size - 1)) != 0)
    s.fail("domainSize " + str(h.domain_size) + " is not a power of two");
  if (h.n_public >= h.n_vars)
    s.fail("nPublic " + str(h.n_public) + " is not below nVars " + str(h.n_vars) +
           " (signal 0 is the constant 1, so nVars > nPublic)");
  return h;
}

}  // namespace

ZkeyHeader read_zkey_header(const std::filesystem::path& path) {
  const BinFile file = BinFile::open(path, "zkey", kVersion, Residency::map);
  SectionReader s(file, kHeader);
  return read_counts(file, s);
}

ZkeyHeader read_zkey_header_bytes(std::string name, std::span<const uint8_t> bytes) {
  const BinFile file = BinFile::from_bytes(std::move(name), bytes, "zkey", kVersion);
  SectionReader s(file, kHeader);
  return read_counts(file, s);
}

Zkey Zkey::read(BinFile bytes, PointChecks checks) {
  // The key owns the bytes from here on, so readers refer to key.state_->file.
  Zkey key(std::move(bytes));
  const BinFile& file = key.state_->file;
  SectionReader s(file, kHeader);
  const ZkeyHeader& h = key.state_->header = read_counts(file, s);

  if (h.curve == Curve::bn254)
    ZkeyLoader<Bn254>{key, checks}.run(s);
  else
    ZkeyLoader<Bls12_381>{key, checks}.run(s);
  return key;
}

void check_witness_matches(const Zkey& key, const Witness& w) {
  check_witness_shape(w, key.name(), "key", key.curve(), key.header().n_vars);
}

}  // namespace cuzk::io
