/* What supraseal_fixture wrote into DIR, read by the ABI tests
 * (supraseal_abi.c, supraseal_witness.c): inputs.bin, as its header says,
 * and the paths of DIR's other files. Values stay 4 little-endian limbs each,
 * so that each test views them through its own declarations of the ABI. */
#ifndef CUZK_TESTS_SUPRASEAL_INPUTS_H
#define CUZK_TESTS_SUPRASEAL_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint64_t n_in, n_aux, abc_size, circuits;
  uint64_t *a_aux, *b_inp, *b_aux; /* bitmaps, 64-bit words as bitvec keeps them */
  uint64_t* values;                /* per circuit: a, b, c, inputs, aux, r, s */
} Fixture;

extern Fixture fx;

/* "<program>: what" on stderr, exit 1. */
void die(const char* what);
void check(bool ok, const char* what);
/* Remembers DIR (refusing one too long for the buffer) and reads inputs.bin. */
void load_fixture(const char* program, const char* dir);
/* DIR/NAME; the last two results stay valid. */
const char* path_in(const char* name);

/* Circuit k's values: a, b and c (abc_size each), then the inputs, the aux,
 * r and s; each value 4 limbs. */
const uint64_t* circuit_values(size_t k);
const uint64_t* inputs_of(size_t k);
const uint64_t* aux_of(size_t k);
const uint64_t* r_of(size_t k);
const uint64_t* s_of(size_t k);

/* A call that must succeed: code 0 and no message; else the test fails, or
 * is skipped (exit 77) where CUZK_BACKEND=cuda finds no GPU (ENODEV). */
void succeeded(int32_t code, const char* message, const char* what);

/* The error cases' failures so far. A call that must fail: a non-zero code
 * and a message (freed here) holding `needle` (when not NULL), and the
 * `bytes` at `out` (a proof buffer filled with 0xab before the call, or NULL)
 * left as they were; else counted. */
extern int failures;
void expect_refusal(int32_t code, char* message, const void* out, size_t bytes, const char* what,
                    const char* needle);
/* DIR/NAME written with `bytes` bytes of p. */
void write_file(const char* name, const void* p, size_t bytes);

#endif
