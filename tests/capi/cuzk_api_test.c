/*
 * cuzk's own C API (the cuzk_ functions of include/cuzk/cuzk.h), from C11,
 * run by ctest as
 *   cuzk_api_test MODE FIXTURES OUT
 * MODE:
 *   prove    both curves: keys from a file and from a buffer, their info and
 *            verification key (equal to snarkjs's vk.json), a job of three
 *            witnesses (two buffers, one path) awaited, each proof verified
 *            by cuzk_verify and its public signals the fixture's; writes
 *            OUT/own-<curve>-{proof,public}.json for cuzk verify and snarkjs
 *   errors   NULL arguments, bad options, unknown keys and jobs, truncated,
 *            random and other-curve witnesses, an unsatisfied witness, a
 *            tampered proof, malformed JSON, short buffers: the status and a
 *            message naming the problem; messages are per thread
 *   jobs     eviction while a job runs, cancel, await with a timeout,
 *            a high-priority job overtaking a queued low one
 *   threads  4 threads proving with one prover at once; writes
 *            OUT/own-thread<t>-<i>-{proof,public}.json for snarkjs
 *   cycles   100 create/load/prove/destroy cycles ($CUZK_TEST_CYCLES; 20
 *            under valgrind)
 * Prints each failed check and exits 1 if any failed.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capi_support.h"
#include "cuzk/cuzk.h"

static const char *const kCurves[2] = {"bn128", "bls12381"};

static cuzk_prover *new_prover(void) {
  cuzk_options o;
  cuzk_options_init(&o);
  o.backend = "cpu";
  cuzk_prover *p = NULL;
  CHECK(cuzk_prover_create(&o, &p) == CUZK_OK, "%s", cuzk_last_error());
  if (!p) exit(2);
  return p;
}

static int contains(const char *text, const char *part) { return strstr(text, part) != NULL; }

/* Seconds on the monotonic clock, the one the service's times are measured on. */
static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static cuzk_status load_circuit_key(cuzk_prover *p, const char *curve, const char *circuit, const char *id) {
  char path[4096];
  fixture_path(path, sizeof path, curve, circuit, "circuit.zkey");
  return cuzk_key_load_file(p, path, id, NULL);
}

/* Every proof of a result: made, its publics the fixture's, verified. */
static void check_result(const cuzk_result *r, size_t want, const char *curve, const char *vk, const char *publics) {
  CHECK(cuzk_result_count(r) == want, "%s: %zu proofs, want %zu", curve, cuzk_result_count(r), want);
  for (size_t i = 0; i < cuzk_result_count(r); ++i) {
    cuzk_proof p;
    CHECK(cuzk_result_get(r, i, &p) == CUZK_OK, "%s", cuzk_last_error());
    CHECK(p.status == CUZK_OK, "%s proof %zu: %s", curve, i, p.error);
    CHECK(same_json(p.public_json, publics), "%s proof %zu: public %s", curve, i, p.public_json);
    int valid = 0;
    CHECK(cuzk_verify(vk, p.public_json, p.proof_json, &valid) == CUZK_OK && valid == 1, "%s proof %zu: %s", curve,
          i, cuzk_last_error());
    CHECK(p.times.total > 0 && p.times.total >= p.times.prove && p.times.prove >= 0, "%s proof %zu: times", curve, i);
  }
}

