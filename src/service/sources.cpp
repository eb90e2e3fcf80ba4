#include "sources.hpp"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <utility>

#include "cuzk/circuit/shape.hpp"
#include "cuzk/ec/curves.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/util/secure_zero.hpp"
#if defined(CUZK_HAVE_CUDA)
#include "cuzk/cuda/fault_injection.hpp"
#endif

namespace cuzk::service::detail {

namespace fs = std::filesystem;

namespace {

// Where the engine wants a, b, c from the host, computes them from w.
template <class E>
void abc_from(const groth16::PreparedKey<E>& key, std::span<typename E::Fr> w, std::span<typename E::Fr> a,
              std::span<typename E::Fr> b, std::span<typename E::Fr> c, unsigned threads) {
  if (!a.empty()) key.evaluate_abc(w, a, b, c, threads);
}

// Whether the key can evaluate a, b, c from a witness: a bellman key read
// from a parameter file alone has points and no coefficients.
template <class E>
bool has_circuit(const groth16::ProvingKey<E>& k) {
  return k.convention == groth16::Convention::snarkjs || !k.coefs.empty();
}

// path relative to dir when it names a place under it ("" otherwise), both
// made absolute and free of "." and "..", lexically.
fs::path beneath(const fs::path& path, const fs::path& dir) {
  const fs::path rel = fs::absolute(path).lexically_normal().lexically_relative(fs::absolute(dir).lexically_normal());
  if (rel.empty() || rel == "." || *rel.begin() == "..") return {};
  return rel;
}

// openat2(dir, rel, RESOLVE_BENEATH), or where the kernel lacks openat2
// (before 5.6) a walk that opens every component with O_NOFOLLOW.
int open_beneath(int dir, const fs::path& rel, int flags) {
  open_how how{};
  how.flags = (uint64_t)flags;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  const long fd = ::syscall(SYS_openat2, dir, rel.c_str(), &how, sizeof how);
  if (fd >= 0 || errno != ENOSYS) return (int)fd;
  FileDescriptor at(::fcntl(dir, F_DUPFD_CLOEXEC, 0));
  for (auto it = rel.begin(); it != rel.end(); ++it) {
    const bool last = std::next(it) == rel.end();
    const int next = ::openat(at.get(), it->c_str(), (last ? flags : O_PATH | O_DIRECTORY | O_CLOEXEC) | O_NOFOLLOW);
    if (next < 0) return -1;
    at = FileDescriptor(next);
  }
  return ::fcntl(at.get(), F_DUPFD_CLOEXEC, 0);
}

}  // namespace

}  // namespace cuzk::service::detail

namespace cuzk::service {

namespace fs = std::filesystem;
using detail::beneath;
using detail::open_beneath;

FileDescriptor& FileDescriptor::operator=(FileDescriptor&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(o.fd_, -1);
  }
  return *this;
}

FileDescriptor::~FileDescriptor() {
  if (fd_ >= 0) ::close(fd_);
}

