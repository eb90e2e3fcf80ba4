/* supraseal-c2's C ABI, served by cuzk (libcuzk_supraseal): what the Rust
 * crate supraseal-c2 declares in its `extern "C"` block, so that bellperson
 * built with its supraseal feature, rust-fil-proofs and Curio link this
 * library in place of supraseal-c2's and prove through cuzk's service
 * (resident keys, the pipeline, GPU a/b/c-free proving of given a, b, c).
 * docs/SUPRASEAL-ABI.md sets out the contract, from the crate's sources;
 * what this implementation does differently is said at each function.
 *
 * Representations (BLS12-381 only, as blst lays them out): an Fr is 4
 * little-endian 64-bit limbs in Montgomery form (R = 2^256), an Fp 6 limbs
 * (R = 2^384), an Fp2 c0 then c1, an affine point x then y with the point at
 * infinity all zero. Density bitmaps are 64-bit words, bit i of the set being
 * bit i % 64 of word i / 64.
 *
 * Every function is safe to call from any thread at any time; proofs against
 * one SRS may run concurrently. No C++ exception leaves the library. */
#ifndef CUZK_SUPRASEAL_H
#define CUZK_SUPRASEAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exported from libcuzk_supraseal.so, whose own symbols are hidden. */
#define CUZK_SUPRASEAL_API __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { uint64_t limbs[4]; } supraseal_fr;
typedef struct { uint64_t limbs[6]; } supraseal_fp;
typedef struct { supraseal_fp x, y; } supraseal_g1_affine;
typedef struct { supraseal_fp x[2], y[2]; } supraseal_g2_affine;

/* bellperson's Proof<Bls12> (#[repr(C)] { a, b, c }): 384 bytes. */
typedef struct {
  supraseal_g1_affine a;
  supraseal_g2_affine b;
  supraseal_g1_affine c;
} supraseal_proof;

/* The crate's SRS: one pointer to a reference-counted parameter file. */
typedef struct { void* ptr; } supraseal_srs;

/* sppark's Error: code 0 is success; message is NULL or from malloc, and the
 * caller frees it (Rust's Drop calls free). */
typedef struct {
  int32_t code;
  char* message;
} supraseal_error;

/* One circuit's inputs, as bellperson's prover fills them. */
typedef struct {
  const uint64_t* a_aux_density; /* the private variables with a point in A */
  size_t a_aux_bit_len;          /* = aux_assignment_size */
  size_t a_aux_popcount;
  const uint64_t* b_inp_density; /* the inputs with a point in B */
  size_t b_inp_bit_len;          /* = inp_assignment_size */
  size_t b_inp_popcount;
  const uint64_t* b_aux_density; /* the private variables with a point in B */
  size_t b_aux_bit_len;          /* = aux_assignment_size */
  size_t b_aux_popcount;
  /* <A_j, z>, <B_j, z>, <C_j, z> for the constraints j, bellman's input
   * constraints included, abc_size each (at most the SRS's domain). */
  const supraseal_fr* a;
  const supraseal_fr* b;
  const supraseal_fr* c;
  size_t abc_size;
  const supraseal_fr* inp_assignment_data; /* the inputs, 1 first */
  size_t inp_assignment_size;
  const supraseal_fr* aux_assignment_data; /* the private variables */
  size_t aux_assignment_size;
} supraseal_assignment;

/* Reads and validates a bellperson parameter file (every count, every point
 * on its curve, subgroup checks as io/bellperson.hpp says) into *ret, which
 * must hold {NULL}. cache: share one load per path string, at most 4 paths
 * (supraseal-c2's LRU). Unlike supraseal-c2, no GPU is required (the CPU
 * backend proves where there is none) and the load ends before the call
 * returns. Errors: ENOENT and other errno values for the file, EINVAL for
 * its contents, ENOMEM. */
CUZK_SUPRASEAL_API supraseal_error create_SRS(supraseal_srs* ret, const char* srs_path, bool cache);
/* Drops the cache's reference to this SRS's path (callers keep theirs). */
CUZK_SUPRASEAL_API void evict_SRS(const supraseal_srs* srs);
/* Drops one reference; the last frees the key, on the GPUs too once no proof
 * uses it. A handle holding NULL is ignored. The handle is not written (Rust
 * passes a shared reference and clears it itself). */
