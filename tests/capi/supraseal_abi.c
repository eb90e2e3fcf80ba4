/* libcuzk_supraseal as supraseal-c2's drop-in: the ABI declared here as the
 * Rust crate declares it (supra_seal c2/src/lib.rs and Curio's fork: the
 * #[repr(C)] structs, the extern "C" block), not from cuzk's header, and
 * filled the way lib.rs's generate_groth16_proof does (one set of density
 * bitmaps and popcounts for every circuit, a pointer set per circuit), from
 * what supraseal_fixture wrote.
 *
 *   capi_supraseal_abi prove DIR    every circuit in one call, then again
 *        through Curio's split phase, one call per circuit from threads of
 *        its own, and through clone and cached handles: the same proofs,
 *        written to DIR/proof-K.bin (384 bytes each) for snarkjs
 *   capi_supraseal_abi same DIR     as prove, the proofs compared with those
 *        DIR/proof-K.bin holds (the CPU's against the GPU's, same r and s)
 *   capi_supraseal_abi errors DIR   bad files, sizes, bitmaps, values and
 *        handles: an error code and message each, and no proof written
 *
 * Exit status 77 (ctest's skip) when CUZK_BACKEND=cuda finds no GPU. */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "supraseal_inputs.h"

/* ---- the crate's declarations ---- */
typedef struct { uint64_t l[4]; } Scalar;               /* blstrs::Scalar */
typedef struct { uint64_t l[6]; } Fp;
typedef struct { Fp x, y; } G1Affine;
typedef struct { Fp x[2], y[2]; } G2Affine;
typedef struct { G1Affine a; G2Affine b; G1Affine c; } Proof; /* bellperson Proof<Bls12>, #[repr(C)] */
typedef struct { const void* ptr; } SRS;                 /* #[repr(C)] pub struct SRS { ptr: *const c_void } */
typedef struct { int32_t code; char* str; } Error;       /* sppark::Error */
typedef struct {                                         /* #[repr(C)] pub struct Assignment<Scalar> */
  const size_t* a_aux_density; size_t a_aux_bit_len; size_t a_aux_popcount;
  const size_t* b_inp_density; size_t b_inp_bit_len; size_t b_inp_popcount;
  const size_t* b_aux_density; size_t b_aux_bit_len; size_t b_aux_popcount;
  const Scalar* a; const Scalar* b; const Scalar* c; size_t abc_size;
  const Scalar* inp_assignment_data; size_t inp_assignment_size;
  const Scalar* aux_assignment_data; size_t aux_assignment_size;
} Assignment;

Error create_SRS(SRS* ret, const char* srs_path, bool cache);
void evict_SRS(const SRS* by_ref);
void drop_SRS(const SRS* by_ref);
SRS clone_SRS(const SRS* by_ref);
Error generate_groth16_proofs_c(const void* provers, size_t num_circuits, const void* r_s, const void* s_s,
                                void* proofs, const SRS* srs);
/* Curio's additions */
void* create_gpu_mutex(void);
void destroy_gpu_mutex(void* mtx);
Error generate_groth16_proofs_start_c(const void* provers, size_t num_circuits, const void* r_s, const void* s_s,
                                      const SRS* srs, void* gpu_mtx, int32_t gpu_index, void** pending_out);
Error finalize_groth16_proof_c(void* handle, void* proofs);
void destroy_pending_proof(void* handle);
/* cuzk's additions (what a Rust caller declares beside the crate's) */
Error cuzk_supraseal_alloc_pinned(size_t bytes, void** out);
Error cuzk_supraseal_free_pinned(void* p);

_Static_assert(sizeof(Assignment) == 136 && sizeof(Proof) == 384 && sizeof(Error) == 16, "the crate's layouts");

/* ---- the fixture (supraseal_inputs.h) ---- */
static bool compare; /* "same": the proofs must equal those an earlier run wrote */

/* DensityTracker::get_total_density */
static size_t popcount(const size_t* words, size_t bits) {
  size_t n = 0;
  for (size_t i = 0; i < bits; ++i) n += (words[i / 64] >> (i % 64)) & 1;
  return n;
}

