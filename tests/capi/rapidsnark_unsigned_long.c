/*
 * A program built as go-rapidsnark builds against its vendored prover.h,
 * whose sizes are `unsigned long` where rapidsnark's current header (and
 * cuzk.h) has `unsigned long long`: groth16_prover declared here as that
 * header declares it (prover.h is not included), linked with -lrapidsnark.
 * On LP64 Linux both types are 64 bits and passed alike, so libcuzk serves it.
 *
 *   rapidsnark_unsigned_long circuit.zkey witness.wtns proof.json public.json
 */
#include <stdio.h>
#include <stdlib.h>

int groth16_prover(const void *zkey_buffer, unsigned long zkey_size, const void *wtns_buffer,
                   unsigned long wtns_size, char *proof_buffer, unsigned long *proof_size,
                   char *public_buffer, unsigned long *public_size, char *error_msg,
                   unsigned long error_msg_maxsize);

_Static_assert(sizeof(unsigned long) == sizeof(unsigned long long), "LP64 only");

static void *slurp(const char *path, unsigned long *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  void *bytes = malloc((size_t)n);
  if (bytes && fread(bytes, 1, (size_t)n, f) != (size_t)n) {
    free(bytes);
    bytes = NULL;
  }
  fclose(f);
  *size = (unsigned long)n;
  return bytes;
}

static int spill(const char *path, const char *text, unsigned long size) {
  FILE *f = fopen(path, "wb");
  int ok = f && fwrite(text, 1, size, f) == size;
  return f && fclose(f) == 0 && ok;
}

int main(int argc, char **argv) {
  if (argc != 5) return 2;
  unsigned long zkey_size, wtns_size, proof_size = 16384, public_size = 16384;
  void *zkey = slurp(argv[1], &zkey_size), *wtns = slurp(argv[2], &wtns_size);
  char *proof = malloc(proof_size), *public_signals = malloc(public_size), error[256];
  if (!zkey || !wtns || !proof || !public_signals) {
    fprintf(stderr, "cannot read %s or %s\n", argv[1], argv[2]);
    return 1;
  }
  int status = groth16_prover(zkey, zkey_size, wtns, wtns_size, proof, &proof_size, public_signals,
                              &public_size, error, sizeof error);
  if (status != 0) {
    fprintf(stderr, "groth16_prover: code %d: %s\n", status, error);
    return 1;
  }
  if (!spill(argv[3], proof, proof_size) || !spill(argv[4], public_signals, public_size)) return 1;
  free(zkey);
  free(wtns);
  free(proof);
  free(public_signals);
  return 0;
}
