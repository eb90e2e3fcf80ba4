// The GPU prover against the CPU prover: for the same inputs the five MSM
// results are the same points, so for the same r and s the proofs are the same
// bytes, and they verify. On the circom/snarkjs fixtures of both curves and on
// native circuits (HashChain, Partition) up to 2^20 constraints; two workers
// in flight on one key; a worker reused; bad witnesses and lengths refused;
// witnesses of every shape (all zeros, all ones, no significant scalar). Keys
// in bellman's convention (BLS12-381, the one curve it has) on a circuit whose
// A and B leave many variables out, at domains of 2^10 to 2^14: resident and
// streamed, a, b, c from the host and from the key's rows, and a key without
// coefficients.
//
// With CUZK_GPU_PROOF_DIR set, each fixture's GPU proof is also written there
// as <curve>/<circuit>/{proof,public,verification_key}.json, for
// `snarkjs groth16 verify` on another machine; unset, nothing is written.
//
// Replay a failure with CUZK_TEST_SEED=<the printed seed> (the seed only
// drives the choice of native witnesses; r, s and the toxic waste are drawn
// from the OS, and every check holds for any of them).
#include <gtest/gtest.h>

#include <bit>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "../io/io_test_support.hpp"
#include "cuzk/circuit/examples/hash_chain.hpp"
#include "cuzk/circuit/examples/partition.hpp"
#include "cuzk/circuit/matrices.hpp"
#include "cuzk/circuit/seeded.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/cuda/runtime.hpp"
#include "cuzk/groth16/detail/assemble.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/prover_cuda.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey.hpp"
#include "proving_support.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

namespace gpu = groth16::gpu;

template <class E>
struct Both {
  groth16::PendingProof<E> gpu, cpu;
};

// The CPU's prove_start on copies of a, b, c (it consumes them).
template <class E>
groth16::PendingProof<E> cpu_start(const groth16::PreparedKey<E>& key, std::span<const typename E::Fr> w,
                                   std::span<const typename E::Fr> a, std::span<const typename E::Fr> b,
                                   std::span<const typename E::Fr> c) {
  using Fr = typename E::Fr;
  std::vector<Fr> ca(a.begin(), a.end()), cb(b.begin(), b.end()), cc(c.begin(), c.end());
  return groth16::prove_start(key, w, std::span<Fr>(ca), std::span<Fr>(cb), std::span<Fr>(cc));
}

// Enqueues the GPU proof, runs the CPU one while it is in flight, then waits.
template <class E>
Both<E> prove_both(const gpu::DeviceKey<E>& key, gpu::Worker& worker, std::span<const typename E::Fr> w,
                   std::span<const typename E::Fr> a, std::span<const typename E::Fr> b,
                   std::span<const typename E::Fr> c) {
  auto pending = gpu::prove_start(key, worker, w, a, b, c);
  auto cpu = cpu_start(key.prepared(), w, a, b, c);
  StageTimes times;
  auto got = pending.wait(&times);
  EXPECT_GT(kernel_seconds(times), 0.0) << "no GPU time recorded";
  return {std::move(got), std::move(cpu)};
}

// For each r, s: the same proof from both, byte for byte, and it verifies.
template <class E>
void expect_same_proofs(const groth16::PreparedKey<E>& key, const Both<E>& p,
                        const groth16::Randomness<typename E::Fr>& drawn) {
  using Fr = typename E::Fr;
  expect_same_pending(p.gpu, p.cpu);
  const groth16::Randomness<Fr> zero{Fr::zero(), Fr::zero()};
  for (const auto* rs : {&drawn, &zero}) {
    SCOPED_TRACE(rs == &zero ? "r = s = 0" : "drawn r, s");
    const auto from_gpu = groth16::detail::assemble(key, p.gpu, *rs);
    const auto from_cpu = groth16::detail::assemble(key, p.cpu, *rs);
    EXPECT_TRUE(from_gpu == from_cpu) << "proofs differ";
    EXPECT_EQ(io::proof_to_json<E>(from_gpu).dump(), io::proof_to_json<E>(from_cpu).dump());
    EXPECT_TRUE(groth16::verify<E>(key.vk(), p.gpu.publics, from_gpu)) << "the GPU proof does not verify";
  }
}

// ---------------------------------------------------------------------------
// snarkjs fixtures

