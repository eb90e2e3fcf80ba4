// A proof's host inputs in pieces on the GPU (groth16/host_inputs.hpp,
// prover_cuda.hpp's upload_inputs): page-locked memory told from pageable
// memory, a pageable upload several times the staging ring's size arriving
// whole, pieces in either kind of memory and a, b, c shorter than the domain
// giving the CPU's MSM results under both a/b/c schedules, and a value not
// below the modulus failing the proof with its vector's name and index while
// the worker stays good.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "cuzk/cuda/runtime.hpp"
#include "cuzk/groth16/host_inputs.hpp"
#include "cuzk/groth16/prover_cuda.hpp"
#include "proving_support.hpp"

namespace cuzk {
namespace {

using E = ec::Bls12_381;
using Fr = E::Fr;
using Chain = circuit::HashChain<E>;
using test::dev_key;

TEST(HostInputs, PageLockedMemoryIsToldFromPageable) {
  cuda::PinnedBuffer<uint8_t> pinned(size_t(1) << 20);
  std::vector<uint8_t> pageable(size_t(1) << 20);
  EXPECT_TRUE(cuda::page_locked(pinned.data(), pinned.size()));
  EXPECT_TRUE(cuda::page_locked(pinned.data() + 100, 1000)) << "a range inside a locked buffer";
  EXPECT_FALSE(cuda::page_locked(pageable.data(), pageable.size()));
  const cuda::HostRegistration registered(pageable.data(), pageable.size());
  EXPECT_TRUE(cuda::page_locked(pageable.data(), pageable.size())) << "registered in place";
}

// Bytes from pageable memory through the ring, turning it several times, and
// from page-locked memory straight, both on the worker's copy stream.
TEST(HostInputs, APageableUploadLargerThanTheRingArrivesWhole) {
  groth16::gpu::Worker worker(0);
  const size_t ring = cuda::StagedUpload::kBlock * cuda::StagedUpload::kBlocks;
  std::vector<uint8_t> host(3 * ring + 12345);
  std::mt19937_64 rng(7);
  for (auto& b : host) b = (uint8_t)rng();
  cuda::PinnedBuffer<uint8_t> locked(host.size());
  std::memcpy(locked.data(), host.data(), host.size());
  for (const uint8_t* from : {static_cast<const uint8_t*>(host.data()), static_cast<const uint8_t*>(locked.data())}) {
    cuda::DeviceBuffer<uint8_t> d(host.size());
    worker.staging().copy(d.data(), from, host.size());
    worker.staging().finish();
    std::vector<uint8_t> back(host.size());
    d.download(back);
    EXPECT_TRUE(back == host) << (from == host.data() ? "pageable" : "page-locked");
  }
}

// Fewer constraints than the domain holds, so that a, b and c end in zeros.
constexpr uint64_t kConstraints = (1 << 12) - 100;

struct Proving {
  groth16::SharedKey<E> key = dev_key<E>(Chain::for_constraints(kConstraints, 0));
  groth16::gpu::DeviceKey<E> device{key, 0};
  circuit::Assignment<Fr> in = circuit::synthesize_assignment(Chain::for_constraints(kConstraints, 3));
  size_t rows = 0;  // a, b, c past these are zero
  groth16::PendingProof<E> want;