static void prove_curve(const char *curve) {
  cuzk_prover *p = new_prover();
  Bytes zkey = fixture(curve, "multiplier", "circuit.zkey"), wtns = fixture(curve, "multiplier", "witness.wtns");
  Bytes vk = fixture(curve, "multiplier", "vk.json"), publics = fixture(curve, "multiplier", "public.json");
  char id[CUZK_KEY_ID_MAX];
  CHECK(cuzk_key_load_buffer(p, zkey.data, zkey.size, NULL, id) == CUZK_OK, "%s", cuzk_last_error());
  CHECK(strcmp(id, "zkey") == 0, "a buffer's default id: %s", id);
  char path[4096];
  fixture_path(path, sizeof path, curve, "multiplier", "circuit.zkey");
  CHECK(cuzk_key_load_file(p, path, NULL, id) == CUZK_OK, "%s", cuzk_last_error());
  CHECK(strcmp(id, "circuit") == 0, "a file's default id: %s", id);

  cuzk_key_info info;
  CHECK(cuzk_key_info_get(p, "circuit", &info) == CUZK_OK, "%s", cuzk_last_error());
  CHECK(strcmp(info.curve, curve) == 0 && info.n_public == 2 && info.n_vars > 3 && info.domain_size >= 4,
        "%s: info %s %llu %llu %llu", curve, info.curve, (unsigned long long)info.n_vars,
        (unsigned long long)info.n_public, (unsigned long long)info.domain_size);

  size_t needed = 0;
  CHECK(cuzk_key_export_vk(p, "circuit", NULL, 0, &needed) == CUZK_ERROR_SHORT_BUFFER && needed > 1, "%zu", needed);
  char *vk_text = malloc(needed);
  CHECK(cuzk_key_export_vk(p, "circuit", vk_text, needed, NULL) == CUZK_OK, "%s", cuzk_last_error());
  CHECK(same_json(vk_text, (const char *)vk.data), "%s: exported vk differs from snarkjs's:\n%s", curve, vk_text);

  char wtns_path[4096];
  fixture_path(wtns_path, sizeof wtns_path, curve, "multiplier", "witness.wtns");
  const cuzk_witness ws[3] = {{wtns.data, wtns.size, NULL}, {NULL, 0, wtns_path}, {wtns.data, wtns.size, NULL}};
  cuzk_job job = 0;
  CHECK(cuzk_submit(p, "circuit", ws, 3, 0, 0, &job) == CUZK_OK, "%s", cuzk_last_error());
  cuzk_result *r = NULL;
  CHECK(cuzk_await(p, job, -1, &r) == CUZK_OK, "%s", cuzk_last_error());
  check_result(r, 3, curve, (const char *)vk.data, (const char *)publics.data);
  cuzk_proof first;
  if (cuzk_result_get(r, 0, &first) == CUZK_OK && first.status == CUZK_OK) {
    char name[4096];
    format_path(name, sizeof name, "%s/own-%s-proof.json", out_dir, curve);
    write_file(name, first.proof_json);
    format_path(name, sizeof name, "%s/own-%s-public.json", out_dir, curve);
    write_file(name, first.public_json);
  }
  cuzk_result_free(r);

  /* The key from the buffer proves too, through cuzk_prove. */
  CHECK(cuzk_prove(p, "zkey", &ws[0], &r) == CUZK_OK, "%s", cuzk_last_error());
  check_result(r, 1, curve, (const char *)vk.data, (const char *)publics.data);
  cuzk_result_free(r);

  free(vk_text);
  free(zkey.data), free(wtns.data), free(vk.data), free(publics.data);
  cuzk_prover_destroy(p);
}

static void mode_prove(void) {
  CHECK(strcmp(cuzk_version(), "") != 0 && contains(cuzk_build_backends(), "cpu"), "%s %s", cuzk_version(),
        cuzk_build_backends());
  for (int c = 0; c < 2; ++c) prove_curve(kCurves[c]);
}

/* A call that must fail with `want` and a message holding `part`. */
#define EXPECT_FAIL(call, want, part)                                                                          \
  do {                                                                                                         \
    const cuzk_status got_ = (call);                                                                           \
    CHECK(got_ == (want) && contains(cuzk_last_error(), part), "%s: got %s (%s), want %s with \"%s\"", #call,   \
          cuzk_status_name(got_), cuzk_last_error(), cuzk_status_name(want), part);                            \
  } while (0)

static void *fail_in_thread(void *arg) {
  (void)arg;
  cuzk_prover_create(NULL, NULL);
  return NULL;
}