/* lib.rs generate_groth16_proof: circuit k's pointers, circuit 0's bitmaps. */
static Assignment assignment(size_t k) {
  const Scalar* v = (const Scalar*)circuit_values(k);
  Assignment a = {
      fx.a_aux, fx.n_aux, popcount(fx.a_aux, fx.n_aux),
      fx.b_inp, fx.n_in,  popcount(fx.b_inp, fx.n_in),
      fx.b_aux, fx.n_aux, popcount(fx.b_aux, fx.n_aux),
      v, v + fx.abc_size, v + 2 * fx.abc_size, fx.abc_size,
      v + 3 * fx.abc_size, fx.n_in,
      v + 3 * fx.abc_size + fx.n_in, fx.n_aux,
  };
  return a;
}

static void all_assignments(Assignment* out, Scalar* r, Scalar* s) {
  for (size_t k = 0; k < fx.circuits; ++k)
    out[k] = assignment(k), r[k] = *(const Scalar*)r_of(k), s[k] = *(const Scalar*)s_of(k);
}

static void ok(Error e, const char* what) { succeeded(e.code, e.str, what); }

static SRS open_srs(bool cache) {
  SRS srs = {NULL};
  ok(create_SRS(&srs, path_in("circuit.params"), cache), "create_SRS");
  check(srs.ptr != NULL, "create_SRS gave no handle");
  return srs;
}

/* ---- prove ---- */
typedef struct {
  const SRS* srs;
  void* mutex;
  size_t circuit;
  Proof proof;
  Error error;
} SplitCall;

/* Circuit k's a, b, c and assignment in buffers of the caller's own: from
 * cuzk_supraseal_alloc_pinned (page-locked where the service proves on GPUs)
 * or from malloc (pageable). */
typedef struct {
  Scalar* values;
  bool pinned;
} OwnCopy;

static OwnCopy own_copy(size_t k, bool pinned, Assignment* a) {
  const size_t n = 3 * fx.abc_size + fx.n_in + fx.n_aux, bytes = (n ? n : 1) * sizeof(Scalar);
  OwnCopy o = {NULL, pinned};
  if (pinned) ok(cuzk_supraseal_alloc_pinned(bytes, (void**)&o.values), "cuzk_supraseal_alloc_pinned");
  else o.values = malloc(bytes);
  check(o.values != NULL, "no memory for a circuit's copy");
  memcpy(o.values, circuit_values(k), n * sizeof(Scalar));
  *a = assignment(k);
  a->a = o.values, a->b = o.values + fx.abc_size, a->c = o.values + 2 * fx.abc_size;
  a->inp_assignment_data = o.values + 3 * fx.abc_size, a->aux_assignment_data = a->inp_assignment_data + fx.n_in;
  return o;
}

/* Scrambled and freed: what a caller may do once start has returned. */
static void scrap(OwnCopy o) {
  memset(o.values, 0xff, (3 * fx.abc_size + fx.n_in + fx.n_aux) * sizeof(Scalar));
  if (o.pinned) ok(cuzk_supraseal_free_pinned(o.values), "cuzk_supraseal_free_pinned");
  else free(o.values);
}

/* Curio's split phase from the caller's buffers, pinned for even circuits and
 * pageable for odd ones, overwritten and freed as soon as start returns: start
 * has read them all, and the proofs are the one call's. */
static void split_from_buffers_freed_after_start(const SRS* srs, const Proof* proofs) {
  for (size_t k = 0; k < fx.circuits; ++k) {
    Assignment a;
    const OwnCopy o = own_copy(k, k % 2 == 0, &a);
    void* pending = NULL;
    ok(generate_groth16_proofs_start_c(&a, 1, r_of(k), s_of(k), srs, NULL, -1, &pending), "start from own buffers");
    scrap(o);
    Proof proof;
    ok(finalize_groth16_proof_c(pending, &proof), "finalize after the buffers were freed");
    check(memcmp(&proof, &proofs[k], sizeof proof) == 0,
          k % 2 ? "a proof from pageable buffers freed after start differs"
                : "a proof from pinned buffers freed after start differs");
  }
}