  Proving() {
    for (rows = in.a.size(); rows > 0 && in.a[rows - 1].is_zero() && in.b[rows - 1].is_zero() && in.c[rows - 1].is_zero();)
      --rows;
    circuit::Assignment<Fr> copy = in;
    want = test::cpu_pending(*key, std::move(copy));
  }
};

// w in two pieces, one pageable and one page-locked, and a, b, c of the rows
// that are not zero, in the other kind each: the CPU's results.
TEST(HostInputs, PiecesInEitherMemoryProveAsTheCpu) {
  const Proving p;
  ASSERT_LT(p.rows, p.in.a.size()) << "the test wants a, b, c shorter than the domain";
  const size_t split = p.in.w.size() / 3;
  cuda::PinnedBuffer<Fr> tail(p.in.w.size() - split), b(p.rows);
  std::copy(p.in.w.begin() + (ptrdiff_t)split, p.in.w.end(), tail.data());
  std::copy(p.in.b.begin(), p.in.b.begin() + (ptrdiff_t)p.rows, b.data());
  groth16::HostInputs<Fr> pieces;
  pieces.w = {{std::span<const Fr>(p.in.w).first(split), "input"}, {tail.span(), "private"}};
  pieces.a.values = std::span<const Fr>(p.in.a).first(p.rows);
  pieces.b.values = b.span();
  pieces.c.values = std::span<const Fr>(p.in.c).first(p.rows);
  groth16::gpu::Worker worker(0);
  for (const auto schedule : {groth16::gpu::AbcSchedule::together, groth16::gpu::AbcSchedule::in_turn}) {
    SCOPED_TRACE(schedule == groth16::gpu::AbcSchedule::in_turn ? "in turn" : "together");
    auto inputs = groth16::gpu::upload_inputs<E>(p.device, worker, pieces, schedule);
    EXPECT_EQ(inputs.bytes(), (p.in.w.size() + (schedule == groth16::gpu::AbcSchedule::in_turn ? 0 : 3 * p.rows)) *
                                  sizeof(Fr));
    auto pending = groth16::gpu::prove_start<E>(p.device, worker, std::move(inputs));
    test::expect_same_pending<E>(pending.wait(), p.want);
  }
  groth16::HostInputs<Fr> too_many = pieces;
  too_many.w.assign(groth16::kMaxWitnessPieces + 1, groth16::HostInputs<Fr>::Piece{{}, "empty"});
  too_many.w.back() = {p.in.w, "all"};
  EXPECT_THROW(groth16::gpu::upload_inputs<E>(p.device, worker, too_many), std::invalid_argument);
  groth16::HostInputs<Fr> uneven = pieces;
  uneven.c.values = uneven.c.values.first(p.rows - 1);
  EXPECT_THROW(groth16::gpu::upload_inputs<E>(p.device, worker, uneven), std::invalid_argument);
}

// The device's check: the first value not below the modulus of the vector
// named, whichever piece and schedule, and nothing left over for the next
// proof on the worker.
TEST(HostInputs, AValueNotBelowTheModulusFailsOnTheDevice) {
  const Proving p;
  groth16::gpu::Worker worker(0);
  std::vector<Fr> w(p.in.w), c(p.in.c.begin(), p.in.c.begin() + (ptrdiff_t)p.rows);
  std::memset(&w[w.size() - 2], 0xff, sizeof(Fr));
  std::memset(&w[w.size() - 1], 0xff, sizeof(Fr));
  std::memset(&c[7], 0xff, sizeof(Fr));
  std::memset(&c[9], 0xff, sizeof(Fr));
  const size_t split = p.key->key().n_public() + 1;  // the inputs, 1 first
  struct Case {
    bool bad_w, bad_c;
    groth16::gpu::AbcSchedule schedule;
    std::string message;
  };
  const std::string last_private = "private value " + std::to_string(w.size() - 2 - split);
  for (const Case& k : {Case{true, false, groth16::gpu::AbcSchedule::together, last_private},
                        Case{false, true, groth16::gpu::AbcSchedule::together, "c value 7"},
                        Case{false, true, groth16::gpu::AbcSchedule::in_turn, "c value 7"}}) {
    SCOPED_TRACE(k.message);
    const std::span<const Fr> wv = k.bad_w ? std::span<const Fr>(w) : std::span<const Fr>(p.in.w);
    groth16::HostInputs<Fr> pieces;
    pieces.w = {{wv.first(split), "input"}, {wv.subspan(split), "private"}};
    pieces.a.values = std::span<const Fr>(p.in.a).first(p.rows);
    pieces.b.values = std::span<const Fr>(p.in.b).first(p.rows);
    pieces.c.values = k.bad_c ? std::span<const Fr>(c) : std::span<const Fr>(p.in.c).first(p.rows);
    auto pending = groth16::gpu::prove_start<E>(p.device, worker,
                                                groth16::gpu::upload_inputs<E>(p.device, worker, pieces, k.schedule));
    try {
      pending.wait();
      ADD_FAILURE() << "a value not below the modulus was proved";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), k.message + " is not below the modulus");
    }
  }
  const auto whole = groth16::HostInputs<Fr>::whole(p.in.w, p.in.a, p.in.b, p.in.c);
  auto pending = groth16::gpu::prove_start<E>(p.device, worker, groth16::gpu::upload_inputs<E>(p.device, worker, whole));
  test::expect_same_pending<E>(pending.wait(), p.want);
}

}  // namespace
}  // namespace cuzk