static void mode_errors(void) {
  cuzk_prover *p = new_prover();
  cuzk_options o;
  cuzk_options_init(&o);
  o.backend = "gpu-please";
  cuzk_prover *q = NULL;
  EXPECT_FAIL(cuzk_prover_create(&o, &q), CUZK_ERROR_INVALID_ARGUMENT, "unknown backend");
  o.backend = "cpu";
  o.struct_size = 8;
  EXPECT_FAIL(cuzk_prover_create(&o, &q), CUZK_ERROR_INVALID_ARGUMENT, "struct_size");
  CHECK(q == NULL, "no prover on failure");
  o.struct_size = sizeof(cuzk_options) + 8; /* a later version's, which this one cannot read */
  EXPECT_FAIL(cuzk_prover_create(&o, &q), CUZK_ERROR_INVALID_ARGUMENT, "struct_size");
  /* 0.1's struct ended before gpu_memory: such a caller gets the default, not an error. */
  o.struct_size = offsetof(cuzk_options, gpu_memory);
  o.gpu_memory = 1; /* beyond 0.1's struct: never read */
  CHECK(cuzk_prover_create(&o, &q) == CUZK_OK && q != NULL, "a 0.1-sized cuzk_options: %s", cuzk_last_error());
  cuzk_prover_destroy(q);
  q = NULL;
  /* A limit on the CPU backend is taken and has nothing to limit. */
  cuzk_options_init(&o);
  o.backend = "cpu";
  o.gpu_memory = (size_t)16 << 30;
  CHECK(cuzk_prover_create(&o, &q) == CUZK_OK && q != NULL, "gpu_memory with the cpu backend: %s",
        cuzk_last_error());
  cuzk_prover_destroy(q);
  q = NULL;
  EXPECT_FAIL(cuzk_prover_create(NULL, NULL), CUZK_ERROR_INVALID_ARGUMENT, "null prover");
  EXPECT_FAIL(cuzk_key_load_file(p, "/nonexistent/k.zkey", NULL, NULL), CUZK_ERROR_NOT_FOUND, "k.zkey");
  EXPECT_FAIL(cuzk_key_load_file(p, NULL, NULL, NULL), CUZK_ERROR_INVALID_ARGUMENT, "null zkey path");
  Bytes noise = random_bytes(4096, 7);
  EXPECT_FAIL(cuzk_key_load_buffer(p, noise.data, noise.size, NULL, NULL), CUZK_ERROR_INVALID_ARGUMENT, "zkey");
  char long_id[CUZK_KEY_ID_MAX + 1];
  memset(long_id, 'k', CUZK_KEY_ID_MAX);
  long_id[CUZK_KEY_ID_MAX] = 0;
  EXPECT_FAIL(load_circuit_key(p, "bn128", "multiplier", long_id), CUZK_ERROR_INVALID_ARGUMENT, "key id");
  EXPECT_FAIL(cuzk_key_evict(p, "nothing"), CUZK_ERROR_NOT_FOUND, "nothing");
  cuzk_key_info info;
  EXPECT_FAIL(cuzk_key_info_get(p, "nothing", &info), CUZK_ERROR_NOT_FOUND, "nothing");

  CHECK(load_circuit_key(p, "bn128", "multiplier", "bn") == CUZK_OK, "%s", cuzk_last_error());
  CHECK(load_circuit_key(p, "bls12381", "multiplier", "bls") == CUZK_OK, "%s", cuzk_last_error());
  Bytes wtns = fixture("bn128", "multiplier", "witness.wtns");
  Bytes other = fixture("bls12381", "multiplier", "witness.wtns");
  cuzk_job job = 0;
  cuzk_witness w = {wtns.data, wtns.size, NULL};
  EXPECT_FAIL(cuzk_submit(p, "nothing", &w, 1, 0, 0, &job), CUZK_ERROR_NOT_FOUND, "nothing");
  EXPECT_FAIL(cuzk_submit(p, "bn", &w, 0, 0, 0, &job), CUZK_ERROR_INVALID_ARGUMENT, "at least one");
  EXPECT_FAIL(cuzk_submit(p, "bn", NULL, 1, 0, 0, &job), CUZK_ERROR_INVALID_ARGUMENT, "null witnesses");
  cuzk_witness empty = {NULL, 0, NULL};
  EXPECT_FAIL(cuzk_submit(p, "bn", &empty, 1, 0, 0, &job), CUZK_ERROR_INVALID_ARGUMENT, "neither data nor a path");
  cuzk_witness wrong_curve = {other.data, other.size, NULL};
  EXPECT_FAIL(cuzk_submit(p, "bn", &wrong_curve, 1, 0, 0, &job), CUZK_ERROR_INVALID_ARGUMENT, "witness 0");
  cuzk_witness truncated = {wtns.data, wtns.size - 5, NULL};
  EXPECT_FAIL(cuzk_submit(p, "bn", &truncated, 1, 0, 0, &job), CUZK_ERROR_INVALID_ARGUMENT, "witness 0");
  cuzk_witness random = {noise.data, noise.size, NULL};
  EXPECT_FAIL(cuzk_submit(p, "bn", &random, 1, 0, 0, &job), CUZK_ERROR_INVALID_ARGUMENT, "witness 0");
  cuzk_witness missing = {NULL, 0, "/nonexistent/w.wtns"};
  cuzk_result *r = NULL;
  EXPECT_FAIL(cuzk_prove(p, "bn", &missing, &r), CUZK_ERROR_NOT_FOUND, "w.wtns");
  CHECK(r == NULL, "no result when the submit fails");

  Bytes bad = unsatisfied_copy(wtns);
  cuzk_witness unsatisfied = {bad.data, bad.size, NULL};
  EXPECT_FAIL(cuzk_prove(p, "bn", &unsatisfied, &r), CUZK_ERROR_UNSATISFIED, "does not verify");
  cuzk_proof proof;
  CHECK(r && cuzk_result_get(r, 0, &proof) == CUZK_OK && proof.status == CUZK_ERROR_UNSATISFIED &&
            strcmp(proof.proof_json, "") == 0,
        "the failed proof's result");
  EXPECT_FAIL(cuzk_result_get(r, 1, &proof), CUZK_ERROR_INVALID_ARGUMENT, "proof 1");
  cuzk_result_free(r);
  EXPECT_FAIL(cuzk_await(p, 987654, -1, &r), CUZK_ERROR_NOT_FOUND, "987654");
  EXPECT_FAIL(cuzk_cancel(p, 987654), CUZK_ERROR_NOT_FOUND, "987654");

  /* Verification: a good proof, a tampered one, malformed documents. */
  Bytes vk = fixture("bn128", "multiplier", "vk.json"), good = fixture("bn128", "multiplier", "proof.json");
  Bytes publics = fixture("bn128", "multiplier", "public.json");
  int valid = -1;
  CHECK(cuzk_verify((const char *)vk.data, (const char *)publics.data, (const char *)good.data, &valid) == CUZK_OK &&
            valid == 1,
        "snarkjs's own proof: %s", cuzk_last_error());
  char *changed = strdup((const char *)publics.data); /* the input 11 becomes 12 */
  char *eleven = strstr(changed, "\"11\"");
  CHECK(eleven != NULL, "the fixture's public input is 11: %s", changed);
  if (eleven) eleven[2] = '2';
  CHECK(cuzk_verify((const char *)vk.data, changed, (const char *)good.data, &valid) == CUZK_OK && valid == 0,
        "a changed public signal must not verify: %d %s", valid, cuzk_last_error());
  free(changed);
  EXPECT_FAIL(cuzk_verify((const char *)vk.data, "[\"11\"]", (const char *)good.data, &valid),
              CUZK_ERROR_INVALID_ARGUMENT, "key expects 2");
  EXPECT_FAIL(cuzk_verify("{\"curve\": \"bn128\"", (const char *)publics.data, (const char *)good.data, &valid),
              CUZK_ERROR_INVALID_ARGUMENT, "invalid JSON");
  EXPECT_FAIL(cuzk_verify((const char *)vk.data, (const char *)publics.data, "{\"pi_a\": 1}", &valid),
              CUZK_ERROR_INVALID_ARGUMENT, "proof");
  EXPECT_FAIL(cuzk_verify((const char *)vk.data, (const char *)publics.data, NULL, &valid),
              CUZK_ERROR_INVALID_ARGUMENT, "null proof JSON");

  char small[4];
  size_t needed = 0;
  EXPECT_FAIL(cuzk_prover_describe(p, small, sizeof small, &needed), CUZK_ERROR_SHORT_BUFFER, "needs");
  CHECK(needed > sizeof small, "describe needs %zu", needed);

  /* The message is the calling thread's own. */
  cuzk_key_evict(p, "nothing");
  pthread_t t;
  pthread_create(&t, NULL, fail_in_thread, NULL);
  pthread_join(t, NULL);
  CHECK(contains(cuzk_last_error(), "nothing"), "another thread's failure changed this one's message: %s",
        cuzk_last_error());
  CHECK(strcmp(cuzk_status_name(CUZK_ERROR_TIMEOUT), "timeout") == 0 && strcmp(cuzk_status_name(99), "unknown") == 0,
        "status names");

  free(noise.data), free(wtns.data), free(other.data), free(bad.data), free(vk.data), free(good.data);
  free(publics.data);
  cuzk_prover_destroy(p);
}

