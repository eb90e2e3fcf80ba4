/*
 * libcuzk as a drop-in for rapidsnark: a C11 program that uses only the
 * functions of rapidsnark's prover.h (through include/cuzk/cuzk.h), run by
 * ctest as
 *   rapidsnark_compat MODE FIXTURES OUT
 * FIXTURES is tests/fixtures; OUT is where proofs are written for the
 * follow-up `cuzk verify` and `snarkjs groth16 verify` tests. MODE:
 *   prove    both curves, from a zkey buffer and from a zkey file, with the
 *            prover object and the one-shot functions; public signals equal
 *            the fixture's; buffers of the sizes the size functions give
 *            suffice; a circuit without public signals; writes
 *            OUT/<curve>-<how>-{proof,public}.json and
 *            OUT/<curve>-nopublic-{proof,public}.json
 *   buffers  short buffers, error_msg truncation, NULL arguments
 *   errors   wrong witness length, wrong curve (also with a key file named in
 *            rapidsnark's words), truncated and random keys and witnesses,
 *            an unsatisfied witness: codes, messages, and nothing written
 *   threads  4 threads proving with one prover at once; writes
 *            OUT/thread<t>-<i>-{proof,public}.json
 *   cycles   100 create/prove/destroy cycles ($CUZK_TEST_CYCLES; 20 under
 *            valgrind)
 * Prints each failed check and exits 1 if any failed.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_support.h"
#include "prover.h" /* rapidsnark's header name, as its users include it */

enum { kBig = 1 << 16 };
static char proof[kBig], publics[kBig], message[1024];

/* Buffers filled with a pattern, to tell whether anything was written. */
static void poison(void) {
  memset(proof, 'P', sizeof proof);
  memset(publics, 'Q', sizeof publics);
}
static int untouched(void) {
  for (size_t i = 0; i < sizeof proof; ++i)
    if (proof[i] != 'P' || publics[i] != 'Q') return 0;
  return 1;
}

static void save(const char *name) {
  char path[4096];
  format_path(path, sizeof path, "%s/%s-proof.json", out_dir, name);
  write_file(path, proof);
  format_path(path, sizeof path, "%s/%s-public.json", out_dir, name);
  write_file(path, publics);
}

/* After PROVER_OK: the outputs are the NUL-terminated texts of the sizes
   reported, the public signals are the fixture's, the proof is snarkjs's. */
static void check_proved(int code, unsigned long long proof_size, unsigned long long public_size, const char *curve,
                         const char *what) {
  CHECK(code == PROVER_OK, "%s %s: code %d: %s", curve, what, code, message);
  if (code != PROVER_OK) return;
  CHECK(strlen(proof) == proof_size, "%s %s: proof size %llu, text %zu", curve, what, proof_size, strlen(proof));
  CHECK(strlen(publics) == public_size, "%s %s: public size %llu", curve, what, public_size);
  Bytes expected = fixture(curve, "multiplier", "public.json");
  CHECK(same_json(publics, (const char *)expected.data), "%s %s: public signals %s", curve, what, publics);
  free(expected.data);
  CHECK(strstr(proof, "\"pi_a\"") && strstr(proof, "\"protocol\": \"groth16\""), "%s %s: proof %s", curve, what,
        proof);
  char curve_key[64];
  snprintf(curve_key, sizeof curve_key, "\"curve\": \"%s\"", curve);
  CHECK(strstr(proof, curve_key) != NULL, "%s %s: proof %s", curve, what, proof);
}

/* check_proved, then the outputs saved as OUT/<curve>-<how>-{proof,public}.json. */
static void check_and_save(int code, unsigned long long proof_size, unsigned long long public_size, const char *curve,
                           const char *what, const char *how) {
  check_proved(code, proof_size, public_size, curve, what);
  char name[256];
  snprintf(name, sizeof name, "%s-%s", curve, how);
  save(name);
}

/* A prover object proves wtns into buffers of the sizes given (checked and
   saved as <curve>-<how>), then is destroyed. */
