// What libcuzk's C API adds to a proof: the same witness proved, in turns,
// through the service's C++ API (Service::submit + await: what the CLI and
// cuzkd call), through cuzk_prove and through rapidsnark's
// groth16_prover_prove, each over its own service with the key loaded once;
// the wall time of each call, median of N after a warm-up round. The
// differences are what each C layer adds: copying the witness in, the
// result's JSON text and the result out.
//   capi_overhead ZKEY WTNS [N, default 20] [BACKEND auto|cpu|cuda, default auto]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cuzk/cuzk.h"
#include "cuzk/service/service.hpp"

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

template <class F>
double seconds(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "error: %s\n", what.c_str());
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s ZKEY WTNS [N] [BACKEND]\n", argv[0]);
    return 2;
  }
  const std::string zkey = argv[1], backend = argc > 4 ? argv[4] : "auto";
  const int n = argc > 3 ? std::atoi(argv[3]) : 20;
  if (n < 1 || n > 100000) die("N must be 1 to 100000");
  std::ifstream in(argv[2], std::ios::binary);
  const std::vector<uint8_t> wtns((std::istreambuf_iterator<char>(in)), {});
  if (!in && !in.eof()) die(std::string("cannot read ") + argv[2]);

  // The service as the CLI and cuzkd use it.
  namespace svc = cuzk::service;
  svc::ServiceOptions so;
  const auto kind = svc::backend_named(backend);
  if (!kind) die("unknown backend " + backend);
  so.placement.backend = *kind;
  svc::Service service(so);
  service.load_key(zkey, "k");
  auto direct = [&] {
    std::vector<svc::PartitionInput> parts;
    parts.push_back(svc::WitnessBytes{std::string(wtns.begin(), wtns.end()), "witness"});
    const auto outcome = service.await(service.submit("k", std::move(parts)));
    if (!outcome || !outcome->partitions.front().ok()) die("the service's proof failed");
  };

  // cuzk's own C API.
  cuzk_options o;
  cuzk_options_init(&o);
  o.backend = backend.c_str();
  cuzk_prover* prover = nullptr;
  if (cuzk_prover_create(&o, &prover) != CUZK_OK || cuzk_key_load_file(prover, zkey.c_str(), "k", nullptr) != CUZK_OK)
    die(cuzk_last_error());
  const cuzk_witness w{wtns.data(), wtns.size(), nullptr};
  auto own = [&] {
    cuzk_result* r = nullptr;
    if (cuzk_prove(prover, "k", &w, &r) != CUZK_OK) die(cuzk_last_error());
    cuzk_result_free(r);
  };

  // rapidsnark's C API (its prover picks the backend as auto does).
  void* rapidsnark = nullptr;
  char msg[4096];  // rapidsnark's API cuts its message to the buffer: room for a long path
  if (groth16_prover_create_zkey_file(&rapidsnark, zkey.c_str(), msg, sizeof msg) != PROVER_OK) die(msg);
  unsigned long long proof_cap = 0, public_cap = 0;
  groth16_proof_size(&proof_cap);
  if (groth16_public_size_for_zkey_file(zkey.c_str(), &public_cap, msg, sizeof msg) != PROVER_OK) die(msg);
  std::vector<char> proof(proof_cap), publics(public_cap);
  auto compat = [&] {
    unsigned long long proof_size = proof_cap, public_size = public_cap;
    if (groth16_prover_prove(rapidsnark, wtns.data(), wtns.size(), proof.data(), &proof_size, publics.data(),
                             &public_size, msg, sizeof msg) != PROVER_OK)
      die(msg);
  };

  std::vector<double> t_direct, t_own, t_compat;
  for (int i = -1; i < n; ++i) {  // round -1 warms each up
    const double a = seconds(direct), b = seconds(own), c = seconds(compat);
    if (i < 0) continue;
    t_direct.push_back(a), t_own.push_back(b), t_compat.push_back(c);
  }
  const double d = 1e3 * median(t_direct), own_ms = 1e3 * median(t_own), compat_ms = 1e3 * median(t_compat);
  std::vector<double> own_extra, compat_extra;
  for (int i = 0; i < n; ++i) own_extra.push_back(t_own[i] - t_direct[i]), compat_extra.push_back(t_compat[i] - t_direct[i]);
  std::printf("capi_overhead: %s, %s (%zu bytes), libcuzk %s, %s; median of %d rounds after a warm-up\n", zkey.c_str(),
              argv[2], wtns.size(), cuzk_version(), service.describe().c_str(), n);
  std::printf("  Service::submit + await (C++): %.3f ms a proof\n", d);
  std::printf("  cuzk_prove (C):                 %.3f ms a proof; over C++, median of the rounds' differences: %+.3f ms\n",
              own_ms, 1e3 * median(own_extra));
  std::printf("  groth16_prover_prove (C):       %.3f ms a proof; over C++, median of the rounds' differences: %+.3f ms\n",
              compat_ms, 1e3 * median(compat_extra));
  groth16_prover_destroy(rapidsnark);
  cuzk_prover_destroy(prover);
  return 0;
}
