// rapidsnark's C API (include/cuzk/cuzk.h) over the proving service: a prover
// object is one service::Service with the key loaded once, and a proof is one
// job of one partition. This file only converts: C arguments to service
// calls, outcomes to JSON in the caller's buffers, and every exception, of
// any type, to an error code and a one-line message (c_boundary.hpp).
#include "cuzk/cuzk.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuzk/ec/curves.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey.hpp"
#include "cuzk/service/environment.hpp"
#include "cuzk/service/errors.hpp"
#include "cuzk/service/proof.hpp"
#include "cuzk/service/service.hpp"

#include "c_boundary.hpp"

namespace {

using namespace cuzk;

using Refusal = capi::Refusal<int>;

// `message` into error_msg, truncated to its size, NUL-terminated; nothing
// when there is no room.
void copy_message(char* error_msg, unsigned long long error_msg_maxsize, std::string_view message) noexcept {
  if (!error_msg || error_msg_maxsize == 0) return;
  const size_t n = (size_t)std::min<unsigned long long>(error_msg_maxsize - 1, message.size());
  std::memcpy(error_msg, message.data(), n);
  error_msg[n] = '\0';
}

// The code of a failure: a witness whose signal count is not the key's nVars
// has its own; every other failure is PROVER_ERROR.
int code_of(const std::exception_ptr& e) {
  return service::caused_by<io::WitnessLengthError>(e) ? PROVER_INVALID_WITNESS_LENGTH : PROVER_ERROR;
}

// f(), which returns a C code; whatever it throws becomes a code (a
// Refusal's, or code_of's) with its message in error_msg.
template <class F>
int guarded(char* error_msg, unsigned long long error_msg_maxsize, F&& f) noexcept {
  return capi::guarded(f, code_of, PROVER_ERROR, [&](int code, std::string_view message) {
    copy_message(error_msg, error_msg_maxsize, message);
    return code;
  });
}

void require(const void* p, const char* what) {
  if (!p) throw Refusal{PROVER_ERROR, std::string("null ") + what};
}

std::span<const uint8_t> bytes_of(const void* p, unsigned long long size, const char* what) {
  require(p, what);
  if (size > std::numeric_limits<size_t>::max())
    throw Refusal{PROVER_ERROR,
                  std::string(what) + ": " + std::to_string(size) + " bytes do not fit this machine's memory"};
  return {static_cast<const uint8_t*>(p), (size_t)size};
}

// Buffer sizes, NUL included, measured on the JSON prove() delivers
// (service::snarkjs_json) filled with the longest decimals there are: q - 1
// for every coordinate, r - 1 for every public signal.
template <class E>
unsigned long long longest_proof_size() {
  using F1 = typename E::G1::F;
  using F2 = typename E::G2::F;
  const F1 m = -F1::one();
  F2 m2;
  m2.c0 = m2.c1 = -F2::Base::one();
  service::Proved<E> p;
  p.proof.a = p.proof.c = {m, m};
  p.proof.b = {m2, m2};
  return service::snarkjs_json(p).proof.size() + 1;
}

template <class E>
unsigned long long longest_public_size(uint64_t n_public) {
  using Fr = typename E::Fr;
  const auto size = [](size_t n) {
    return service::snarkjs_json(service::Proved<E>{{}, std::vector<Fr>(n, -Fr::one())}).publics.size();
  };
  const unsigned long long size1 = size(1), size2 = size(2);
  // The text grows by the same bytes per signal, and "[]" (no signal) is the rest.
  const unsigned long long each = size2 - size1;
  return (size1 - each) + n_public * each + 1;
}

unsigned long long public_size_for(const io::ZkeyHeader& h) {
  return ec::visit_curve(h.curve, [&](auto e) { return longest_public_size<decltype(e)>(h.n_public); });
}

// One prover object: its own service, with the key under kKeyId.
constexpr const char* kKeyId = "key";

struct Prover {
  service::Service svc{service::ServiceOptions{}};
};

int create(void** prover_object, char* error_msg, unsigned long long error_msg_maxsize,
           const auto& load) {
  return guarded(error_msg, error_msg_maxsize, [&] {
    require(prover_object, "prover object");
    service::apply_environment_switches();
    auto prover = std::make_unique<Prover>();
    load(prover->svc);
    *prover_object = prover.release();
    return PROVER_OK;
  });
}

// Writes the two texts (see "Buffers" in cuzk.h), or throws
// PROVER_ERROR_SHORT_BUFFER with both sizes set and nothing written.
void deliver(const std::string& proof, char* proof_buffer, unsigned long long* proof_size, const std::string& publics,
             char* public_buffer, unsigned long long* public_size) {
  const unsigned long long proof_needed = proof.size() + 1, public_needed = publics.size() + 1;
  if (*proof_size < proof_needed || *public_size < public_needed) {
    const std::string message = "buffer too short for the proof: proof needs " + std::to_string(proof_needed) +
                                " bytes (given " + std::to_string(*proof_size) + "), public signals need " +
                                std::to_string(public_needed) + " (given " + std::to_string(*public_size) + ")";
    *proof_size = proof_needed;
    *public_size = public_needed;
    throw Refusal{PROVER_ERROR_SHORT_BUFFER, message};
  }
  std::memcpy(proof_buffer, proof.c_str(), proof_needed);
  std::memcpy(public_buffer, publics.c_str(), public_needed);
  *proof_size = proof.size();
  *public_size = publics.size();
}

int prove(Prover& prover, std::span<const uint8_t> wtns, char* proof_buffer, unsigned long long* proof_size,
          char* public_buffer, unsigned long long* public_size) {
  std::vector<service::PartitionInput> partitions;
  partitions.push_back(service::WitnessBytes{std::string(wtns.begin(), wtns.end()), "witness"});
  const service::JobId job = prover.svc.submit(kKeyId, std::move(partitions));
  const std::optional<service::JobOutcome> outcome = prover.svc.await(job);
  if (!outcome || outcome->partitions.size() != 1)
    throw Refusal{PROVER_ERROR, "the service returned no outcome for the proof"};
  const service::PartitionOutcome& p = outcome->partitions.front();
  if (!p.ok()) p.rethrow();
  const service::SnarkjsJson json = service::snarkjs_json(*p.proved);
  deliver(json.proof, proof_buffer, proof_size, json.publics, public_buffer, public_size);
  return PROVER_OK;
}

}  // namespace