static void mode_jobs(void) {
  cuzk_prover *p = new_prover();
  CHECK(load_circuit_key(p, "bn128", "multiplier", "k") == CUZK_OK, "%s", cuzk_last_error());
  Bytes wtns = fixture("bn128", "multiplier", "witness.wtns");
  Bytes vk = fixture("bn128", "multiplier", "vk.json"), publics = fixture("bn128", "multiplier", "public.json");
  enum { kMany = 48 };
  cuzk_witness ws[kMany];
  for (int i = 0; i < kMany; ++i) ws[i] = (cuzk_witness){wtns.data, wtns.size, NULL};

  /* A key evicted while its job runs: the job keeps it; new jobs do not find it. */
  cuzk_job job = 0;
  CHECK(cuzk_submit(p, "k", ws, 8, 0, 0, &job) == CUZK_OK, "%s", cuzk_last_error());
  CHECK(cuzk_key_evict(p, "k") == CUZK_OK, "%s", cuzk_last_error());
  EXPECT_FAIL(cuzk_submit(p, "k", ws, 1, 0, 0, &job), CUZK_ERROR_NOT_FOUND, "k");
  cuzk_result *r = NULL;
  CHECK(cuzk_await(p, job, -1, &r) == CUZK_OK, "%s", cuzk_last_error());
  check_result(r, 8, "evicted", (const char *)vk.data, (const char *)publics.data);
  cuzk_result_free(r);
  EXPECT_FAIL(cuzk_await(p, job, -1, &r), CUZK_ERROR_NOT_FOUND, "");

  /* Cancel: every witness is proved or cancelled, none lost. */
  CHECK(load_circuit_key(p, "bn128", "multiplier", "k") == CUZK_OK, "%s", cuzk_last_error());
  cuzk_job low = 0, high = 0;
  CHECK(cuzk_submit(p, "k", ws, kMany, -1, 0, &job) == CUZK_OK, "%s", cuzk_last_error());
  CHECK(cuzk_cancel(p, job) == CUZK_OK, "%s", cuzk_last_error());
  CHECK(cuzk_await(p, job, -1, &r) == CUZK_OK, "%s", cuzk_last_error());
  size_t proved = 0, cancelled = 0;
  for (size_t i = 0; i < cuzk_result_count(r); ++i) {
    cuzk_proof pr;
    cuzk_result_get(r, i, &pr);
    proved += pr.status == CUZK_OK;
    cancelled += pr.status == CUZK_ERROR_CANCELLED;
  }
  CHECK(cuzk_result_count(r) == kMany && proved + cancelled == kMany && cancelled > 0, "%zu proved, %zu cancelled",
        proved, cancelled);
  cuzk_result_free(r);

  /* Priority: a high job submitted behind a queued low one overtakes it.
     From the times each proof reports, counted from its job's submission
     (read on this clock just before and after each submit, so that the
     comparison holds whatever the submits took): some of the low job's
     witnesses started after the high job was done. In submission order
     (no priority) none would: all of them were queued before it. */
  const double low_submitted = now_seconds();
  CHECK(cuzk_submit(p, "k", ws, kMany, 0, 0, &low) == CUZK_OK, "%s", cuzk_last_error());
  CHECK(cuzk_submit(p, "k", ws, 1, 10, 0, &high) == CUZK_OK, "%s", cuzk_last_error());
  const double high_submitted_by = now_seconds();
  /* Await with a timeout: TIMEOUT while the job runs (48 proofs are not done
     a moment after their submit), the job going on. */
  r = NULL;
  EXPECT_FAIL(cuzk_await(p, low, 0, &r), CUZK_ERROR_TIMEOUT, "");
  CHECK(r == NULL, "a timed-out await handed over a result");
  CHECK(cuzk_await(p, high, -1, &r) == CUZK_OK, "%s", cuzk_last_error());
  check_result(r, 1, "high", (const char *)vk.data, (const char *)publics.data);
  cuzk_proof high_proof;
  CHECK(cuzk_result_get(r, 0, &high_proof) == CUZK_OK, "%s", cuzk_last_error());
  const double high_done_by = high_submitted_by + high_proof.times.total;
  cuzk_result_free(r);
  CHECK(cuzk_await(p, low, -1, &r) == CUZK_OK, "%s", cuzk_last_error());
  check_result(r, kMany, "low", (const char *)vk.data, (const char *)publics.data);
  size_t after_high = 0;
  for (size_t i = 0; i < cuzk_result_count(r); ++i) {
    cuzk_proof pr;
    if (cuzk_result_get(r, i, &pr) == CUZK_OK && low_submitted + pr.times.queue > high_done_by) ++after_high;
  }
  CHECK(after_high > 0, "none of the low job's %d witnesses started after the high job was done", kMany);
  cuzk_result_free(r);
  free(wtns.data), free(vk.data), free(publics.data);
  cuzk_prover_destroy(p);
}