static void* split_call(void* arg) {
  SplitCall* c = arg;
  const Assignment a = assignment(c->circuit);
  void* pending = NULL;
  c->error = generate_groth16_proofs_start_c(&a, 1, r_of(c->circuit), s_of(c->circuit), c->srs, c->mutex, -1, &pending);
  if (c->error.code == 0) c->error = finalize_groth16_proof_c(pending, &c->proof);
  return NULL;
}

static int prove(void) {
  const size_t n = fx.circuits;
  Assignment* provers = malloc(n * sizeof *provers);
  Scalar *r = malloc(n * sizeof *r), *s = malloc(n * sizeof *s);
  Proof *proofs = malloc(n * sizeof *proofs), *again = malloc(n * sizeof *again);
  check(provers && r && s && proofs && again, "out of memory");
  all_assignments(provers, r, s);

  SRS srs = open_srs(false);
  ok(generate_groth16_proofs_c(provers, n, r, s, proofs, &srs), "generate_groth16_proofs_c");
  for (size_t k = 0; k < n; ++k) {
    char name[64];
    snprintf(name, sizeof name, "proof-%zu.bin", k);
    FILE* f = fopen(path_in(name), compare ? "rb" : "wb");
    if (compare) {
      Proof before;
      check(f && fread(&before, sizeof before, 1, f) == 1 && fclose(f) == 0, "cannot read an earlier proof");
      check(memcmp(&before, &proofs[k], sizeof before) == 0, "a proof differs from the earlier run's");
    } else {
      check(f && fwrite(&proofs[k], sizeof(Proof), 1, f) == 1 && fclose(f) == 0, "cannot write a proof");
    }
  }

  /* Curio's split phase, all circuits in one call: the same proofs. */
  void* mutex = create_gpu_mutex();
  check(mutex != NULL, "create_gpu_mutex");
  void* pending = NULL;
  ok(generate_groth16_proofs_start_c(provers, n, r, s, &srs, mutex, -1, &pending), "start");
  check(pending != NULL, "start gave no pending proof");
  memset(again, 0, n * sizeof *again);
  ok(finalize_groth16_proof_c(pending, again), "finalize");
  check(memcmp(proofs, again, n * sizeof *proofs) == 0, "the split phase's proofs differ from the one call's");
  /* A pending proof abandoned. */
  ok(generate_groth16_proofs_start_c(provers, n, r, s, &srs, NULL, -1, &pending), "start (abandoned)");
  destroy_pending_proof(pending);
  split_from_buffers_freed_after_start(&srs, proofs);

  /* One call per circuit, all at once from threads of their own, on a clone
   * of the handle whose original is dropped first. */
  SRS clone = clone_SRS(&srs);
  check(clone.ptr == srs.ptr, "clone_SRS gave another SRS");
  drop_SRS(&srs);
  SplitCall* calls = calloc(n, sizeof *calls);
  pthread_t* threads = malloc(n * sizeof *threads);
  check(calls && threads, "out of memory");
  for (size_t k = 0; k < n; ++k) {
    calls[k] = (SplitCall){.srs = &clone, .mutex = mutex, .circuit = k};
    check(pthread_create(&threads[k], NULL, split_call, &calls[k]) == 0, "pthread_create");
  }
  for (size_t k = 0; k < n; ++k) {
    pthread_join(threads[k], NULL);
    ok(calls[k].error, "a thread's split call");
    check(memcmp(&calls[k].proof, &proofs[k], sizeof(Proof)) == 0, "a thread's proof differs");
  }
  drop_SRS(&clone);
  destroy_gpu_mutex(mutex);

  /* Cached handles: one SRS per path, kept by the cache until evicted. */
  SRS c1 = open_srs(true), c2 = open_srs(true);
  check(c1.ptr == c2.ptr, "two cached loads of one path gave two SRSs");
  evict_SRS(&c1);
  ok(generate_groth16_proofs_c(provers, 1, r, s, again, &c2), "proving with an evicted cached SRS");
  check(memcmp(again, proofs, sizeof(Proof)) == 0, "the cached SRS's proof differs");
  drop_SRS(&c1), drop_SRS(&c2);

  printf("supraseal_abi: %zu circuits proved in one call, through the split phase (also from pinned and pageable "
         "buffers freed after start), from %zu threads and through clone and cached handles: the same proofs\n",
         n, n);
  free(calls), free(threads), free(provers), free(r), free(s), free(proofs), free(again);
  return 0;
}