static void prove_and_destroy(void *prover, Bytes wtns, unsigned long long proof_size, unsigned long long public_size,
                              const char *curve, const char *how) {
  const int code = groth16_prover_prove(prover, wtns.data, wtns.size, proof, &proof_size, publics, &public_size,
                                        message, sizeof message);
  check_and_save(code, proof_size, public_size, curve, how, how);
  groth16_prover_destroy(prover);
}

static void prove_curve(const char *curve) {
  char zkey_path[4096];
  fixture_path(zkey_path, sizeof zkey_path, curve, "multiplier", "circuit.zkey");
  Bytes zkey = read_file(zkey_path), wtns = fixture(curve, "multiplier", "witness.wtns");

  /* Buffers exactly as large as the size functions say suffice. */
  unsigned long long proof_bound = 0, public_bound = 0, public_bound_file = 0;
  groth16_proof_size(&proof_bound);
  CHECK(groth16_public_size_for_zkey_buf(zkey.data, zkey.size, &public_bound, message, sizeof message) == PROVER_OK,
        "%s", message);
  CHECK(groth16_public_size_for_zkey_file(zkey_path, &public_bound_file, message, sizeof message) == PROVER_OK, "%s",
        message);
  CHECK(public_bound == public_bound_file, "%llu != %llu", public_bound, public_bound_file);

  /* A prover from the zkey buffer. */
  void *prover = NULL;
  int code = groth16_prover_create(&prover, zkey.data, zkey.size, message, sizeof message);
  CHECK(code == PROVER_OK && prover != NULL, "%s create: %d %s", curve, code, message);
  prove_and_destroy(prover, wtns, proof_bound, public_bound, curve, "buffer");

  /* A prover from the zkey file. */
  prover = NULL;
  code = groth16_prover_create_zkey_file(&prover, zkey_path, message, sizeof message);
  CHECK(code == PROVER_OK && prover != NULL, "%s create_zkey_file: %d %s", curve, code, message);
  prove_and_destroy(prover, wtns, proof_bound, public_bound, curve, "file");

  /* The one-shot functions. */
  unsigned long long proof_size = kBig, public_size = kBig;
  code = groth16_prover(zkey.data, zkey.size, wtns.data, wtns.size, proof, &proof_size, publics, &public_size, message,
                        sizeof message);
  check_and_save(code, proof_size, public_size, curve, "groth16_prover", "oneshot-buffer");
  proof_size = public_size = kBig;
  code = groth16_prover_zkey_file(zkey_path, wtns.data, wtns.size, proof, &proof_size, publics, &public_size, message,
                                  sizeof message);
  check_and_save(code, proof_size, public_size, curve, "groth16_prover_zkey_file", "oneshot-file");
  free(zkey.data);
  free(wtns.data);
}

/* A circuit without public signals: "[]" fits the size the key gives. */
static void prove_without_publics(const char *curve) {
  char zkey_path[4096];
  fixture_path(zkey_path, sizeof zkey_path, curve, "nopublic", "circuit.zkey");
  Bytes wtns = fixture(curve, "nopublic", "witness.wtns");
  unsigned long long proof_size = 0, public_size = 0;
  groth16_proof_size(&proof_size);
  CHECK(groth16_public_size_for_zkey_file(zkey_path, &public_size, message, sizeof message) == PROVER_OK, "%s",
        message);
  CHECK(public_size == 3, "%s nopublic: public size %llu", curve, public_size);
  const int code = groth16_prover_zkey_file(zkey_path, wtns.data, wtns.size, proof, &proof_size, publics,
                                            &public_size, message, sizeof message);
  CHECK(code == PROVER_OK, "%s nopublic: %d %s", curve, code, message);
  CHECK(strcmp(publics, "[]") == 0 && public_size == 2, "%s nopublic: %s", curve, publics);
  char name[64];
  snprintf(name, sizeof name, "%s-nopublic", curve);
  if (code == PROVER_OK) save(name);
  free(wtns.data);
}

static void mode_prove(void) {
  prove_curve("bn128");
  prove_curve("bls12381");
  prove_without_publics("bn128");
  prove_without_publics("bls12381");
}

