/* cuzk's witness-only extension of the supraseal ABI (cuzk_supraseal_* in
 * cuzk/supraseal.h), from C, on what supraseal_fixture wrote into DIR.
 *
 *   capi_supraseal_witness prove DIR   the circuit registered from its CSR
 *        arrays and from its .r1cs, every circuit proved from its assignment
 *        alone, in one call and through the split phase (also from pinned
 *        and pageable buffers freed as soon as start returns): each proof
 *        equal, byte for byte, to DIR/proof-K.bin, which supraseal_abi wrote
 *        from the same witness's a, b, c with the same r and s (and snarkjs
 *        verified); on the GPU (CUZK_BACKEND=cuda), a, b, c evaluated there
 *   capi_supraseal_witness errors DIR OTHER_CURVE_R1CS   bad matrices, files
 *        and witnesses: an error code and a message each, no proof written
 *        (a value not below r through the batch call and through
 *        start+finalize, where it fails)
 *
 * Exit status 77 (ctest's skip) when CUZK_BACKEND=cuda finds no GPU. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/supraseal.h"
#include "supraseal_inputs.h"

/* csr.bin: A, B and C of the circuit's own constraints. */
static uint64_t rows;
static cuzk_supraseal_csr csr[3];

static void read_exactly(FILE* f, void* p, size_t bytes) { check(fread(p, 1, bytes, f) == bytes, "csr.bin is short"); }

static void load_csr(void) {
  FILE* f = fopen(path_in("csr.bin"), "rb");
  check(f != NULL, "cannot open csr.bin");
  read_exactly(f, &rows, 8);
  for (int m = 0; m < 3; ++m) {
    uint64_t nnz;
    read_exactly(f, &nnz, 8);
    uint32_t* row_ptrs = malloc((rows + 1) * 4);
    uint32_t* cols = malloc(nnz ? nnz * 4 : 1);
    supraseal_fr* vals = malloc(nnz ? nnz * sizeof *vals : 1);
    check(row_ptrs && cols && vals, "out of memory");
    read_exactly(f, row_ptrs, (rows + 1) * 4), read_exactly(f, cols, nnz * 4), read_exactly(f, vals, nnz * sizeof *vals);
    csr[m] = (cuzk_supraseal_csr){row_ptrs, cols, vals, nnz};
  }
  fclose(f);
}

static void ok(supraseal_error e, const char* what) { succeeded(e.code, e.message, what); }

static void expect_error_saying(supraseal_error e, const supraseal_proof* proofs, size_t n, const char* what,
                                const char* needle) {
  expect_refusal(e.code, e.message, proofs, n * sizeof *proofs, what, needle);
}

static void expect_error(supraseal_error e, const supraseal_proof* proofs, size_t n, const char* what) {
  expect_error_saying(e, proofs, n, what, NULL);
}

static supraseal_srs open_srs(void) {
  supraseal_srs srs = {NULL};
  ok(create_SRS(&srs, path_in("circuit.params"), false), "create_SRS");
  return srs;
}

static cuzk_supraseal_witness witness(size_t k) {
  return (cuzk_supraseal_witness){(const supraseal_fr*)inputs_of(k), fx.n_in, (const supraseal_fr*)aux_of(k), fx.n_aux};
}

static void witnesses(cuzk_supraseal_witness* w, supraseal_fr* r, supraseal_fr* s) {
  for (size_t k = 0; k < fx.circuits; ++k)
    w[k] = witness(k), memcpy(&r[k], r_of(k), sizeof *r), memcpy(&s[k], s_of(k), sizeof *s);
}

static cuzk_supraseal_circuit register_csr(const supraseal_srs* srs) {
  cuzk_supraseal_circuit c = {NULL};
  ok(cuzk_supraseal_register_circuit(&c, srs, fx.n_in, fx.n_aux, rows, &csr[0], &csr[1], &csr[2]),
     "register_circuit");
  return c;
}

/* ---- prove ---- */
static void one_same_as_abc(size_t k, const supraseal_proof* proof, const char* how) {
  char name[64];
  snprintf(name, sizeof name, "proof-%zu.bin", k);
  FILE* f = fopen(path_in(name), "rb");
  supraseal_proof abc;
  check(f && fread(&abc, sizeof abc, 1, f) == 1 && fclose(f) == 0, "cannot read the a/b/c path's proof");
  if (memcmp(&abc, proof, sizeof abc) != 0) {
    fprintf(stderr, "supraseal_witness: %s: circuit %zu's proof differs from the a/b/c path's\n", how, k);
    exit(1);
  }
}