enum { kThreads = 4, kProofsPerThread = 4 };

typedef struct {
  cuzk_prover *prover;
  Bytes wtns;
  cuzk_status codes[kProofsPerThread];
  cuzk_result *results[kProofsPerThread];
} ThreadWork;

static void *prove_in_thread(void *arg) {
  ThreadWork *w = arg;
  const cuzk_witness witness = {w->wtns.data, w->wtns.size, NULL};
  for (int i = 0; i < kProofsPerThread; ++i) w->codes[i] = cuzk_prove(w->prover, "k", &witness, &w->results[i]);
  return NULL;
}

static void mode_threads(void) {
  cuzk_prover *p = new_prover();
  CHECK(load_circuit_key(p, "bn128", "multiplier", "k") == CUZK_OK, "%s", cuzk_last_error());
  Bytes wtns = fixture("bn128", "multiplier", "witness.wtns");
  Bytes vk = fixture("bn128", "multiplier", "vk.json"), publics = fixture("bn128", "multiplier", "public.json");
  static ThreadWork work[kThreads];
  pthread_t threads[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    work[t].prover = p;
    work[t].wtns = wtns;
    CHECK(pthread_create(&threads[t], NULL, prove_in_thread, &work[t]) == 0, "thread %d", t);
  }
  for (int t = 0; t < kThreads; ++t) pthread_join(threads[t], NULL);
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kProofsPerThread; ++i) {
      CHECK(work[t].codes[i] == CUZK_OK, "thread %d proof %d: %s", t, i, cuzk_status_name(work[t].codes[i]));
      check_result(work[t].results[i], 1, "thread", (const char *)vk.data, (const char *)publics.data);
      cuzk_proof proof;
      if (cuzk_result_get(work[t].results[i], 0, &proof) == CUZK_OK && proof.status == CUZK_OK) {
        char name[4096];
        format_path(name, sizeof name, "%s/own-thread%d-%d-proof.json", out_dir, t, i);
        write_file(name, proof.proof_json);
        format_path(name, sizeof name, "%s/own-thread%d-%d-public.json", out_dir, t, i);
        write_file(name, proof.public_json);
      }
      cuzk_result_free(work[t].results[i]);
    }
  free(wtns.data), free(vk.data), free(publics.data);
  cuzk_prover_destroy(p);
}

/* The smallest fixture (linear): what leaks or not is the same for any key,
   and under valgrind each cycle costs about 75 times its native time
   (cycle_count). */
static void mode_cycles(void) {
  Bytes wtns = fixture("bn128", "linear", "witness.wtns");
  const cuzk_witness witness = {wtns.data, wtns.size, NULL};
  for (int i = 0, n = cycle_count(); i < n && !failures; ++i) {
    cuzk_prover *p = new_prover();
    CHECK(load_circuit_key(p, "bn128", "linear", "k") == CUZK_OK, "cycle %d: %s", i, cuzk_last_error());
    cuzk_result *r = NULL;
    CHECK(cuzk_prove(p, "k", &witness, &r) == CUZK_OK, "cycle %d: %s", i, cuzk_last_error());
    cuzk_result_free(r);
    cuzk_prover_destroy(p);
  }
  free(wtns.data);
}

int main(int argc, char **argv) {
  static const Mode modes[] = {
      {"prove", mode_prove},
      {"errors", mode_errors},
      {"jobs", mode_jobs},
      {"threads", mode_threads},
      {"cycles", mode_cycles},
  };
  return run_mode(argc, argv, modes, (int)(sizeof modes / sizeof modes[0]));
}