static void mode_buffers(void) {
  Bytes zkey = fixture("bn128", "multiplier", "circuit.zkey"), wtns = fixture("bn128", "multiplier", "witness.wtns");
  void *prover = NULL;
  CHECK(groth16_prover_create(&prover, zkey.data, zkey.size, message, sizeof message) == PROVER_OK, "%s", message);

  /* The sizes a proof needs, NUL included. The public signals' are fixed;
     the proof's varies a little with its randomness, within the bound. */
  unsigned long long proof_bound = 0, public_bound = 0;
  groth16_proof_size(&proof_bound);
  CHECK(groth16_public_size_for_zkey_buf(zkey.data, zkey.size, &public_bound, message, sizeof message) == PROVER_OK,
        "%s", message);
  unsigned long long proof_size = kBig, public_size = kBig;
  int code = groth16_prover_prove(prover, wtns.data, wtns.size, proof, &proof_size, publics, &public_size, message,
                                  sizeof message);
  CHECK(code == PROVER_OK, "%d %s", code, message);
  const unsigned long long public_needed = public_size + 1;

  /* A buffer too short: both sizes set to what that proof needs, nothing written. */
  const unsigned long long shorts[][2] = {{kBig, public_needed - 1}, {100, kBig}, {10, 10}, {0, 0}};
  for (size_t i = 0; i < sizeof shorts / sizeof shorts[0]; ++i) {
    poison();
    message[0] = 0;
    proof_size = shorts[i][0];
    public_size = shorts[i][1];
    code = groth16_prover_prove(prover, wtns.data, wtns.size, proof, &proof_size, publics, &public_size, message,
                                sizeof message);
    CHECK(code == PROVER_ERROR_SHORT_BUFFER, "short %zu: code %d %s", i, code, message);
    CHECK(public_size == public_needed && proof_size > 500 && proof_size <= proof_bound &&
              public_size <= public_bound,
          "short %zu: sizes %llu %llu, bounds %llu %llu", i, proof_size, public_size, proof_bound, public_bound);
    CHECK(message[0] != 0, "short %zu: no message", i);
    CHECK(untouched(), "short %zu: a buffer was written", i);
  }
  /* The one-shot function answers the same. */
  poison();
  proof_size = public_size = 1;
  code = groth16_prover(zkey.data, zkey.size, wtns.data, wtns.size, proof, &proof_size, publics, &public_size, message,
                        sizeof message);
  CHECK(code == PROVER_ERROR_SHORT_BUFFER && public_size == public_needed && proof_size <= proof_bound && untouched(),
        "one-shot short: %d %llu %llu", code, proof_size, public_size);

  /* Exactly the size needed suffices, and the bounds do. */
  for (int i = 0; i < 4; ++i) {
    proof_size = i % 2 ? proof_bound : kBig;
    public_size = i % 2 ? public_bound : public_needed;
    code = groth16_prover_prove(prover, wtns.data, wtns.size, proof, &proof_size, publics, &public_size, message,
                                sizeof message);
    CHECK(code == PROVER_OK && public_size == public_needed - 1 && strlen(proof) == proof_size, "exact %d: %d %s", i,
          code, message);
  }

  /* error_msg is truncated to its size, NUL included; NULL is allowed. */
  char small[8];
  memset(small, 'X', sizeof small);
  proof_size = public_size = 1;
  code = groth16_prover_prove(prover, wtns.data, wtns.size, proof, &proof_size, publics, &public_size, small,
                              sizeof small);
  CHECK(code == PROVER_ERROR_SHORT_BUFFER && small[7] == 0 && strlen(small) == 7, "truncated message: %d", code);
  proof_size = public_size = 1;
  code = groth16_prover_prove(prover, wtns.data, wtns.size, proof, &proof_size, publics, &public_size, NULL, 0);
  CHECK(code == PROVER_ERROR_SHORT_BUFFER, "no message buffer: %d", code);

  /* NULL arguments: PROVER_ERROR with a message. */
  unsigned long long size = kBig, size2 = kBig;
  void *none = NULL;
#define NULL_CASE(call)                                                  \
  do {                                                                   \
    message[0] = 0;                                                      \
    poison();                                                            \
    const int c = (call);                                                \
    CHECK(c == PROVER_ERROR && message[0] != 0 && untouched(), "%s: %d %s", #call, c, message); \
  } while (0)
  NULL_CASE(groth16_prover_prove(NULL, wtns.data, wtns.size, proof, &size, publics, &size2, message, sizeof message));
  NULL_CASE(groth16_prover_prove(prover, NULL, wtns.size, proof, &size, publics, &size2, message, sizeof message));
  NULL_CASE(groth16_prover_prove(prover, wtns.data, wtns.size, NULL, &size, publics, &size2, message, sizeof message));
  NULL_CASE(groth16_prover_prove(prover, wtns.data, wtns.size, proof, NULL, publics, &size2, message, sizeof message));
  NULL_CASE(groth16_prover_prove(prover, wtns.data, wtns.size, proof, &size, NULL, &size2, message, sizeof message));
  NULL_CASE(groth16_prover_prove(prover, wtns.data, wtns.size, proof, &size, publics, NULL, message, sizeof message));
  NULL_CASE(groth16_prover_create(NULL, zkey.data, zkey.size, message, sizeof message));
  NULL_CASE(groth16_prover_create(&none, NULL, zkey.size, message, sizeof message));
  NULL_CASE(groth16_prover_create_zkey_file(&none, NULL, message, sizeof message));
  NULL_CASE(groth16_prover_create_zkey_file(NULL, "x.zkey", message, sizeof message));
  NULL_CASE(groth16_prover(NULL, zkey.size, wtns.data, wtns.size, proof, &size, publics, &size2, message,
                           sizeof message));
  NULL_CASE(groth16_prover_zkey_file(NULL, wtns.data, wtns.size, proof, &size, publics, &size2, message,
                                     sizeof message));
  NULL_CASE(groth16_public_size_for_zkey_buf(NULL, zkey.size, &size, message, sizeof message));
  NULL_CASE(groth16_public_size_for_zkey_buf(zkey.data, zkey.size, NULL, message, sizeof message));
  NULL_CASE(groth16_public_size_for_zkey_file(NULL, &size, message, sizeof message));
#undef NULL_CASE
  CHECK(none == NULL, "a failed create set the prover object");
  groth16_proof_size(NULL);
  groth16_prover_destroy(NULL);

  groth16_prover_destroy(prover);
  free(zkey.data);
  free(wtns.data);
}

/* Proves `wtns` with `prover`: the code must be `want`, with a message and
   nothing written; `contains`, when not NULL, must be in the message. */
static void expect_prove_failure(void *prover, Bytes wtns, int want, const char *contains, const char *what) {
  poison();
  message[0] = 0;
  unsigned long long proof_size = kBig, public_size = kBig;
  const int code = groth16_prover_prove(prover, wtns.data, wtns.size, proof, &proof_size, publics, &public_size,
                                        message, sizeof message);
  CHECK(code == want, "%s: code %d, want %d: %s", what, code, want, message);
  CHECK(message[0] != 0, "%s: no message", what);
  CHECK(!contains || strstr(message, contains), "%s: message %s", what, message);
  CHECK(untouched(), "%s: a buffer was written", what);
}

static void expect_create_failure(Bytes zkey, const char *what) {
  void *prover = NULL;
  message[0] = 0;
  const int code = groth16_prover_create(&prover, zkey.data, zkey.size, message, sizeof message);
  CHECK(code == PROVER_ERROR && prover == NULL && message[0] != 0, "%s: code %d: %s", what, code, message);
  unsigned long long size = 0;
  message[0] = 0;
  CHECK(groth16_public_size_for_zkey_buf(zkey.data, zkey.size, &size, message, sizeof message) == PROVER_ERROR &&
            message[0] != 0,
        "%s: public size %llu", what, size);
  Bytes wtns = fixture("bn128", "multiplier", "witness.wtns");
  poison();
  unsigned long long proof_size = kBig, public_size = kBig;
  message[0] = 0;
  const int one_shot = groth16_prover(zkey.data, zkey.size, wtns.data, wtns.size, proof, &proof_size, publics,
                                      &public_size, message, sizeof message);
  CHECK(one_shot == PROVER_ERROR && message[0] != 0 && untouched(), "%s: one-shot %d: %s", what, one_shot, message);
  free(wtns.data);
}

/* The code is the failure's type, never its words: with a key file whose
   name holds rapidsnark's sentence, a witness of the other curve, whose
   message names that file, is still PROVER_ERROR. */
static void words_are_not_the_code(const char *curve, Bytes zkey, Bytes wrong_curve) {
  char named[4096];
  format_path(named, sizeof named, "%s/Invalid witness length. Circuit: %s.zkey", out_dir, curve);
  FILE *f = fopen(named, "wb");
  CHECK(f && fwrite(zkey.data, 1, zkey.size, f) == zkey.size && fclose(f) == 0, "cannot write %s", named);
  void *prover = NULL;
  CHECK(groth16_prover_create_zkey_file(&prover, named, message, sizeof message) == PROVER_OK, "%s", message);
  expect_prove_failure(prover, wrong_curve, PROVER_ERROR, "Invalid witness length. Circuit: ",
                       "wrong curve, the key named in rapidsnark's words");
  groth16_prover_destroy(prover);
}

static void errors_for(const char *curve, const char *other_curve) {
  Bytes zkey = fixture(curve, "multiplier", "circuit.zkey"), wtns = fixture(curve, "multiplier", "witness.wtns");
  void *prover = NULL;
  CHECK(groth16_prover_create(&prover, zkey.data, zkey.size, message, sizeof message) == PROVER_OK, "%s", message);

  /* Another circuit's witness of the same curve: 83 signals for 254. */
  Bytes other = fixture(curve, "linear", "witness.wtns");
  expect_prove_failure(prover, other, PROVER_INVALID_WITNESS_LENGTH, "Invalid witness length", "wrong length");
  free(other.data);
  /* The same circuit's witness on the other curve (254 signals too). */
  Bytes wrong_curve = fixture(other_curve, "multiplier", "witness.wtns");
  expect_prove_failure(prover, wrong_curve, PROVER_ERROR, NULL, "wrong curve");
  words_are_not_the_code(curve, zkey, wrong_curve);
  free(wrong_curve.data);
  /* A truncated witness, random bytes, an empty one. */
  Bytes cut = {wtns.data, wtns.size / 2};
  expect_prove_failure(prover, cut, PROVER_ERROR, NULL, "truncated witness");
  Bytes noise = random_bytes(wtns.size, 7);
  expect_prove_failure(prover, noise, PROVER_ERROR, NULL, "random witness");
  memcpy(noise.data, "wtns", 4);
  expect_prove_failure(prover, noise, PROVER_ERROR, NULL, "random witness with the magic");
  free(noise.data);
  Bytes empty = {wtns.data, 0};
  expect_prove_failure(prover, empty, PROVER_ERROR, NULL, "empty witness");
  /* A witness that does not satisfy the circuit. */
  Bytes bad = unsatisfied_copy(wtns);
  expect_prove_failure(prover, bad, PROVER_ERROR, NULL, "unsatisfied witness");
  free(bad.data);
  /* The prover still proves after all that. */
  unsigned long long proof_size = kBig, public_size = kBig;
  const int code = groth16_prover_prove(prover, wtns.data, wtns.size, proof, &proof_size, publics, &public_size,
                                        message, sizeof message);
  CHECK(code == PROVER_OK, "after the failures: %d %s", code, message);
  groth16_prover_destroy(prover);

  /* Keys: truncated, random bytes, a witness given as the key. */
  Bytes cut_key = {zkey.data, zkey.size / 2};
  expect_create_failure(cut_key, "truncated zkey");
  Bytes header_only = {zkey.data, 64};
  expect_create_failure(header_only, "zkey cut in its header");
  Bytes noise_key = random_bytes(4096, 11);
  expect_create_failure(noise_key, "random zkey");
  free(noise_key.data);
  expect_create_failure(wtns, "a witness as the zkey");

  free(zkey.data);
  free(wtns.data);
}

static void mode_errors(void) {
  errors_for("bn128", "bls12381");
  errors_for("bls12381", "bn128");

  /* No such key file. */
  void *prover = NULL;
  char missing[4096];
  format_path(missing, sizeof missing, "%s/no-such.zkey", out_dir);
  message[0] = 0;
  CHECK(groth16_prover_create_zkey_file(&prover, missing, message, sizeof message) == PROVER_ERROR &&
            prover == NULL && message[0] != 0,
        "missing zkey: %s", message);
  unsigned long long size = 0;
  message[0] = 0;
  CHECK(groth16_public_size_for_zkey_file(missing, &size, message, sizeof message) == PROVER_ERROR && message[0] != 0,
        "missing zkey: public size");
}

enum { kThreads = 4, kProofsPerThread = 2 };

typedef struct {
  void *prover;
  Bytes wtns;
  int index;
  int codes[kProofsPerThread];
  char proof[kProofsPerThread][4096], publics[kProofsPerThread][4096], message[kProofsPerThread][512];
} ThreadWork;

static void *prove_in_thread(void *arg) {
  ThreadWork *w = arg;
  for (int i = 0; i < kProofsPerThread; ++i) {
    unsigned long long proof_size = sizeof w->proof[i], public_size = sizeof w->publics[i];
    w->codes[i] = groth16_prover_prove(w->prover, w->wtns.data, w->wtns.size, w->proof[i], &proof_size, w->publics[i],
                                       &public_size, w->message[i], sizeof w->message[i]);
  }
  return NULL;
}

static void mode_threads(void) {
  Bytes zkey = fixture("bn128", "multiplier", "circuit.zkey"), wtns = fixture("bn128", "multiplier", "witness.wtns");
  void *prover = NULL;
  CHECK(groth16_prover_create(&prover, zkey.data, zkey.size, message, sizeof message) == PROVER_OK, "%s", message);
  static ThreadWork work[kThreads];
  pthread_t threads[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    work[t].prover = prover;
    work[t].wtns = wtns;
    work[t].index = t;
    CHECK(pthread_create(&threads[t], NULL, prove_in_thread, &work[t]) == 0, "thread %d", t);
  }
  for (int t = 0; t < kThreads; ++t) pthread_join(threads[t], NULL);
  Bytes expected = fixture("bn128", "multiplier", "public.json");
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kProofsPerThread; ++i) {
      CHECK(work[t].codes[i] == PROVER_OK, "thread %d proof %d: %d %s", t, i, work[t].codes[i], work[t].message[i]);
      CHECK(same_json(work[t].publics[i], (const char *)expected.data), "thread %d proof %d: %s", t, i,
            work[t].publics[i]);
      char name[64];
      snprintf(name, sizeof name, "thread%d-%d", t, i);
      strcpy(proof, work[t].proof[i]);
      strcpy(publics, work[t].publics[i]);
      save(name);
    }
  groth16_prover_destroy(prover);
  free(expected.data);
  free(zkey.data);
  free(wtns.data);
}