static void same_as_abc(const supraseal_proof* proofs, const char* how) {
  for (size_t k = 0; k < fx.circuits; ++k) one_same_as_abc(k, &proofs[k], how);
}

/* The split phase from witnesses in the caller's own buffers, from
 * cuzk_supraseal_alloc_pinned for even circuits and malloc for odd ones,
 * scrambled and freed as soon as start returns: start has read them all
 * (lent, not copied), and the proofs are still the a/b/c path's. */
static void split_from_buffers_freed_after_start(const cuzk_supraseal_circuit* circuit, const supraseal_fr* r,
                                                 const supraseal_fr* s, const char* how) {
  const size_t n = fx.n_in + fx.n_aux, bytes = (n ? n : 1) * sizeof(supraseal_fr);
  for (size_t k = 0; k < fx.circuits; ++k) {
    const bool pinned = k % 2 == 0;
    supraseal_fr* values = NULL;
    if (pinned) ok(cuzk_supraseal_alloc_pinned(bytes, (void**)&values), "cuzk_supraseal_alloc_pinned");
    else values = malloc(bytes);
    check(values != NULL, "no memory for a witness's copy");
    memcpy(values, inputs_of(k), n * sizeof *values); /* the aux follow the inputs */
    const cuzk_supraseal_witness w = {values, fx.n_in, values + fx.n_in, fx.n_aux};
    void* pending = NULL;
    ok(cuzk_supraseal_prove_start(&w, 1, &r[k], &s[k], circuit, -1, &pending), "start from own buffers");
    memset(values, 0xff, n * sizeof *values);
    if (pinned) ok(cuzk_supraseal_free_pinned(values), "cuzk_supraseal_free_pinned");
    else free(values);
    supraseal_proof proof;
    ok(finalize_groth16_proof_c(pending, &proof), "finalize after the buffers were freed");
    one_same_as_abc(k, &proof, how);
  }
}

static int prove(void) {
  const size_t n = fx.circuits;
  cuzk_supraseal_witness* w = malloc(n * sizeof *w);
  supraseal_fr *r = malloc(n * sizeof *r), *s = malloc(n * sizeof *s);
  supraseal_proof* proofs = malloc(n * sizeof *proofs);
  check(w && r && s && proofs, "out of memory");
  witnesses(w, r, s);
  supraseal_srs srs = open_srs();
  cuzk_supraseal_circuit from[2] = {register_csr(&srs), {NULL}};
  ok(cuzk_supraseal_register_circuit_r1cs(&from[1], &srs, path_in("circuit.r1cs")), "register_circuit_r1cs");
  drop_SRS(&srs); /* the circuits keep the points */
  const char* how[2] = {"CSR", ".r1cs"};
  for (int i = 0; i < 2; ++i) {
    memset(proofs, 0, n * sizeof *proofs);
    ok(cuzk_supraseal_prove(w, n, r, s, proofs, &from[i]), "cuzk_supraseal_prove");
    same_as_abc(proofs, how[i]);
    void* pending = NULL;
    memset(proofs, 0, n * sizeof *proofs);
    ok(cuzk_supraseal_prove_start(w, n, r, s, &from[i], -1, &pending), "cuzk_supraseal_prove_start");
    ok(finalize_groth16_proof_c(pending, proofs), "finalize");
    same_as_abc(proofs, how[i]);
    ok(cuzk_supraseal_prove_start(w, 1, r, s, &from[i], -1, &pending), "start (abandoned)");
    destroy_pending_proof(pending);
    split_from_buffers_freed_after_start(&from[i], r, s, how[i]);
    cuzk_supraseal_drop_circuit(&from[i]);
  }
  printf("supraseal_witness: %zu circuits proved from their assignments alone, the circuit registered from CSR "
         "arrays and from .r1cs, in one call and through the split phase (also from pinned and pageable buffers freed "
         "after start): the a/b/c path's proofs, byte for byte\n", n);
  free(w), free(r), free(s), free(proofs);
  return 0;
}

/* ---- errors ---- */
static unsigned char* file_bytes(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  check(f != NULL, "cannot open a file to corrupt");
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char* bytes = malloc(*size ? *size : 1);
  check(bytes && fread(bytes, 1, *size, f) == *size, "cannot read a file to corrupt");
  fclose(f);
  return bytes;
}

