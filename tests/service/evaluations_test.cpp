// Partitions whose a, b, c and assignment the caller computed
// (service::Evaluations, what the supraseal ABI submits), on a key made from a
// parameter file's points and the circuit's densities alone: proofs that
// verify, equal to the prover's own for the same r and s; the checks a
// malformed request meets; and a key without coefficients refusing every
// other kind of witness. Partitions that give the assignment alone
// (service::Assignment, the supraseal ABI's witness-only extension), on a key
// of the same points with the circuit's matrices: the same proofs.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <tuple>
#include <variant>

#include "cuzk/circuit/examples/hash_chain.hpp"
#include "cuzk/circuit/matrices.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/bellperson_key.hpp"
#include "cuzk/service/service.hpp"

namespace cuzk::service {
namespace {

using E = ec::Bls12_381;
using Fr = E::Fr;
using Chain = circuit::HashChain<E>;

constexpr uint64_t kConstraints = 1 << 10;

std::span<const uint64_t> limbs(std::span<const Fr> v) { return {reinterpret_cast<const uint64_t*>(v.data()), 4 * v.size()}; }
std::span<const uint64_t> limbs(const Fr& v) { return {reinterpret_cast<const uint64_t*>(&v), 4}; }

struct Fixture {
  // The key with its circuit, the same points known by densities only, and
  // shared with the circuit's matrices (what the witness-only ABI registers).
  groth16::SharedKey<E> with_circuit, points_only, registered;
  size_t rows = 0, n_inputs = 0;

  Fixture() {
    const auto m = circuit::constraint_matrices(Chain::for_constraints(kConstraints, 0));
    const auto key = groth16::share(
        groth16::dev_setup(m, groth16::ToxicWaste<E>::draw(), 0, groth16::Convention::bellman));
    with_circuit = groth16::PreparedKey<E>::make(key);
    auto params = std::make_shared<const io::BellpersonParams<E>>(io::to_bellperson(*key));
    points_only = groth16::PreparedKey<E>::make(io::bellman_key(params, key->a_density, key->b_density, "chain"));
    registered = groth16::PreparedKey<E>::make(io::bellman_key(params, m, "chain"));
    n_inputs = m.n_public + 1;
    rows = m.n_constraints() + n_inputs;
  }
};

// A witness of the chain and the Evaluations that view it.
struct Given {
  circuit::Assignment<Fr> in;
  groth16::Randomness<Fr> rs = groth16::Randomness<Fr>::draw();