CUZK_SUPRASEAL_API void drop_SRS(const supraseal_srs* srs);
/* One more reference to the same SRS. */
CUZK_SUPRASEAL_API supraseal_srs clone_SRS(const supraseal_srs* srs);

/* Proves num_circuits circuits of the SRS's shape with the caller's r and s
 * (r_s[i], s_s[i]), writing proofs[i]; every proof is verified before it is
 * written. Returns when all are done; on an error no proof is written.
 * Curio's fork passes two more arguments (a GPU mutex and a device index):
 * under the x86-64 and AArch64 calling conventions extra arguments are
 * ignored safely, and cuzk's engine schedules its GPUs itself. */
CUZK_SUPRASEAL_API supraseal_error generate_groth16_proofs_c(const supraseal_assignment provers[], size_t num_circuits,
                                          const supraseal_fr r_s[], const supraseal_fr s_s[],
                                          supraseal_proof proofs[], const supraseal_srs* srs);

/* Curio's split phase. start checks and submits like generate_groth16_proofs_c
 * and returns as soon as every circuit's a, b, c and assignment have been read
 * (uploaded to a GPU, or copied for the CPU prover), the proofs going on in
 * *pending_out (NULL on an error); from then on none of the inputs is read
 * again (Curio's contract asks that only of a, b, c), so the caller may reuse
 * or free all of them. gpu_mutex (from create_gpu_mutex, or NULL) and
 * gpu_index (-1: any) are checked and not needed: the engine serialises its
 * GPUs' kernels and overlaps the calls' transfers itself. finalize waits for
 * the proofs, verifies them and writes them (as many as start was given; an
 * error, such as a value not below the modulus, comes from here) and frees
 * the handle; destroy cancels and frees it unread. Each handle is consumed by
 * exactly one of the two. */
CUZK_SUPRASEAL_API supraseal_error generate_groth16_proofs_start_c(const supraseal_assignment provers[], size_t num_circuits,
                                                const supraseal_fr r_s[], const supraseal_fr s_s[],
                                                const supraseal_srs* srs, void* gpu_mutex, int gpu_index,
                                                void** pending_out);
CUZK_SUPRASEAL_API supraseal_error finalize_groth16_proof_c(void* pending, supraseal_proof proofs[]);
CUZK_SUPRASEAL_API void destroy_pending_proof(void* pending);
CUZK_SUPRASEAL_API void* create_gpu_mutex(void);
CUZK_SUPRASEAL_API void destroy_gpu_mutex(void* gpu_mutex);

/* cuzk's additions: host memory for a, b, c and the assignment that a GPU
 * reads by DMA, straight from where the caller wrote them (pageable memory is
 * streamed through a small pinned ring instead, at some cost in host memory
 * bandwidth). alloc gives *out `bytes` of page-aligned memory, page-locked
 * with every GPU where the service proves on GPUs (CUZK_BACKEND), plain
 * otherwise; EINVAL for 0 bytes, ENOMEM when none is left. Page-locking costs
 * about half a second per GiB: allocate once and reuse. free gives it back
 * (NULL is ignored; a pointer alloc did not give is EINVAL). */
CUZK_SUPRASEAL_API supraseal_error cuzk_supraseal_alloc_pinned(size_t bytes, void** out);
CUZK_SUPRASEAL_API supraseal_error cuzk_supraseal_free_pinned(void* p);

/* ---- cuzk's extension: witness-only proving (no supraseal-c2 has it) ----
 * A circuit's R1CS is registered once beside an SRS; its proofs then take
 * the input and aux assignments alone. cuzk evaluates a, b and c from the
 * circuit's A and B rows (c as a*b, which is C*z for a satisfying
 * assignment), on the GPU of the cuda backend (CUZK_ABC=auto or gpu; host:
 * on the CPU), and takes the density bitmaps from the matrices. For the same
 * r and s a proof equals, byte for byte, the one generate_groth16_proofs_c
 * makes from bellperson's a, b, c and bitmaps of the same circuit. */

/* A registered circuit: the SRS's points and the circuit's rows, as a key of
 * cuzk's service. */
typedef struct { void* ptr; } cuzk_supraseal_circuit;

/* One matrix in compressed sparse rows (Curio's cuzk-pce CsrMatrix): row j's
 * terms are cols[row_ptrs[j] .. row_ptrs[j + 1]) and their coefficients, Fr
 * in Montgomery form below r. A column names a variable of the unified
 * space: c < inputs is input c (0 the constant 1), else aux c - inputs. */