/* ---- errors ---- */
/* A call that must fail with a message (holding `needle`, when given) and
 * leave the proofs as they were. */
static void expect_error_saying(Error e, const Proof* proofs, size_t n, const char* what, const char* needle) {
  expect_refusal(e.code, e.str, proofs, n * sizeof(Proof), what, needle);
}

static void expect_error(Error e, const Proof* proofs, size_t n, const char* what) {
  expect_error_saying(e, proofs, n, what, NULL);
}

static void bad_files(void) {
  FILE* f = fopen(path_in("circuit.params"), "rb");
  check(f != NULL, "cannot open circuit.params");
  fseek(f, 0, SEEK_END);
  const long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char* bytes = malloc((size_t)size);
  check(bytes && fread(bytes, 1, (size_t)size, f) == (size_t)size, "cannot read circuit.params");
  fclose(f);
  const struct {
    const char* name;
    size_t bytes;
  } files[] = {{"truncated.params", (size_t)size / 2}, {"empty.params", 0}};
  for (size_t i = 0; i < sizeof files / sizeof *files; ++i) {
    write_file(files[i].name, bytes, files[i].bytes);
    SRS srs = {NULL};
    expect_error(create_SRS(&srs, path_in(files[i].name), false), NULL, 0, files[i].name);
    check(srs.ptr == NULL, "a failed create_SRS left a handle");
    drop_SRS(&srs); /* what Rust does with the NULL handle */
  }
  srand(7);
  for (long i = 0; i < size; ++i) bytes[i] = (unsigned char)rand();
  write_file("random.params", bytes, (size_t)size);
  SRS srs = {NULL};
  expect_error(create_SRS(&srs, path_in("random.params"), false), NULL, 0, "random bytes");
  expect_error(create_SRS(&srs, path_in("missing.params"), false), NULL, 0, "a missing file");
  expect_error(create_SRS(NULL, path_in("circuit.params"), false), NULL, 0, "a null ret");
  free(bytes);
}