  explicit Given(uint64_t seed) : in(circuit::synthesize_assignment(Chain::for_constraints(kConstraints, seed))) {}
  Evaluations evaluations(const Fixture& f, bool with_rs = true) const {
    const std::span<const Fr> w(in.w);
    return {limbs(std::span<const Fr>(in.a).first(f.rows)), limbs(std::span<const Fr>(in.b).first(f.rows)),
            limbs(std::span<const Fr>(in.c).first(f.rows)), limbs(w.first(f.n_inputs)), limbs(w.subspan(f.n_inputs)),
            with_rs ? limbs(rs.r) : std::span<const uint64_t>{}, with_rs ? limbs(rs.s) : std::span<const uint64_t>{},
            nullptr};
  }
  Assignment assignment(const Fixture& f) const {
    const std::span<const Fr> w(in.w);
    return {limbs(w.first(f.n_inputs)), limbs(w.subspan(f.n_inputs)), limbs(rs.r), limbs(rs.s), nullptr};
  }
};

ServiceOptions cpu() {
  ServiceOptions o;
  o.placement.backend = BackendKind::cpu;
  o.abc = AbcPlace::host;
  return o;
}

ErrorKind submit_kind(Service& svc, std::vector<PartitionInput> parts, std::string* message = nullptr) {
  try {
    (void)svc.submit("k", std::move(parts));
  } catch (const Error& e) {
    if (message) *message = e.what();
    return e.kind();
  }
  return ErrorKind::none;
}

TEST(Evaluations, ProveWithTheCallersRandomnessWhatTheProverProves) {
  const Fixture f;
  Service svc(cpu());
  svc.add_key("k", f.points_only, "chain.params");
  const Given g1(1), g2(2);
  std::vector<PartitionInput> parts{g1.evaluations(f), g2.evaluations(f)};
  const JobOutcome out = *svc.await(svc.submit("k", std::move(parts)));
  ASSERT_EQ(out.partitions.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const PartitionOutcome& p = out.partitions[i];
    ASSERT_TRUE(p.ok()) << p.error;
    const Given& g = i == 0 ? g1 : g2;
    // The prover with the circuit, from the witness alone, and the same r and s.
    std::vector<Fr> a(g.in.a), b(g.in.b), c(g.in.c);
    const auto pending = groth16::prove_start<E>(*f.with_circuit, g.in.w, a, b, c);
    const auto expected = groth16::prove_finish(*f.with_circuit, pending, g.rs);
    const Proved<E>& proved = std::get<Proved<E>>(*p.proved);
    EXPECT_TRUE(proved.proof == expected);
    EXPECT_EQ(proved.publics, pending.publics);
  }
  // Without r and s they are drawn: a proof that verifies, not the same one.
  std::vector<PartitionInput> fresh{g1.evaluations(f, false)};
  const JobOutcome drawn = *svc.await(svc.submit("k", std::move(fresh)));
  ASSERT_TRUE(drawn.partitions[0].ok()) << drawn.partitions[0].error;
  const Proved<E>& fresh_proof = std::get<Proved<E>>(*drawn.partitions[0].proved);
  EXPECT_FALSE(fresh_proof.proof == std::get<Proved<E>>(*out.partitions[0].proved).proof);
  EXPECT_TRUE(groth16::verify<E>(f.points_only->vk(), std::span<const Fr>(g1.in.w).subspan(1, f.n_inputs - 1),
                                 fresh_proof.proof));
}

TEST(Evaluations, MalformedRequestsAreRefused) {
  const Fixture f;
  Service svc(cpu());
  svc.add_key("k", f.points_only, "chain.params");
  const Given g(3);
  std::string message;
  const auto refused = [&](Evaluations e) { return submit_kind(svc, {e}, &message); };

  Evaluations e = g.evaluations(f);
  e.c = e.c.first(e.c.size() - 4);
  EXPECT_EQ(refused(e), ErrorKind::invalid_argument);
  EXPECT_NE(message.find("one per constraint"), std::string::npos) << message;
  e = g.evaluations(f);
  e.aux = e.aux.first(e.aux.size() - 4);
  EXPECT_EQ(refused(e), ErrorKind::invalid_argument);
  e = g.evaluations(f);
  e.a = e.a.first(e.a.size() - 1);
  EXPECT_EQ(refused(e), ErrorKind::invalid_argument);
  EXPECT_NE(message.find("whole number"), std::string::npos) << message;
  e = g.evaluations(f);
  e.inputs = e.aux.first(4 * f.n_inputs);  // input 0 is not 1
  EXPECT_EQ(refused(e), ErrorKind::invalid_argument);
  EXPECT_NE(message.find("not 1"), std::string::npos) << message;
  // r and s given for one partition of a job and not the other.
  EXPECT_EQ(submit_kind(svc, {g.evaluations(f), g.evaluations(f, false)}, &message), ErrorKind::invalid_argument);
  EXPECT_NE(message.find("every partition"), std::string::npos) << message;
  // A value past the modulus, in a, b or the private values, fails its
  // partition (on the CPU backend, in the copy into its buffer) with a line
  // that names it, and no proof.
  for (const auto& [vector, index, line] : {std::tuple{&Evaluations::b, 5, "b value 5 is not below the modulus"},
                                            std::tuple{&Evaluations::a, 0, "a value 0 is not below the modulus"},
                                            std::tuple{&Evaluations::aux, 9, "private value 9 is not below the modulus"}}) {
    e = g.evaluations(f);
    std::vector<uint64_t> big(((e).*vector).begin(), ((e).*vector).end());
    std::memset(big.data() + 4 * index, 0xff, 32);
    e.*vector = big;
    const JobOutcome out = *svc.await(svc.submit("k", {e}));
    EXPECT_EQ(out.partitions[0].error_kind, ErrorKind::invalid_argument) << line;
    EXPECT_FALSE(out.partitions[0].proved) << line;
    EXPECT_NE(out.partitions[0].error.find(line), std::string::npos) << out.partitions[0].error;
  }
  // A key without its circuit proves nothing else.
  EXPECT_EQ(submit_kind(svc, {NativeWitness{"hash-chain", kConstraints, 1}}, &message), ErrorKind::invalid_argument);
  EXPECT_NE(message.find("holds no circuit"), std::string::npos) << message;
}

// The caller's memory is lent, not copied by the service: the hold is let go
// of once the partition's inputs are read, before the job is awaited, and
// what the caller writes into its buffers from then on reaches no proof
// (they are scrambled here the moment they are given back).
TEST(Evaluations, TheCallersMemoryIsGivenBackOnceRead) {
  const Fixture f;
  Service svc(cpu());
  svc.add_key("k", f.points_only, "chain.params");
  const Given g(5);
  Given mine(5);  // the same witness, in the caller's buffers
  mine.rs = g.rs;
  std::atomic<int> given_back{0};
  Evaluations e = mine.evaluations(f);
  e.hold = std::shared_ptr<const void>(&mine, [&](const void*) {
    for (std::vector<Fr>* v : {&mine.in.w, &mine.in.a, &mine.in.b, &mine.in.c})
      std::memset(v->data(), 0xff, v->size() * sizeof(Fr));
    ++given_back;
  });
  std::vector<PartitionInput> parts;
  parts.push_back(std::move(e));  // the service's copy is the only one
  const JobId id = svc.submit("k", std::move(parts));
  const JobOutcome out = *svc.await(id);
  EXPECT_EQ(given_back.load(), 1) << "the hold was not let go of by the job's end, or twice";
  ASSERT_TRUE(out.partitions[0].ok()) << out.partitions[0].error;
  std::vector<Fr> a(g.in.a), b(g.in.b), c(g.in.c);
  const auto pending = groth16::prove_start<E>(*f.with_circuit, g.in.w, a, b, c);
  EXPECT_TRUE(std::get<Proved<E>>(*out.partitions[0].proved).proof ==
              groth16::prove_finish(*f.with_circuit, pending, g.rs));
  // A refused submit gives its hold back at once.
  Evaluations refused = g.evaluations(f);
  refused.c = refused.c.first(4);
  std::atomic<int> back{0};
  refused.hold = std::shared_ptr<const void>(&back, [&](const void*) { ++back; });
  std::vector<PartitionInput> refused_parts;
  refused_parts.push_back(std::move(refused));
  EXPECT_THROW((void)svc.submit("k", std::move(refused_parts)), Error);
  EXPECT_EQ(back.load(), 1);
}

TEST(Assignment, ProvesFromTheCircuitsRowsWhatEvaluationsProve) {
  const Fixture f;
  ServiceOptions o = cpu();
  o.abc = AbcPlace::automatic;
  Service svc(o);
  svc.add_key("k", f.points_only, "chain.params");
  svc.add_key("circuit", f.registered, "chain.params with its matrices");
  const Given g1(4), g2(5);
  const JobOutcome given = *svc.await(svc.submit("k", {g1.evaluations(f), g2.evaluations(f)}));
  const JobOutcome only = *svc.await(svc.submit("circuit", {g1.assignment(f), g2.assignment(f)}));
  for (size_t i = 0; i < 2; ++i) {
    ASSERT_TRUE(given.partitions[i].ok()) << given.partitions[i].error;
    ASSERT_TRUE(only.partitions[i].ok()) << only.partitions[i].error;
    EXPECT_TRUE(std::get<Proved<E>>(*only.partitions[i].proved).proof ==
                std::get<Proved<E>>(*given.partitions[i].proved).proof);
  }
  std::string message;
  // A key known by its densities alone has no rows to evaluate a, b, c from.
  EXPECT_EQ(submit_kind(svc, {g1.assignment(f)}, &message), ErrorKind::invalid_argument);
  EXPECT_NE(message.find("holds no circuit"), std::string::npos) << message;
  Assignment a = g1.assignment(f);
  a.aux = a.aux.first(a.aux.size() - 4);
  EXPECT_THROW((void)svc.submit("circuit", {a}), Error);
  a = g1.assignment(f);
  a.inputs = a.aux.first(4 * f.n_inputs);  // input 0 is not 1
  EXPECT_THROW((void)svc.submit("circuit", {a}), Error);

  // Lent as Evaluations are: the hold is let go of once the assignment is
  // read (copied for the host's a, b, c here), buffers scrambled from then on
  // reach no proof, and a value not below the modulus fails with its line.
  Given mine(4);
  mine.rs = g1.rs;
  std::atomic<int> given_back{0};
  Assignment lent = mine.assignment(f);
  lent.hold = std::shared_ptr<const void>(&mine, [&](const void*) {
    std::memset(mine.in.w.data(), 0xff, mine.in.w.size() * sizeof(Fr));
    ++given_back;
  });
  Given bad(5);
  std::memset(&bad.in.w[f.n_inputs], 0xff, sizeof(Fr));
  std::vector<PartitionInput> parts;
  parts.push_back(std::move(lent));  // the service's copy is the only one
  parts.push_back(bad.assignment(f));
  const JobOutcome out = *svc.await(svc.submit("circuit", std::move(parts)));
  EXPECT_EQ(given_back.load(), 1) << "the hold was not let go of by the job's end, or twice";
  ASSERT_TRUE(out.partitions[0].ok()) << out.partitions[0].error;
  EXPECT_TRUE(std::get<Proved<E>>(*out.partitions[0].proved).proof ==
              std::get<Proved<E>>(*given.partitions[0].proved).proof);
  ASSERT_FALSE(out.partitions[1].ok());
  EXPECT_NE(out.partitions[1].error.find("private value 0 is not below the modulus"), std::string::npos)
      << out.partitions[1].error;
}

}  // namespace
}  // namespace cuzk::service
