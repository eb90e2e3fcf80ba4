/*
 * What the C API's test programs share: a check that counts failures, the
 * fixtures' files, and witnesses made bad on purpose.
 */
#ifndef CUZK_TESTS_CAPI_SUPPORT_H
#define CUZK_TESTS_CAPI_SUPPORT_H

#include <stdio.h>

extern int failures;

#define CHECK(cond, ...)                                                         \
  do {                                                                           \
    if (!(cond)) {                                                               \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);   \
      fprintf(stderr, __VA_ARGS__);                                              \
      fputc('\n', stderr);                                                       \
      ++failures;                                                                \
    }                                                                            \
  } while (0)

typedef struct {
  unsigned char *data;
  unsigned long long size;
} Bytes;

/* The fixtures' folder (tests/fixtures) and the folder proofs are written to. */
extern const char *fixtures;
extern const char *out_dir;

/* A test program's main: `PROGRAM MODE FIXTURES OUT` runs the mode of that
   name; returns the exit status (0, 1 when a check failed, 2 for a usage
   error). */
typedef struct {
  const char *name;
  void (*run)(void);
} Mode;
int run_mode(int argc, char **argv, const Mode *modes, int n_modes);

/* A file's bytes with a NUL after them (so that text files are strings);
   exits 2 when it cannot be read. */
Bytes read_file(const char *path);
void write_file(const char *path, const char *text);
/* A path printed into a caller's buffer as snprintf would, but one that does
   not fit is not cut: the program says so and exits 2. */
void format_path(char *out, size_t size, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* FIXTURES/<curve>/<circuit>/<file>, its path and its bytes. */
void fixture_path(char *out, size_t size, const char *curve, const char *circuit, const char *file);
Bytes fixture(const char *curve, const char *circuit, const char *file);
/* Whether two JSON texts are equal but for whitespace (decimal strings hold none). */
int same_json(const char *a, const char *b);
/* The cycles mode's count: $CUZK_TEST_CYCLES, else 100. Under valgrind a
   cycle costs ~75 times its native time, and a leak shows after one cycle
   as after a hundred, so the memcheck tests ask for fewer. */
int cycle_count(void);
/* Deterministic bytes (a 64-bit LCG). */
Bytes random_bytes(unsigned long long size, unsigned long long seed);
/* A copy of a .wtns with signal 1 (the first output) changed, still below r:
   well formed, but it does not satisfy the circuit. */
Bytes unsatisfied_copy(Bytes wtns);

#endif