template <class E>
struct Fixture {
  using Fr = typename E::Fr;
  io::Zkey zkey;
  groth16::SharedKey<E> shared;
  const groth16::PreparedKey<E>& key;
  std::vector<Fr> w;

  Fixture(const std::string& curve, const std::string& circuit)
      : zkey(io::Zkey::open(fixture(curve, circuit, "circuit.zkey"))),
        shared(groth16::PreparedKey<E>::make(zkey.share<E>())),
        key(*shared),
        w(io::read_wtns(fixture(curve, circuit, "witness.wtns")).as<E>()) {}

  struct Abc {
    std::vector<Fr> a, b, c;
  };
  Abc abc(const std::vector<Fr>& witness) const {
    const size_t n = key.key().domain_size();
    Abc r{std::vector<Fr>(n), std::vector<Fr>(n), std::vector<Fr>(n)};
    key.evaluate_abc(witness, r.a, r.b, r.c);
    return r;
  }
};

std::optional<fs::path> proof_dir_from_env() {
  const char* d = std::getenv("CUZK_GPU_PROOF_DIR");
  if (!d || !*d) return std::nullopt;
  return fs::path(d);
}

// proof.json, public.json and verification_key.json under dir/curve/circuit,
// read back to check that they say what was proved.
template <class E>
void write_proof_files(const fs::path& dir, const std::string& curve, const std::string& circuit,
                       const groth16::PreparedKey<E>& key, const groth16::Proof<E>& proof,
                       const std::vector<typename E::Fr>& publics) {
  const fs::path d = dir / curve / circuit;
  fs::create_directories(d);
  io::write_proof_json<E>(d / "proof.json", proof);
  io::write_public_json<E>(d / "public.json", publics);
  io::write_vk_json<E>(d / "verification_key.json", key.vk());
  EXPECT_TRUE(io::read_proof_json<E>(d / "proof.json") == proof);
  EXPECT_TRUE(io::read_public_json<E>(d / "public.json") == publics);
}

template <class E>
void check_fixture(const std::string& curve, const CircuitFacts& facts, const std::optional<fs::path>& out_dir) {
  using Fr = typename E::Fr;
  SCOPED_TRACE(curve + "/" + facts.name);
  const Fixture<E> f(curve, facts.name);
  const gpu::DeviceKey<E> key(f.shared, 0);
  EXPECT_EQ(&key.prepared(), &f.key);
  EXPECT_EQ(key.device(), 0);
  EXPECT_GT(key.bytes(), 0u);
  gpu::Worker worker(0);
  ASSERT_EQ(worker.device(), 0);

  const auto abc = f.abc(f.w);
  const std::span<const Fr> w(f.w), a(abc.a), b(abc.b), c(abc.c);
  const auto drawn = groth16::Randomness<Fr>::draw();
  const auto both = prove_both(key, worker, w, a, b, c);
  EXPECT_EQ(both.gpu.publics, std::vector<Fr>(f.w.begin() + 1, f.w.begin() + 1 + facts.n_public));
  expect_same_proofs(f.key, both, drawn);

  // The GPU path's prove_finish: fresh r and s, verified.
  auto pending = gpu::prove_start(key, worker, w, a, b, c);
  const auto proof = gpu::prove_finish(key, pending);
  EXPECT_TRUE(groth16::verify<E>(f.key.vk(), both.gpu.publics, proof));
  if (out_dir) write_proof_files<E>(*out_dir, curve, facts.name, f.key, proof, both.gpu.publics);

  // A witness that breaks a constraint is refused (the last signal is private
  // and used in every fixture), as are wrong lengths.
  std::vector<Fr> bad = f.w;
  bad.back() += Fr::one();
  const auto bad_abc = f.abc(bad);
  auto bad_pending = gpu::prove_start(key, worker, std::span<const Fr>(bad), std::span<const Fr>(bad_abc.a),
                                      std::span<const Fr>(bad_abc.b), std::span<const Fr>(bad_abc.c));
  EXPECT_THROW(gpu::prove_finish(key, bad_pending), groth16::ProofError);
  EXPECT_THROW(gpu::prove_start(key, worker, w.first(w.size() - 1), a, b, c), std::invalid_argument);
  EXPECT_THROW(gpu::prove_start(key, worker, w, a.first(a.size() - 1), b, c), std::invalid_argument);
  EXPECT_THROW(gpu::prove_start(key, worker, w, a, b, c.first(c.size() - 1)), std::invalid_argument);

  // The worker is still good after all that.
  expect_same_proofs(f.key, prove_both(key, worker, w, a, b, c), drawn);
}