typedef struct {
  const uint32_t* row_ptrs;  /* num_constraints + 1, from 0, never decreasing */
  const uint32_t* cols;      /* nnz */
  const supraseal_fr* vals;  /* nnz */
  size_t nnz;                /* = row_ptrs[num_constraints] */
} cuzk_supraseal_csr;

/* One circuit's witness: what supraseal_assignment's last four fields hold. */
typedef struct {
  const supraseal_fr* inp_assignment_data; /* the inputs, 1 first */
  size_t inp_assignment_size;
  const supraseal_fr* aux_assignment_data; /* the private variables */
  size_t aux_assignment_size;
} cuzk_supraseal_witness;

/* Registers the circuit of num_inputs inputs (the constant 1 included),
 * num_aux private variables and num_constraints constraints A, B and C into
 * *ret, which must hold {NULL}. The constraints are the circuit's own, as
 * its synthesize() enforces them: not bellman's input constraints, which
 * cuzk appends as bellperson's prover does (a Curio PCE, which records them
 * last, passes num_constraints - num_inputs and nnz = row_ptrs[that]). Every
 * size, pointer, column and coefficient is checked, and the circuit against
 * the SRS (IC against the inputs, L against the private variables, H against
 * the domain, A, B_G1 and B_G2 against the densities); EINVAL with a
 * one-line message names the first problem. The arrays are not read after
 * the call returns. The SRS may be dropped while the circuit lives. */
CUZK_SUPRASEAL_API supraseal_error cuzk_supraseal_register_circuit(cuzk_supraseal_circuit* ret, const supraseal_srs* srs,
                                                                   size_t num_inputs, size_t num_aux,
                                                                   size_t num_constraints, const cuzk_supraseal_csr* a,
                                                                   const cuzk_supraseal_csr* b,
                                                                   const cuzk_supraseal_csr* c);
/* The same from a circom .r1cs file over BLS12-381 (wire 0 the constant,
 * then the public signals, then the private ones: bellperson's order), read
 * and checked whole (io/r1cs.hpp). ENOENT for a missing file, EINVAL for
 * its contents (another curve's, truncated, malformed) or another circuit
 * than the SRS's. */
CUZK_SUPRASEAL_API supraseal_error cuzk_supraseal_register_circuit_r1cs(cuzk_supraseal_circuit* ret,
                                                                        const supraseal_srs* srs,
                                                                        const char* r1cs_path);
/* Frees the circuit, on the GPUs too once no proof uses it. A handle holding
 * NULL is ignored; the handle is not written. */
CUZK_SUPRASEAL_API void cuzk_supraseal_drop_circuit(const cuzk_supraseal_circuit* circuit);

/* generate_groth16_proofs_c for a registered circuit: num_circuits
 * witnesses, each with its r_s[i] and s_s[i], proofs[i] written when all are
 * proved and verified. Each witness's sizes are checked against the circuit,
 * its first input 1 and its values below r (where they are read: a GPU
 * checks them after their upload). As a, b, c and the assignment are there,
 * the witnesses are lent, not copied: cuzk_supraseal_alloc_pinned's memory
 * goes to a GPU by DMA. */
CUZK_SUPRASEAL_API supraseal_error cuzk_supraseal_prove(const cuzk_supraseal_witness witnesses[], size_t num_circuits,
                                                        const supraseal_fr r_s[], const supraseal_fr s_s[],
                                                        supraseal_proof proofs[],
                                                        const cuzk_supraseal_circuit* circuit);
/* generate_groth16_proofs_start_c for a registered circuit: it returns as
 * soon as every witness has been read (uploaded to a GPU, or copied for the
 * host), the proofs going on in *pending_out (NULL on an error), for
 * finalize_groth16_proof_c (where a value not below r fails) or
 * destroy_pending_proof; none of the inputs is read after it returns.
 * gpu_index as there (-1: any). */
CUZK_SUPRASEAL_API supraseal_error cuzk_supraseal_prove_start(const cuzk_supraseal_witness witnesses[],
                                                              size_t num_circuits, const supraseal_fr r_s[],
                                                              const supraseal_fr s_s[],
                                                              const cuzk_supraseal_circuit* circuit, int gpu_index,
                                                              void** pending_out);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_SUPRASEAL_H */