extern "C" {

int groth16_public_size_for_zkey_buf(const void* zkey_buffer, unsigned long long zkey_size,
                                     unsigned long long* public_size, char* error_msg,
                                     unsigned long long error_msg_maxsize) {
  return guarded(error_msg, error_msg_maxsize, [&] {
    const auto bytes = bytes_of(zkey_buffer, zkey_size, "zkey buffer");
    require(public_size, "public size");
    *public_size = public_size_for(io::read_zkey_header_bytes("zkey", bytes));
    return PROVER_OK;
  });
}

int groth16_public_size_for_zkey_file(const char* zkey_fname, unsigned long long* public_size, char* error_msg,
                                      unsigned long long error_msg_maxsize) {
  return guarded(error_msg, error_msg_maxsize, [&] {
    require(zkey_fname, "zkey file name");
    require(public_size, "public size");
    *public_size = public_size_for(io::read_zkey_header(zkey_fname));
    return PROVER_OK;
  });
}

void groth16_proof_size(unsigned long long* proof_size) {
  if (!proof_size) return;
  // Computed once; the first call cannot fail but for memory, and then the
  // size is still a bound (BLS12-381's coordinates have the most digits).
  static const unsigned long long size = [] {
    try {
      return std::max(longest_proof_size<ec::Bn254>(), longest_proof_size<ec::Bls12_381>());
    } catch (...) {
      return 4096ULL;
    }
  }();
  *proof_size = size;
}

int groth16_prover_create(void** prover_object, const void* zkey_buffer, unsigned long long zkey_size,
                          char* error_msg, unsigned long long error_msg_maxsize) {
  return create(prover_object, error_msg, error_msg_maxsize, [&](service::Service& s) {
    const auto bytes = bytes_of(zkey_buffer, zkey_size, "zkey buffer");
    s.load_key_bytes({bytes.begin(), bytes.end()}, "zkey", kKeyId);
  });
}

int groth16_prover_create_zkey_file(void** prover_object, const char* zkey_file_path, char* error_msg,
                                    unsigned long long error_msg_maxsize) {
  return create(prover_object, error_msg, error_msg_maxsize, [&](service::Service& s) {
    require(zkey_file_path, "zkey file path");
    s.load_key(zkey_file_path, kKeyId);
  });
}

int groth16_prover_prove(void* prover_object, const void* wtns_buffer, unsigned long long wtns_size,
                         char* proof_buffer, unsigned long long* proof_size, char* public_buffer,
                         unsigned long long* public_size, char* error_msg, unsigned long long error_msg_maxsize) {
  return guarded(error_msg, error_msg_maxsize, [&] {
    require(prover_object, "prover object");
    const auto wtns = bytes_of(wtns_buffer, wtns_size, "witness buffer");
    require(proof_buffer, "proof buffer");
    require(proof_size, "proof size");
    require(public_buffer, "public buffer");
    require(public_size, "public size");
    return prove(*static_cast<Prover*>(prover_object), wtns, proof_buffer, proof_size, public_buffer, public_size);
  });
}

void groth16_prover_destroy(void* prover_object) {
  // ~Service waits for the jobs in flight and does not throw.
  delete static_cast<Prover*>(prover_object);
}

int groth16_prover(const void* zkey_buffer, unsigned long long zkey_size, const void* wtns_buffer,
                   unsigned long long wtns_size, char* proof_buffer, unsigned long long* proof_size,
                   char* public_buffer, unsigned long long* public_size, char* error_msg,
                   unsigned long long error_msg_maxsize) {
  void* prover = nullptr;
  int code = groth16_prover_create(&prover, zkey_buffer, zkey_size, error_msg, error_msg_maxsize);
  if (code != PROVER_OK) return code;
  code = groth16_prover_prove(prover, wtns_buffer, wtns_size, proof_buffer, proof_size, public_buffer, public_size,
                              error_msg, error_msg_maxsize);
  groth16_prover_destroy(prover);
  return code;
}

int groth16_prover_zkey_file(const char* zkey_file_path, const void* wtns_buffer, unsigned long long wtns_size,
                             char* proof_buffer, unsigned long long* proof_size, char* public_buffer,
                             unsigned long long* public_size, char* error_msg, unsigned long long error_msg_maxsize) {
  void* prover = nullptr;
  int code = groth16_prover_create_zkey_file(&prover, zkey_file_path, error_msg, error_msg_maxsize);
  if (code != PROVER_OK) return code;
  code = groth16_prover_prove(prover, wtns_buffer, wtns_size, proof_buffer, proof_size, public_buffer, public_size,
                              error_msg, error_msg_maxsize);
  groth16_prover_destroy(prover);
  return code;
}

}  // extern "C"