TEST(GpuProve, Bn128FixturesMatchCpu) {
  for (const auto& f : kCircuits) check_fixture<ec::Bn254>("bn128", f, proof_dir_from_env());
}
TEST(GpuProve, Bls12381FixturesMatchCpu) {
  for (const auto& f : kCircuits) check_fixture<ec::Bls12_381>("bls12381", f, proof_dir_from_env());
}

// What CUZK_GPU_PROOF_DIR asks for, into a temporary directory.
TEST(GpuProve, ProofFilesAreWrittenWhenAsked) {
  const TempDir dir;
  check_fixture<ec::Bn254>("bn128", kCircuits[0], dir.path());
  for (const char* file : {"proof.json", "public.json", "verification_key.json"})
    EXPECT_TRUE(fs::is_regular_file(dir.path() / "bn128" / kCircuits[0].name / file)) << file;
}

// ---------------------------------------------------------------------------
// Native circuits

// A circuit's witness and a, b, c in pinned memory, as the engine keeps them.
template <class E>
struct PinnedInputs {
  using Fr = typename E::Fr;
  cuda::PinnedBuffer<Fr> w, a, b, c;

  template <class Circuit>
  explicit PinnedInputs(const Circuit& circuit)
      : w(circuit::shape_of(circuit).n_vars),
        a(circuit::domain_size_for(circuit::shape_of(circuit))),
        b(a.size()),
        c(a.size()) {
    circuit::synthesize_witness(circuit, w.span(), a.span(), b.span(), c.span());
  }
  std::span<const Fr> cw() const { return w.span(); }
  std::span<const Fr> ca() const { return a.span(); }
  std::span<const Fr> cb() const { return b.span(); }
  std::span<const Fr> cc() const { return c.span(); }
};

// A development key for the shape of `circuit` in `convention`, prepared.
template <class Circuit, class E = typename Circuit::Curve>
groth16::SharedKey<E> native_key(const Circuit& circuit, groth16::Convention convention) {
  return groth16::PreparedKey<E>::make(groth16::share(
      groth16::dev_setup(circuit::constraint_matrices(circuit), groth16::ToxicWaste<E>::draw(), 0, convention)));
}

// Two witnesses of one circuit shape: both in flight at once on two workers
// (waited in reverse order), then the second again on the first worker.
template <class E, class Circuit>
void check_native(const Circuit& first, const Circuit& second,
                  groth16::Convention convention = groth16::Convention::snarkjs) {
  using Fr = typename E::Fr;
  const auto shared = native_key(first, convention);
  const auto& prepared = *shared;
  ASSERT_EQ(prepared.key().domain_size(), circuit::domain_size_for(circuit::shape_of(first)));
  const gpu::DeviceKey<E> key(shared, 0);
  gpu::Worker w1(0), w2(0);
  const PinnedInputs<E> in1(first), in2(second);
  const auto drawn = groth16::Randomness<Fr>::draw();

  auto p1 = gpu::prove_start(key, w1, in1.cw(), in1.ca(), in1.cb(), in1.cc());
  auto p2 = gpu::prove_start(key, w2, in2.cw(), in2.ca(), in2.cb(), in2.cc());
  const auto cpu1 = cpu_start(prepared, in1.cw(), in1.ca(), in1.cb(), in1.cc());
  const auto cpu2 = cpu_start(prepared, in2.cw(), in2.ca(), in2.cb(), in2.cc());
  const Both<E> both2{p2.wait(), cpu2};
  const Both<E> both1{p1.wait(), cpu1};
  {
    SCOPED_TRACE("first witness");
    expect_same_proofs(prepared, both1, drawn);
  }
  {
    SCOPED_TRACE("second witness, second worker");
    expect_same_proofs(prepared, both2, drawn);
  }
  ASSERT_NE(both1.gpu.publics, both2.gpu.publics) << "the two witnesses should differ";

  // The first worker again, on the other witness: its arena hands back the
  // first proof's scratch, and nothing of that proof leaks into this one.
  const auto before = w1.arena().counters();
  {
    SCOPED_TRACE("second witness, first worker reused");
    auto p = gpu::prove_start(key, w1, in2.cw(), in2.ca(), in2.cb(), in2.cc());
    const auto proof = gpu::prove_finish(key, p);
    EXPECT_TRUE(groth16::verify<E>(prepared.vk(), both2.gpu.publics, proof));
    EXPECT_FALSE(groth16::verify<E>(prepared.vk(), both1.gpu.publics, proof));
  }
  EXPECT_GT(w1.arena().counters().reuses, before.reuses);
}