/* The smallest fixture (linear): what leaks or not is the same for any key,
   and under valgrind each cycle costs about 75 times its native time
   (cycle_count). */
static void mode_cycles(void) {
  Bytes zkey = fixture("bn128", "linear", "circuit.zkey"), wtns = fixture("bn128", "linear", "witness.wtns");
  for (int i = 0, n = cycle_count(); i < n; ++i) {
    void *prover = NULL;
    int code = groth16_prover_create(&prover, zkey.data, zkey.size, message, sizeof message);
    CHECK(code == PROVER_OK, "cycle %d create: %s", i, message);
    if (code != PROVER_OK) break;
    unsigned long long proof_size = kBig, public_size = kBig;
    code = groth16_prover_prove(prover, wtns.data, wtns.size, proof, &proof_size, publics, &public_size, message,
                                sizeof message);
    CHECK(code == PROVER_OK, "cycle %d prove: %s", i, message);
    groth16_prover_destroy(prover);
  }
  free(zkey.data);
  free(wtns.data);
}

int main(int argc, char **argv) {
  static const Mode modes[] = {
      {"prove", mode_prove},
      {"buffers", mode_buffers},
      {"errors", mode_errors},
      {"threads", mode_threads},
      {"cycles", mode_cycles},
  };
  return run_mode(argc, argv, modes, (int)(sizeof modes / sizeof modes[0]));
}