FileDescriptor open_allowed(const fs::path& path, const std::vector<fs::path>& dirs, bool any_path, const char* what) {
  const std::string name = path.string();
  constexpr int kFlags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
  const auto refuse = [&](int err) -> FileDescriptor {
    if (err == ENOENT) throw Error(ErrorKind::not_found, name + ": cannot open: " + std::strerror(ENOENT));
    if (err == EXDEV || err == ELOOP)
      throw Error(ErrorKind::invalid_argument,
                  name + ": not under a " + std::string(what) + " directory this service allows");
    throw Error(ErrorKind::invalid_argument, name + ": cannot open: " + std::strerror(err));
  };
  const auto regular = [&](FileDescriptor fd) {
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
      throw Error(ErrorKind::invalid_argument, name + ": not a regular file");
    return fd;
  };
  if (dirs.empty()) {
    if (!any_path)
      throw Error(ErrorKind::invalid_argument, name + ": this service reads no " + std::string(what) +
                                                   " files by path (no " + what + " directories are configured)");
    struct stat st {};
    if (::stat(name.c_str(), &st) != 0) return refuse(errno);
    if (!S_ISREG(st.st_mode)) throw Error(ErrorKind::invalid_argument, name + ": not a regular file");
    FileDescriptor fd(::open(name.c_str(), kFlags));
    if (fd.get() < 0) return refuse(errno);
    return regular(std::move(fd));
  }
  for (const fs::path& dir : dirs) {
    std::error_code ec;
    // The directory as configured, or where its links lead.
    for (const fs::path& d : {dir, fs::weakly_canonical(dir, ec)}) {
      const fs::path rel = beneath(path, d);
      if (rel.empty()) continue;
      const FileDescriptor at(::open(d.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
      if (at.get() < 0) continue;
      FileDescriptor fd(open_beneath(at.get(), rel, kFlags));
      if (fd.get() < 0) return refuse(errno);
      return regular(std::move(fd));
    }
  }
  throw Error(ErrorKind::invalid_argument, name + ": not under a " + std::string(what) + " directory this service allows");
}

}  // namespace cuzk::service

namespace cuzk::service::detail {

namespace {

// ServiceOptions::test_faults: the fault a partition named "fault:..." throws.
template <class E>
engine::Synthesize<E> faulty(const std::string& name) {
  if (name == "fault:throw") return [](auto, auto, auto, auto) { throw std::runtime_error("injected fault"); };
  if (name == "fault:nonstd") return [](auto, auto, auto, auto) { throw 42; };
  if (name == "fault:bad_alloc") return [](auto, auto, auto, auto) { throw std::bad_alloc(); };
  if (name.rfind("fault:gpu:", 0) == 0) {
#if defined(CUZK_HAVE_CUDA)
    const int device = std::stoi(name.substr(10));
    return [device](auto, auto, auto, auto) {
      cuda::inject_sticky_fault(device);
      throw std::runtime_error("injected a fault on GPU " + std::to_string(device));
    };
#else
    throw Error(ErrorKind::invalid_argument, name + ": this build has no CUDA");
#endif
  }
  throw Error(ErrorKind::invalid_argument, name + ": no such injected fault");
}

// The values of a .wtns, checked to be a witness of key's circuit.
template <class E>
io::WtnsValues values_for(const io::BinFile& file, const groth16::PreparedKey<E>& key, const std::string& key_name) {
  io::WtnsValues v = io::wtns_values(file);
  io::check_witness_shape(v.source, v.curve, v.count, key_name, "key", E::id, key.key().n_vars());
  return v;
}

// A client's .wtns bytes are decoded once, straight into the partition's
// witness buffer when it is synthesized: no vector and no copy of the file
// in between (three more times the witness's size, each a copy of a secret).
// The bytes are held until then, and zeroed and freed once decoded.
template <class E>
Source<E> from_bytes(WitnessBytes in, const groth16::SharedKey<E>& key, const std::string& key_name,
                     const ServiceOptions& o) {
  if (o.test_faults && in.name.rfind("fault:", 0) == 0) return {faulty<E>(in.name), 0, {}};
  struct Held {
    std::string bytes;
    ~Held() { secure_zero_parallel(bytes.data(), bytes.size()); }
  };
  auto held = std::make_shared<Held>();
  held->bytes = std::move(in.bytes);
  // The header and the sizes now, so that a witness of the wrong curve or
  // length is refused at submission; the values' range when they are decoded.
  const std::span<const uint8_t> file(reinterpret_cast<const uint8_t*>(held->bytes.data()), held->bytes.size());
  const io::WtnsValues values = values_for(io::borrow_wtns(in.name, file), *key, key_name);
  // Held until synthesis and counted by admission as its values: sections
  // beside them would be memory a client holds uncounted.
  if (held->bytes.size() - values.bytes.size() > io::kWtnsBytesBesideValues)
    throw Error(ErrorKind::invalid_argument,
                in.name + ": " + std::to_string(held->bytes.size() - values.bytes.size() - io::kWtnsBytesBesideValues) +
                    " bytes of sections other than the header and the values");
  const size_t bytes = values.bytes.size();
  // A partition is synthesized once: its bytes are zeroed and freed as soon
  // as they are decoded, not when the job is forgotten.
  auto synthesize = [key, held, values, threads = o.threads](auto w, auto a, auto b, auto c) mutable {
    {
      const auto decoded = std::move(held);
      io::decode_wtns<E>(values, w.first(values.count));
    }
    abc_from(*key, w, a, b, c, threads);
  };
  return {std::move(synthesize), bytes, {}};
}

template <class E>
Source<E> from_file(WitnessFile in, const groth16::SharedKey<E>& key, const std::string& key_name,
                    const ServiceOptions& o) {
  // Opened now, so that a path refused or missing fails the submit, and
  // again beneath its directory when read: a link swapped in meanwhile
  // cannot lead out of it. Partitions waiting hold no descriptor.
  open_allowed(in.path, o.witness_dirs, o.any_path_without_dirs, "witness");
  auto synthesize = [key, key_name, path = in.path, dirs = o.witness_dirs, any_path = o.any_path_without_dirs,
                     threads = o.threads](auto w, auto a, auto b, auto c) {
    const FileDescriptor fd = open_allowed(path, dirs, any_path, "witness");
    const io::BinFile file = io::open_wtns_fd(fd.get(), path.string());
    const io::WtnsValues values = values_for(file, *key, key_name);
    io::decode_wtns<E>(values, w.first(values.count));
    abc_from(*key, w, a, b, c, threads);
  };
  return {std::move(synthesize), 0, {}};
}

// A witness its caller decoded already (to check it against its circuit
// first): copied into the buffer, not decoded again.
template <class E>
Source<E> from_decoded(DecodedWitness in, const groth16::SharedKey<E>& key, const std::string& key_name,
                       const ServiceOptions& o) {
  if (!in.witness) throw Error(ErrorKind::invalid_argument, "a decoded witness that is null");
  io::check_witness_shape(*in.witness, key_name, "key", E::id, key->key().n_vars());
  const size_t bytes = in.witness->size() * sizeof(typename E::Fr);
  auto synthesize = [key, witness = std::move(in.witness), threads = o.threads](auto w, auto a, auto b, auto c) {
    const auto& values = witness->template as<E>();
    std::copy(values.begin(), values.end(), w.begin());
    abc_from(*key, w, a, b, c, threads);
  };
  return {std::move(synthesize), bytes, {}};
}

// The circuit a NativeWitness names, among those the front end registered.
template <class E>
const NativeCircuitOn<E>& native_named(const std::string& name, const NativeCircuits& registered) {
  if (registered.empty())
    throw Error(ErrorKind::invalid_argument, "native circuits are not enabled on this service (native_circuits)");
  if (const auto it = registered.find(name); it != registered.end()) return it->second.template on<E>();
  std::string names;
  for (const auto& [known, circuit] : registered) names += (names.empty() ? "" : ", ") + known;
  throw Error(ErrorKind::invalid_argument, "circuit " + name + ": the native circuits are " + names);
}

template <class E>
void check_shape(const NativeWitness& in, const NativeCircuitOn<E>& native, const groth16::PreparedKey<E>& key,
                 const std::string& key_name) {
  const circuit::Shape shape = native.shape(in.constraints);
  const auto& k = key.key();
  if (shape.n_vars != k.n_vars() || shape.n_public != k.n_public() || circuit::domain_size_for(shape) != k.domain_size())
    throw Error(ErrorKind::invalid_argument,
                in.circuit + " of " + std::to_string(in.constraints) + " constraints is not the circuit of " +
                    key_name + " (" + std::to_string(shape.n_vars) + " signals, " + std::to_string(shape.n_public) +
                    " public, a domain of " + std::to_string(circuit::domain_size_for(shape)) + "; the key has " +
                    std::to_string(k.n_vars()) + ", " + std::to_string(k.n_public()) + " and " +
                    std::to_string(k.domain_size()) + ")");
}

template <class E>
Source<E> from_native(NativeWitness in, const groth16::SharedKey<E>& key, const std::string& key_name,
                      const ServiceOptions& o, NativeShapes& shapes) {
  const NativeCircuitOn<E>& native = native_named<E>(in.circuit, o.native_circuits);
  // The size first: the shape pass below costs time in proportion to it, and
  // a circuit larger than the key's domain cannot be the key's circuit.
  const uint64_t domain = key->key().domain_size();
  if (in.constraints > domain)
    throw Error(ErrorKind::invalid_argument, in.circuit + " of " + std::to_string(in.constraints) +
                                                 " constraints is larger than " + key_name + "'s domain of " +
                                                 std::to_string(domain));
  const std::pair<std::string, uint64_t> which{in.circuit, in.constraints};
  bool checked;
  {
    std::lock_guard lock(shapes.mu);
    checked = shapes.checked.count(which) != 0;
  }
  if (!checked) {
    check_shape(in, native, *key, key_name);
    std::lock_guard lock(shapes.mu);
    shapes.checked.insert(which);
  }
  auto synthesize = [in, circuit = native.synthesize](auto w, auto a, auto b, auto c) {
    circuit(in.constraints, in.seed, w, a, b, c);
  };
  return {std::move(synthesize), 0, {}};
}

template <class Fr>
size_t count_values(std::span<const uint64_t> limbs, const char* what) {
  if (limbs.size() % Fr::N)
    throw Error(ErrorKind::invalid_argument, std::string(what) + " has " + std::to_string(limbs.size()) +
                                                 " limbs, not a whole number of " + std::to_string(Fr::N) + "-limb values");
  return limbs.size() / Fr::N;
}

// An assignment's counts and first input checked against the key, and r and s
// when the caller gives them: what Evaluations and Assignment share.
template <class E>
std::optional<groth16::Randomness<typename E::Fr>> checked_assignment(std::span<const uint64_t> inputs,
                                                                      std::span<const uint64_t> aux,
                                                                      std::span<const uint64_t> r,
                                                                      std::span<const uint64_t> s,
                                                                      const groth16::ProvingKey<E>& k,
                                                                      const std::string& key_name) {
  using Fr = typename E::Fr;
  const auto fail = [&](const std::string& problem) { throw Error(ErrorKind::invalid_argument, problem); };
  const size_t n_inputs = count_values<Fr>(inputs, "the inputs"), n_aux = count_values<Fr>(aux, "the aux");
  if (n_inputs != k.n_public() + 1 || n_aux != k.n_vars() - n_inputs)
    fail("the assignment has " + std::to_string(n_inputs) + " inputs and " + std::to_string(n_aux) + " private values; " +
         key_name + " needs " + std::to_string(k.n_public() + 1) + " and " + std::to_string(k.n_vars() - k.n_public() - 1));
  if (const Fr one = Fr::one(); n_inputs && std::memcmp(inputs.data(), &one, sizeof(Fr)) != 0)
    fail("the first input is not 1 (in Montgomery form)");
  if (r.empty() && s.empty()) return std::nullopt;
  if (r.size() != Fr::N || s.size() != Fr::N) fail("r and s must be one value each");
  if (!Fr::less_than_modulus(r.data()) || !Fr::less_than_modulus(s.data())) fail("r or s is not below the modulus");
  std::optional<groth16::Randomness<Fr>> randomness;
  randomness.emplace();
  std::memcpy(&randomness->r, r.data(), sizeof(Fr));
  std::memcpy(&randomness->s, s.data(), sizeof(Fr));
  return randomness;
}

// Limbs viewed as the values they hold (their count checked by count_values).
template <class Fr>
std::span<const Fr> values_of(std::span<const uint64_t> limbs) {
  return std::span<const Fr>(reinterpret_cast<const Fr*>(limbs.data()), limbs.size() / Fr::N);
}

// A source that lends `lent` once: the hold goes with the pieces, and the
// engine lets go of it once they are read. A partition synthesized again (its
// GPU faulted) after that finds the caller's memory given back.
template <class E>
engine::Synthesize<E> lend_once(engine::Lent<E> lent) {
  return engine::Synthesize<E>::lending([lent = std::move(lent), lent_before = false]() mutable {
    if (std::exchange(lent_before, true))
      throw std::runtime_error("the caller's inputs were given back once read: this partition cannot be proved again");
    return std::exchange(lent, {});
  });
}

// w's pieces: the inputs, then the private values.
template <class E>
engine::Lent<E> lent_assignment(std::span<const uint64_t> inputs, std::span<const uint64_t> aux,
                                std::shared_ptr<const void> hold) {
  using Fr = typename E::Fr;
  engine::Lent<E> lent;
  lent.inputs.w = {{values_of<Fr>(inputs), "input"}, {values_of<Fr>(aux), "private"}};
  lent.hold = std::move(hold);
  return lent;
}

template <class E>
Source<E> from_evaluations(Evaluations in, const groth16::SharedKey<E>& key, const std::string& key_name) {
  using Fr = typename E::Fr;
  const auto& k = key->key();
  const auto fail = [&](const std::string& problem) { throw Error(ErrorKind::invalid_argument, problem); };
  const size_t rows = count_values<Fr>(in.a, "a");
  if (count_values<Fr>(in.b, "b") != rows || count_values<Fr>(in.c, "c") != rows)
    fail("a, b and c have " + std::to_string(rows) + ", " + std::to_string(in.b.size() / Fr::N) + " and " +
         std::to_string(in.c.size() / Fr::N) + " values: they must have one per constraint each");
  if (rows > k.domain_size())
    fail("a, b and c have " + std::to_string(rows) + " values; " + key_name + "'s domain holds " +
         std::to_string(k.domain_size()));
  const auto randomness = checked_assignment<E>(in.inputs, in.aux, in.r, in.s, k, key_name);
  engine::Lent<E> lent = lent_assignment<E>(in.inputs, in.aux, std::move(in.hold));
  lent.inputs.a.values = values_of<Fr>(in.a), lent.inputs.b.values = values_of<Fr>(in.b),
  lent.inputs.c.values = values_of<Fr>(in.c);
  return {lend_once(std::move(lent)), 0, randomness};
}

// Only the assignment crosses, lent as w's pieces: the engine evaluates a, b,
// c from the key's rows, on the GPU where it computes them there (the pieces
// uploaded where they lie), else on the host from its one checked copy.
template <class E>
Source<E> from_assignment(Assignment in, const groth16::SharedKey<E>& key, const std::string& key_name) {
  const auto randomness = checked_assignment<E>(in.inputs, in.aux, in.r, in.s, key->key(), key_name);
  return {lend_once(lent_assignment<E>(in.inputs, in.aux, std::move(in.hold))), 0, randomness};
}

}  // namespace

template <class E>
Source<E> make_source(PartitionInput input, const groth16::SharedKey<E>& key, const std::string& key_name,
                      const ServiceOptions& options, NativeShapes& shapes) {
  return std::visit(
      [&](auto&& in) -> Source<E> {
        using In = std::decay_t<decltype(in)>;
        if constexpr (std::is_same_v<In, Evaluations>) return from_evaluations<E>(std::move(in), key, key_name);
        else if (!has_circuit(key->key()))
          throw Error(ErrorKind::invalid_argument,
                      key_name + " holds no circuit (a parameter file alone): it proves only partitions that give "
                                 "their a, b and c");
        else if constexpr (std::is_same_v<In, WitnessBytes>) return from_bytes<E>(std::move(in), key, key_name, options);
        else if constexpr (std::is_same_v<In, WitnessFile>) return from_file<E>(std::move(in), key, key_name, options);
        else if constexpr (std::is_same_v<In, DecodedWitness>)
          return from_decoded<E>(std::move(in), key, key_name, options);
        else if constexpr (std::is_same_v<In, Assignment>) return from_assignment<E>(std::move(in), key, key_name);
        else return from_native<E>(std::move(in), key, key_name, options, shapes);
      },
      std::move(input));
}

template Source<ec::Bn254> make_source(PartitionInput, const groth16::SharedKey<ec::Bn254>&, const std::string&,
                                       const ServiceOptions&, NativeShapes&);
template Source<ec::Bls12_381> make_source(PartitionInput, const groth16::SharedKey<ec::Bls12_381>&,
                                           const std::string&, const ServiceOptions&, NativeShapes&);

}  // namespace cuzk::service::detail
