#define _POSIX_C_SOURCE 200809L /* strdup */

#include "capi_support.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int failures = 0;
const char *fixtures;
const char *out_dir;

Bytes read_file(const char *path) {
  Bytes b = {NULL, 0};
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  b.size = (unsigned long long)ftell(f);
  fseek(f, 0, SEEK_SET);
  b.data = malloc(b.size + 1);
  if (!b.data || fread(b.data, 1, b.size, f) != b.size) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(2);
  }
  b.data[b.size] = 0;
  fclose(f);
  return b;
}

void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
    fprintf(stderr, "cannot write %s\n", path);
    exit(2);
  }
}

void format_path(char *out, size_t size, const char *format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vsnprintf(out, size, format, args);
  va_end(args);
  if (n < 0 || (size_t)n >= size) {
    fprintf(stderr, "a path of %d bytes does not fit this test's buffer of %zu: %s...\n", n, size, out);
    exit(2);
  }
}

/* FIXTURES/<curve>/<circuit>/<file> */
void fixture_path(char *out, size_t size, const char *curve, const char *circuit, const char *file) {
  format_path(out, size, "%s/%s/%s/%s", fixtures, curve, circuit, file);
}

Bytes fixture(const char *curve, const char *circuit, const char *file) {
  char path[4096];
  fixture_path(path, sizeof path, curve, circuit, file);
  return read_file(path);
}

/* The text without whitespace, to compare JSON. */
static void squeeze(char *s) {
  char *w = s;
  for (; *s; ++s)
    if (*s != ' ' && *s != '\n' && *s != '\r' && *s != '\t') *w++ = *s;
  *w = 0;
}

int same_json(const char *a, const char *b) {
  char *x = strdup(a), *y = strdup(b);
  squeeze(x);
  squeeze(y);
  const int same = strcmp(x, y) == 0;
  free(x);
  free(y);
  return same;
}

int cycle_count(void) {
  const char *env = getenv("CUZK_TEST_CYCLES");
  const int n = env ? atoi(env) : 0;
  return n > 0 ? n : 100;
}

Bytes random_bytes(unsigned long long size, unsigned long long seed) {
  Bytes b = {malloc(size), size};
  for (unsigned long long i = 0; i < size; ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    b.data[i] = (unsigned char)(seed >> 56);
  }
  return b;
}

Bytes unsatisfied_copy(Bytes wtns) {
  Bytes b = {malloc(wtns.size), wtns.size};
  memcpy(b.data, wtns.data, wtns.size);
  unsigned long long at = 12; /* magic, version, section count */
  unsigned int n8 = 0;
  while (at + 12 <= b.size) {
    unsigned int type;
    unsigned long long size;
    memcpy(&type, b.data + at, 4);
    memcpy(&size, b.data + at + 4, 8);
    at += 12;
    if (type == 1) memcpy(&n8, b.data + at, 4);
    if (type == 2) {
      b.data[at + n8] ^= 1; /* the low byte of signal 1 */
      return b;
    }
    at += size;
  }
  fprintf(stderr, "no values section in the witness\n");
  exit(2);
}

int run_mode(int argc, char **argv, const Mode *modes, int n_modes) {
  const Mode *mode = NULL;
  for (int i = 0; argc == 4 && i < n_modes; ++i)
    if (strcmp(argv[1], modes[i].name) == 0) mode = &modes[i];
  if (!mode) {
    fprintf(stderr, "usage: %s MODE FIXTURES OUT, MODE one of:", argv[0]);
    for (int i = 0; i < n_modes; ++i) fprintf(stderr, " %s", modes[i].name);
    fputc('\n', stderr);
    return 2;
  }
  fixtures = argv[2];
  out_dir = argv[3];
  mode->run();
  if (failures) fprintf(stderr, "%d checks failed\n", failures);
  return failures ? 1 : 0;
}
