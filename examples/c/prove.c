/*
 * One Groth16 proof through rapidsnark's C API (prover.h), as a rapidsnark
 * user writes it; libcuzk serves it unchanged.
 *
 *   cc -o prove prove.c $(pkg-config --cflags --libs cuzk)        (or rapidsnark)
 *   ./prove circuit.zkey witness.wtns proof.json public.json
 *
 * Exit status 0 with both files written, 1 with a message on stderr.
 */
#include <prover.h>
#include <stdio.h>
#include <stdlib.h>

/* The whole file into a malloc'd buffer; NULL (and a message) on failure. */
static void *read_file(const char *path, unsigned long long *size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  void *bytes = n > 0 ? malloc((size_t)n) : NULL;
  if (!bytes || fread(bytes, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "%s: cannot read it\n", path);
    free(bytes);
    bytes = NULL;
  }
  fclose(f);
  *size = (unsigned long long)n;
  return bytes;
}

static int write_file(const char *path, const char *text, unsigned long long size) {
  FILE *f = fopen(path, "wb");
  int ok = f && fwrite(text, 1, (size_t)size, f) == (size_t)size;
  if (f && fclose(f) != 0) ok = 0;
  if (!ok) perror(path);
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s circuit.zkey witness.wtns proof.json public.json\n", argv[0]);
    return 1;
  }
  char error[256];
  unsigned long long proof_size = 0, public_size = 0, wtns_size = 0;
  groth16_proof_size(&proof_size);
  if (groth16_public_size_for_zkey_file(argv[1], &public_size, error, sizeof error) != PROVER_OK) {
    fprintf(stderr, "%s\n", error);
    return 1;
  }
  void *wtns = read_file(argv[2], &wtns_size);
  char *proof = malloc(proof_size), *public_signals = malloc(public_size);
  if (!wtns || !proof || !public_signals) return 1;
  int status = groth16_prover_zkey_file(argv[1], wtns, wtns_size, proof, &proof_size, public_signals,
                                        &public_size, error, sizeof error);
  if (status != PROVER_OK) {
    fprintf(stderr, "groth16_prover_zkey_file: code %d: %s\n", status, error);
    return 1;
  }
  if (!write_file(argv[3], proof, proof_size) || !write_file(argv[4], public_signals, public_size)) return 1;
  printf("wrote %s and %s\n", argv[3], argv[4]);
  free(wtns);
  free(proof);
  free(public_signals);
  return 0;
}