template <class E>
struct NativeGpuProof : ::testing::Test {};
using Curves = ::testing::Types<ec::Bn254, ec::Bls12_381>;
TYPED_TEST_SUITE(NativeGpuProof, Curves);

// Each circuit at 2^10 and 2^16 constraints, two witnesses of random seeds.
template <class E, template <class> class Circuit>
void check_native_sizes() {
  auto rng = test_rng();
  for (uint64_t n : {uint64_t(1) << 10, uint64_t(1) << 16}) {
    SCOPED_TRACE("2^" + std::to_string(std::countr_zero(n)) + " constraints");
    const uint64_t s = rng() >> 1;
    check_native<E>(Circuit<E>::for_constraints(n, s), Circuit<E>::for_constraints(n, s + 1));
  }
}

TYPED_TEST(NativeGpuProof, HashChain) {
  SEED_TRACE();
  check_native_sizes<TypeParam, circuit::HashChain>();
}

TYPED_TEST(NativeGpuProof, Partition) {
  SEED_TRACE();
  check_native_sizes<TypeParam, circuit::Partition>();
}

// The witness MSMs share one classification of their scalars: for witnesses
// of every shape (not all of them satisfying the circuit: only the MSM results
// are compared, with a, b, c evaluated from each), on a resident key and on
// keys streamed in chunks that do not divide the MSMs' lengths, the GPU's MSM
// results are the CPU's.
template <class Circuit>
void check_witness_shapes(const Circuit& circuit, groth16::Convention convention) {
  using E = typename Circuit::Curve;
  using Fr = typename E::Fr;
  auto rng = test_rng();
  const auto shared = native_key(circuit, convention);
  const auto& prepared = *shared;
  const PinnedInputs<E> real(circuit);
  const size_t n_vars = real.w.size(), n = real.a.size();
  std::vector<std::pair<std::string, std::vector<Fr>>> witnesses;
  witnesses.emplace_back("the circuit's", std::vector<Fr>(real.w.data(), real.w.data() + n_vars));
  witnesses.emplace_back("all zeros", std::vector<Fr>(n_vars, Fr::zero()));
  witnesses.emplace_back("all ones", std::vector<Fr>(n_vars, Fr::one()));
  std::vector<Fr> bits(n_vars);
  for (auto& x : bits) x = rng() % 2 ? Fr::one() : Fr::zero();
  witnesses.emplace_back("zeros and ones only", bits);
  bits[prepared.key().n_public() + 1] = Fr::from_uint(2);  // C's first scalar
  witnesses.emplace_back("one significant scalar, C's first", bits);
  using O = gpu::DeviceKeyOptions;
  for (const O o : {O{}, O{true, 1000, false}, O{true, 7, false}}) {
    SCOPED_TRACE(o.streamed ? "streamed in chunks of " + std::to_string(o.stream_chunk) : "resident");
    const gpu::DeviceKey<E> key(shared, 0, o);
    gpu::Worker worker(0);
    for (const auto& [name, w] : witnesses) {
      SCOPED_TRACE(name + " witness");
      std::vector<Fr> a(n), b(n), c(n);
      prepared.evaluate_abc(w, std::span<Fr>(a), std::span<Fr>(b), std::span<Fr>(c));
      const std::span<const Fr> cw(w), ca(a), cb(b), cc(c);
      auto pending = gpu::prove_start(key, worker, cw, ca, cb, cc);
      expect_same_pending(pending.wait(), cpu_start(prepared, cw, ca, cb, cc));
    }
  }
}

TYPED_TEST(NativeGpuProof, WitnessShapesMatchCpu) {
  SEED_TRACE();
  using E = TypeParam;
  check_witness_shapes(circuit::Partition<E>::for_constraints(1 << 10, test_rng()() >> 1),
                       groth16::Convention::snarkjs);
}