static void bad_r1cs(const supraseal_srs* srs, const char* other_curve) {
  size_t size;
  unsigned char* bytes = file_bytes(path_in("circuit.r1cs"), &size);
  write_file("truncated.r1cs", bytes, size / 2);
  srand(11);
  for (size_t i = 0; i < size; ++i) bytes[i] = (unsigned char)rand();
  write_file("random.r1cs", bytes, size);
  free(bytes);
  const struct {
    const char* name; /* in DIR; NULL: other_curve */
    const char* what;
  } files[] = {{"truncated.r1cs", "a truncated .r1cs"}, {"random.r1cs", "a .r1cs of random bytes"},
               {NULL, "a BN254 .r1cs"}, {"missing.r1cs", "a missing .r1cs"}};
  for (size_t i = 0; i < sizeof files / sizeof *files; ++i) {
    cuzk_supraseal_circuit c = {NULL};
    const char* path = files[i].name ? path_in(files[i].name) : other_curve;
    expect_error(cuzk_supraseal_register_circuit_r1cs(&c, srs, path), NULL, 0, files[i].what);
    check(c.ptr == NULL, "a failed registration left a handle");
  }
}

/* B without its term `drop` (rows + 1 row pointers into nnz - 1 terms). */
static cuzk_supraseal_csr without_term(size_t drop, uint32_t* row_ptrs, uint32_t* cols, supraseal_fr* vals) {
  const cuzk_supraseal_csr b = csr[1];
  for (size_t t = 0, to = 0; t < b.nnz; ++t)
    if (t != drop) cols[to] = b.cols[t], vals[to] = b.vals[t], ++to;
  for (size_t j = 0; j <= rows; ++j) row_ptrs[j] = b.row_ptrs[j] - (b.row_ptrs[j] > drop);
  return (cuzk_supraseal_csr){row_ptrs, cols, vals, b.nnz - 1};
}

/* A B term whose column no other B term names: without it, B's density
 * loses that variable. */
static size_t lone_b_term(void) {
  const cuzk_supraseal_csr b = csr[1];
  for (size_t t = 0; t < b.nnz; ++t) {
    size_t same = 0;
    for (size_t u = 0; u < b.nnz; ++u) same += b.cols[u] == b.cols[t];
    if (same == 1) return t;
  }
  die("the fixture's B names every column twice");
  return 0;
}

static void bad_matrices(const supraseal_srs* srs) {
  const cuzk_supraseal_csr a = csr[0];
  const size_t most = a.nnz > csr[1].nnz ? a.nnz : csr[1].nnz;
  uint32_t* cols = malloc(most * 4);
  supraseal_fr* vals = malloc(most * sizeof *vals);
  uint32_t* row_ptrs = malloc((rows + 1) * 4);
  check(cols && vals && row_ptrs && rows > 1 && a.nnz > 1, "out of memory, or a fixture too small");
  enum { kInputs, kAux, kRows, kColumn, kCoefficient, kRowPtrs, kNnz, kNullB, kDensity, kNullSrs, kCases };
  const char* what[kCases] = {"num_inputs one more than the SRS's", "num_aux one short",
                              "num_constraints one short",         "a column past the variables",
                              "a coefficient not below r",         "row pointers that decrease",
                              "nnz that is not the rows' end",     "a null B",
                              "a B term dropped (B's density)",    "a null SRS"};
  for (int k = 0; k < kCases; ++k) {
    size_t n_in = fx.n_in, n_aux = fx.n_aux, n_rows = rows;
    cuzk_supraseal_csr m[3] = {csr[0], csr[1], csr[2]};
    const cuzk_supraseal_csr* b = &m[1];
    const supraseal_srs* handle = srs;
    memcpy(cols, a.cols, a.nnz * 4), memcpy(vals, a.vals, a.nnz * sizeof *vals);
    memcpy(row_ptrs, a.row_ptrs, (rows + 1) * 4);
    switch (k) {
      case kInputs: n_in += 1; break;
      case kAux: n_aux -= 1; break;
      case kRows: n_rows -= 1; break;
      case kColumn: cols[a.nnz / 2] = (uint32_t)(fx.n_in + fx.n_aux), m[0].cols = cols; break;
      case kCoefficient: memset(&vals[a.nnz - 1], 0xff, sizeof *vals), m[0].vals = vals; break;
      case kRowPtrs: row_ptrs[1] = row_ptrs[2] + 1, m[0].row_ptrs = row_ptrs; break;
      case kNnz: m[0].nnz -= 1; break;
      case kNullB: b = NULL; break;
      case kDensity: m[1] = without_term(lone_b_term(), row_ptrs, cols, vals); break;
      case kNullSrs: handle = NULL; break;
    }
    cuzk_supraseal_circuit c = {NULL};
    expect_error(cuzk_supraseal_register_circuit(&c, handle, n_in, n_aux, n_rows, &m[0], b, &m[2]), NULL, 0, what[k]);
    check(c.ptr == NULL, "a failed registration left a handle");
  }
  free(cols), free(vals), free(row_ptrs);
}