static int errors(void) {
  bad_files();
  SRS srs = open_srs(false);
  ok(generate_groth16_proofs_c(NULL, 0, NULL, NULL, NULL, &srs), "no circuits"); /* exits 77 for cuda without a GPU */
  const size_t n = fx.circuits;
  Assignment* p = malloc(n * sizeof *p);
  Scalar *r = malloc(n * sizeof *r), *s = malloc(n * sizeof *s);
  Proof* proofs = malloc(n * sizeof *proofs);
  check(p && r && s && proofs, "out of memory");
  const size_t words = (fx.n_aux + 63) / 64;
  size_t* bits = malloc((words ? words : 1) * sizeof(size_t));
  Scalar* aux = malloc((fx.n_aux ? fx.n_aux : 1) * sizeof(Scalar));
  check(bits && aux, "out of memory");

  /* Each case: the good inputs with one thing wrong, in circuit n - 1. */
  enum { kAuxSize, kAbcSize, kPopcount, kBitmap, kBitLen, kNullA, kBigR, kUnsatisfied, kNullSrs, kBigA, kBigAux, kCases };
  const char* what[kCases] = {"aux_assignment_size one short", "abc_size past the domain", "a_aux_popcount that lies",
                              "a B bitmap with a bit cleared", "b_inp_bit_len one long", "a null a",
                              "r not below the modulus", "an unsatisfied witness", "a null SRS",
                              "an a value not below the modulus", "an aux value not below the modulus"};
  const char* saying[kCases] = {[kBigA] = "a value 1 is not below the modulus",
                                [kBigAux] = "private value 0 is not below the modulus"};
  Scalar* abc = malloc((fx.abc_size ? 3 * fx.abc_size : 1) * sizeof(Scalar));
  check(abc != NULL, "out of memory");
  for (int c = 0; c < kCases; ++c) {
    all_assignments(p, r, s);
    Assignment* last = &p[n - 1];
    const SRS* handle = &srs;
    switch (c) {
      case kAuxSize: last->aux_assignment_size -= 1; break;
      case kAbcSize: last->abc_size = 1u << 30; break;
      case kPopcount: last->a_aux_popcount += 1; break;
      case kBitmap:
        memcpy(bits, fx.b_aux, words * sizeof(size_t));
        for (size_t i = 0; i < fx.n_aux; ++i)
          if (bits[i / 64] >> (i % 64) & 1) {
            bits[i / 64] &= ~((size_t)1 << (i % 64));
            break;
          }
        last->b_aux_density = bits, last->b_aux_popcount -= 1;
        break;
      case kBitLen: last->b_inp_bit_len += 1; break;
      case kNullA: last->a = NULL; break;
      case kBigR: memset(&r[n - 1], 0xff, sizeof(Scalar)); break;
      case kUnsatisfied:
        memcpy(aux, last->aux_assignment_data, fx.n_aux * sizeof(Scalar));
        aux[fx.n_aux - 1].l[0] ^= 1;
        last->aux_assignment_data = aux;
        break;
      case kNullSrs: handle = NULL; break;
      case kBigA:
        memcpy(abc, last->a, 3 * fx.abc_size * sizeof(Scalar));
        memset(&abc[1], 0xff, sizeof(Scalar));
        last->a = abc, last->b = abc + fx.abc_size, last->c = abc + 2 * fx.abc_size;
        break;
      case kBigAux:
        memcpy(aux, last->aux_assignment_data, fx.n_aux * sizeof(Scalar));
        memset(&aux[0], 0xff, sizeof(Scalar));
        last->aux_assignment_data = aux;
        break;
    }
    memset(proofs, 0xab, n * sizeof *proofs);
    expect_error_saying(generate_groth16_proofs_c(p, n, r, s, proofs, handle), proofs, n, what[c], saying[c]);
    if (c == kBigA || c == kBigAux) {
      /* Through the split phase: start has read the values, finalize fails. */
      void* started = NULL;
      ok(generate_groth16_proofs_start_c(p, n, r, s, &srs, NULL, -1, &started), "start with a bad value");
      expect_error_saying(finalize_groth16_proof_c(started, proofs), proofs, n, what[c], saying[c]);
    }
  }
  void* none = NULL;
  expect_error(cuzk_supraseal_alloc_pinned(0, &none), NULL, 0, "a pinned buffer of 0 bytes");
  expect_error(cuzk_supraseal_free_pinned(aux), NULL, 0, "freeing what alloc_pinned did not give");
  all_assignments(p, r, s);
  void* pending = (void*)1;
  memset(proofs, 0xab, n * sizeof *proofs);
  expect_error(generate_groth16_proofs_start_c(p, n, r, s, &srs, NULL, 1 << 20, &pending), NULL, 0,
               "gpu_index past the GPUs");
  if (pending != NULL) {
    fprintf(stderr, "supraseal_abi: a failed start left a pending proof\n");
    ++failures;
  }
  expect_error(finalize_groth16_proof_c(NULL, proofs), proofs, n, "finalize of no handle");
  drop_SRS(&srs);
  free(p), free(r), free(s), free(proofs), free(bits), free(aux), free(abc);
  if (failures) fprintf(stderr, "supraseal_abi: %d error cases failed\n", failures);
  else printf("supraseal_abi: every bad input refused with a message, no proof written\n");
  return failures ? 1 : 0;
}

int main(int argc, char** argv) {
  if (argc != 3 || (strcmp(argv[1], "prove") && strcmp(argv[1], "same") && strcmp(argv[1], "errors"))) {
    fprintf(stderr, "usage: capi_supraseal_abi prove|same|errors DIR\n");
    return 2;
  }
  compare = strcmp(argv[1], "same") == 0;
  load_fixture("supraseal_abi", argv[2]);
  return strcmp(argv[1], "errors") == 0 ? errors() : prove();
}