TEST(NativeGpuProofLarge, PartitionBn254At2To20) {
  SEED_TRACE();
  using E = ec::Bn254;
  auto rng = test_rng();
  const uint64_t s = rng() >> 1;
  check_native<E>(circuit::Partition<E>::for_constraints(1 << 20, s),
                  circuit::Partition<E>::for_constraints(1 << 20, s + 1));
}

// ---------------------------------------------------------------------------
// Keys in bellman's convention

// A circuit of exactly `constraints` constraints whose A and B leave many
// variables out, as bellperson's circuits do: of the publics x_0 ... x_3 only
// x_0 has B entries, and each step of four constraints
//   a·b = y           b in B only, y in C only here
//   (y + x_j)·1 = z   x_1 ... x_3 in A only, z in C only
//   t·(1 − t) = 0     a bit, in A and B
//   y·x_0 = u         u in C only
// so that B's density is about a third of the variables and A's half; a is
// zero every fifth step and t mostly zero, for zeros and ones among the
// scalars.
template <class E>
struct Lopsided {
  using Curve = E;
  using Fr = typename E::Fr;
  uint64_t constraints = 1;
  uint64_t seed = 0;

  template <class CS>
  void synthesize(CS& cs) const {
    using circuit::Variable;
    const auto value = [this](uint64_t stream, uint64_t i) { return circuit::seeded_element<Fr>(seed + stream, i); };
    Variable x[4]{}, y{};
    for (uint64_t j = 0; j < 4; ++j) x[j] = cs.alloc_input("x", [=](const auto&) { return value(0, j); });
    for (uint64_t i = 0; i < constraints; ++i) {
      const uint64_t step = i / 4;
      if (i % 4 == 0) {
        const Variable a = cs.alloc("a", [=](const auto&) { return step % 5 == 0 ? Fr::zero() : value(1, step); });
        const Variable b = cs.alloc("b", [=](const auto&) { return value(2, step); });
        y = cs.alloc("y", [=](const auto& v) { return v[a] * v[b]; });
        cs.enforce("a*b=y", a, b, y);
      } else if (i % 4 == 1) {
        const Variable xj = x[1 + step % 3];
        const Variable z = cs.alloc("z", [=](const auto& v) { return v[y] + v[xj]; });
        cs.enforce("(y+x)*1=z", [&](auto lc) { return lc + y + xj; }, Variable::one(), z);
      } else if (i % 4 == 2) {
        const Variable t = cs.alloc("t", [=](const auto&) { return step % 3 == 0 ? Fr::one() : Fr::zero(); });
        cs.enforce("t*(1-t)=0", t, [&](auto lc) { return lc + Variable::one() - t; }, circuit::zero_lc);
      } else {
        const Variable u = cs.alloc("u", [=](const auto& v) { return v[y] * v[x[0]]; });
        cs.enforce("y*x0=u", y, x[0], u);
      }
    }
  }
};

using Bls = ec::Bls12_381;

// Constraint counts whose domains are 2^10 (every row used: 1019 constraints
// and 5 public rows), 2^12 (a count that is no power of two) and 2^14 (full
// again).
constexpr uint64_t kBellmanSizes[] = {1019, 3000, (uint64_t(1) << 14) - 5};

TEST(BellmanGpuProof, KeysLeaveVariablesOut) {
  const auto key = native_key(Lopsided<Bls>{kBellmanSizes[0]}, groth16::Convention::bellman);
  const auto& k = key->key();
  EXPECT_EQ(k.domain_size(), size_t(1) << 10);
  EXPECT_LT(k.a.size() * 3, k.n_vars() * 2) << "A's density should leave variables out";
  EXPECT_LT(k.b1.size() * 2, k.n_vars()) << "B's density should leave variables out";
  EXPECT_TRUE(k.b_density.has(1) && !k.b_density.has(2)) << "x_0 has B entries, x_1 none";
}

// Two witnesses on two workers in flight, and a worker reused, at each size.
TEST(BellmanGpuProof, MatchesCpu) {
  SEED_TRACE();
  auto rng = test_rng();
  for (uint64_t n : kBellmanSizes) {
    SCOPED_TRACE(std::to_string(n) + " constraints");
    const uint64_t s = rng() >> 1;
    check_native<Bls>(Lopsided<Bls>{n, s}, Lopsided<Bls>{n, s + 1}, groth16::Convention::bellman);
  }
}