static void bad_witnesses(const cuzk_supraseal_circuit* circuit) {
  const size_t n = fx.circuits;
  cuzk_supraseal_witness* w = malloc(n * sizeof *w);
  supraseal_fr *r = malloc(n * sizeof *r), *s = malloc(n * sizeof *s);
  supraseal_proof* proofs = malloc(n * sizeof *proofs);
  supraseal_fr *aux = malloc(fx.n_aux * sizeof *aux), *inp = malloc(fx.n_in * sizeof *inp);
  check(w && r && s && proofs && aux && inp && fx.n_aux > 0, "out of memory, or a fixture without aux");
  enum { kAuxSize, kInpSize, kNullAux, kBigValue, kFirstInput, kBigR, kUnsatisfied, kNullCircuit, kCases };
  const char* what[kCases] = {"aux_assignment_size one short", "inp_assignment_size one long", "a null aux",
                              "an aux value not below r",      "a first input that is not 1",  "r not below r",
                              "an unsatisfied witness",        "a null circuit"};
  for (int k = 0; k < kCases; ++k) {
    witnesses(w, r, s);
    cuzk_supraseal_witness* last = &w[n - 1];
    const cuzk_supraseal_circuit* handle = circuit;
    memcpy(aux, last->aux_assignment_data, fx.n_aux * sizeof *aux);
    memcpy(inp, last->inp_assignment_data, fx.n_in * sizeof *inp);
    switch (k) {
      case kAuxSize: last->aux_assignment_size -= 1; break;
      case kInpSize: last->inp_assignment_size += 1; break;
      case kNullAux: last->aux_assignment_data = NULL; break;
      case kBigValue: memset(&aux[0], 0xff, sizeof *aux), last->aux_assignment_data = aux; break;
      case kFirstInput: inp[0].limbs[0] ^= 1, last->inp_assignment_data = inp; break;
      case kBigR: memset(&r[n - 1], 0xff, sizeof *r); break;
      case kUnsatisfied: aux[fx.n_aux - 1].limbs[0] ^= 1, last->aux_assignment_data = aux; break;
      case kNullCircuit: handle = NULL; break;
    }
    const char* saying = k == kBigValue ? "private value 0 is not below the modulus" : NULL;
    memset(proofs, 0xab, n * sizeof *proofs);
    expect_error_saying(cuzk_supraseal_prove(w, n, r, s, proofs, handle), proofs, n, what[k], saying);
    if (k == kBigValue) {
      /* Through the split phase: start has read the values, finalize fails. */
      void* started = NULL;
      ok(cuzk_supraseal_prove_start(w, n, r, s, handle, -1, &started), "start with a bad value");
      expect_error_saying(finalize_groth16_proof_c(started, proofs), proofs, n, what[k], saying);
    }
  }
  witnesses(w, r, s);
  void* pending = (void*)1;
  expect_error(cuzk_supraseal_prove_start(w, n, r, s, circuit, 1 << 20, &pending), NULL, 0, "gpu_index past the GPUs");
  check(pending == NULL, "a failed start left a pending proof");
  ok(cuzk_supraseal_prove(w, 0, r, s, NULL, circuit), "no circuits");
  free(w), free(r), free(s), free(proofs), free(aux), free(inp);
}

static int errors(const char* other_curve) {
  supraseal_srs srs = open_srs();
  bad_r1cs(&srs, other_curve);
  bad_matrices(&srs);
  cuzk_supraseal_circuit circuit = register_csr(&srs);
  cuzk_supraseal_circuit again = circuit;
  expect_error(cuzk_supraseal_register_circuit_r1cs(&again, &srs, path_in("circuit.r1cs")), NULL, 0,
               "ret already holding a circuit");
  bad_witnesses(&circuit);
  cuzk_supraseal_drop_circuit(&circuit);
  cuzk_supraseal_drop_circuit(&(cuzk_supraseal_circuit){NULL});
  drop_SRS(&srs);
  if (failures) fprintf(stderr, "supraseal_witness: %d error cases failed\n", failures);
  else printf("supraseal_witness: every bad matrix, file and witness refused with a message, no proof written\n");
  return failures ? 1 : 0;
}

int main(int argc, char** argv) {
  const bool proving = argc == 3 && strcmp(argv[1], "prove") == 0;
  if (!proving && !(argc == 4 && strcmp(argv[1], "errors") == 0)) {
    fprintf(stderr, "usage: capi_supraseal_witness prove DIR | errors DIR OTHER_CURVE_R1CS\n");
    return 2;
  }
  load_fixture("supraseal_witness", argv[2]);
  load_csr();
  return proving ? prove() : errors(argv[3]);
}
