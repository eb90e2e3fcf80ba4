#include "supraseal_inputs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Fixture fx;
static const char* program = "supraseal test";
static char dir[4096];

void die(const char* what) {
  fprintf(stderr, "%s: %s\n", program, what);
  exit(1);
}

void check(bool ok, const char* what) {
  if (!ok) die(what);
}

/* A path that does not fit is refused, not cut. */
const char* path_in(const char* name) {
  static char p[2][sizeof dir + 64];
  static int which;
  which ^= 1;
  const int n = snprintf(p[which], sizeof p[which], "%s/%s", dir, name);
  check(n >= 0 && (size_t)n < sizeof p[which], "a path in DIR is too long for this test's buffer");
  return p[which];
}

static size_t stride(void) { return 4 * (3 * fx.abc_size + fx.n_in + fx.n_aux + 2); }
const uint64_t* circuit_values(size_t k) { return fx.values + k * stride(); }
const uint64_t* inputs_of(size_t k) { return circuit_values(k) + 4 * 3 * fx.abc_size; }
const uint64_t* aux_of(size_t k) { return inputs_of(k) + 4 * fx.n_in; }
const uint64_t* r_of(size_t k) { return aux_of(k) + 4 * fx.n_aux; }
const uint64_t* s_of(size_t k) { return r_of(k) + 4; }

static void read_exactly(FILE* f, void* p, size_t bytes) { check(fread(p, 1, bytes, f) == bytes, "inputs.bin is short"); }

static uint64_t* read_bitmap(FILE* f, uint64_t bits) {
  const size_t words = (bits + 63) / 64;
  uint64_t* w = calloc(words ? words : 1, sizeof(uint64_t));
  check(w != NULL, "out of memory");
  read_exactly(f, w, words * sizeof(uint64_t));
  return w;
}

void load_fixture(const char* name, const char* directory) {
  program = name;
  if (strlen(directory) >= sizeof dir) die("DIR is longer than this test's buffer for it");
  snprintf(dir, sizeof dir, "%s", directory);
  FILE* f = fopen(path_in("inputs.bin"), "rb");
  check(f != NULL, "cannot open inputs.bin");
  uint64_t header[4];
  read_exactly(f, header, sizeof header);
  fx.n_in = header[0], fx.n_aux = header[1], fx.abc_size = header[2], fx.circuits = header[3];
  fx.a_aux = read_bitmap(f, fx.n_aux), fx.b_inp = read_bitmap(f, fx.n_in), fx.b_aux = read_bitmap(f, fx.n_aux);
  fx.values = malloc(fx.circuits * stride() * sizeof(uint64_t));
  check(fx.values != NULL, "out of memory");
  read_exactly(f, fx.values, fx.circuits * stride() * sizeof(uint64_t));
  fclose(f);
}

int failures;

void expect_refusal(int32_t code, char* message, const void* out, size_t bytes, const char* what,
                    const char* needle) {
  bool untouched = true;
  for (size_t i = 0; out && i < bytes; ++i) untouched &= ((const unsigned char*)out)[i] == 0xab;
  if (code == 0 || !message || !*message || !untouched || (needle && !strstr(message, needle))) {
    fprintf(stderr, "%s: %s: code %d, message %s%s\n", program, what, code, message ? message : "(none)",
            untouched ? "" : ", proofs written");
    ++failures;
  } else {
    printf("  %-44s -> %d: %s\n", what, code, message);
  }
  free(message);
}

void write_file(const char* name, const void* p, size_t bytes) {
  FILE* f = fopen(path_in(name), "wb");
  check(f && fwrite(p, 1, bytes, f) == bytes && fclose(f) == 0, "cannot write a test file");
}

void succeeded(int32_t code, const char* message, const char* what) {
  if (code == 0) {
    check(message == NULL, "success with a message");
    return;
  }
  fprintf(stderr, "%s: %s: error %d: %s\n", program, what, code, message ? message : "(no message)");
  const char* backend = getenv("CUZK_BACKEND");
  if (backend && strcmp(backend, "cuda") == 0 && code == ENODEV) exit(77);
  exit(1);
}