TEST(BellmanGpuProof, PartitionMatchesCpu) {
  SEED_TRACE();
  const uint64_t s = test_rng()() >> 1;
  check_native<Bls>(circuit::Partition<Bls>::for_constraints(1 << 12, s),
                    circuit::Partition<Bls>::for_constraints(1 << 12, s + 1), groth16::Convention::bellman);
}

TEST(BellmanGpuProof, WitnessShapesMatchCpu) {
  SEED_TRACE();
  check_witness_shapes(Lopsided<Bls>{kBellmanSizes[0], test_rng()() >> 1}, groth16::Convention::bellman);
}

// a, b, c from the host and from the key's rows, on resident and streamed
// keys: the same proof as the CPU's, which verifies.
TEST(BellmanGpuProof, AbcFromHostAndRows) {
  SEED_TRACE();
  using Fr = Bls::Fr;
  auto rng = test_rng();
  for (uint64_t n : {kBellmanSizes[0], kBellmanSizes[1]}) {
    SCOPED_TRACE(std::to_string(n) + " constraints");
    const Lopsided<Bls> circuit{n, rng() >> 1};
    const auto shared = native_key(circuit, groth16::Convention::bellman);
    const PinnedInputs<Bls> in(circuit);
    const auto cpu = cpu_start(*shared, in.cw(), in.ca(), in.cb(), in.cc());
    const auto drawn = groth16::Randomness<Fr>::draw();
    const std::span<const Fr> none;
    using O = gpu::DeviceKeyOptions;
    for (const O o : {O{false, 0, true}, O{true, 1000, true}, O{true, 4093, false}}) {
      SCOPED_TRACE(o.streamed ? "streamed in chunks of " + std::to_string(o.stream_chunk) : "resident");
      const gpu::DeviceKey<Bls> key(shared, 0, o);
      ASSERT_EQ(key.has_matrices(), o.matrices);
      gpu::Worker worker(0);
      {
        SCOPED_TRACE("a, b, c from the host");
        auto p = gpu::prove_start(key, worker, in.cw(), in.ca(), in.cb(), in.cc());
        expect_same_proofs(*shared, {p.wait(), cpu}, drawn);
      }
      if (o.matrices) {
        SCOPED_TRACE("a, b, c from the rows");
        auto p = gpu::prove_start(key, worker, in.cw(), none, none, none);
        expect_same_proofs(*shared, {p.wait(), cpu}, drawn);
      }
    }
  }
}

// A key without coefficients, as a bellperson parameter file alone gives:
// asked for rows, it has none, and proves from a, b, c the host gives.
TEST(BellmanGpuProof, KeyWithoutCoefficientsTakesAbcFromHost) {
  SEED_TRACE();
  using Fr = Bls::Fr;
  const Lopsided<Bls> circuit{kBellmanSizes[0], test_rng()() >> 1};
  const auto full = groth16::share(groth16::dev_setup(circuit::constraint_matrices(circuit),
                                                      groth16::ToxicWaste<Bls>::draw(), 0, groth16::Convention::bellman));
  // The copy shares ownership of the points its spans view.
  const auto owner = std::make_shared<std::pair<std::shared_ptr<const groth16::ProvingKey<Bls>>,
                                                groth16::ProvingKey<Bls>>>(full, *full);
  owner->second.coefs.clear();
  const auto shared = groth16::PreparedKey<Bls>::make({owner, &owner->second});
  const PinnedInputs<Bls> in(circuit);
  const gpu::DeviceKey<Bls> key(shared, 0, {.matrices = true});
  EXPECT_FALSE(key.has_matrices());
  EXPECT_EQ(key.bytes(), gpu::DeviceKey<Bls>::bytes_needed(*shared, {}));
  gpu::Worker worker(0);
  const std::span<const Fr> none;
  EXPECT_THROW(gpu::prove_start(key, worker, in.cw(), none, none, none), std::invalid_argument);
  auto p = gpu::prove_start(key, worker, in.cw(), in.ca(), in.cb(), in.cc());
  expect_same_proofs(*shared, {p.wait(), cpu_start(*shared, in.cw(), in.ca(), in.cb(), in.cc())},
                     groth16::Randomness<Fr>::draw());
}

}  // namespace
}  // namespace cuzk::test
