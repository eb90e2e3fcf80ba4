/*
 * libcuzk: cuzk's C API (valid C and C++).
 *
 * The functions below are rapidsnark's C API (its src/prover.h) with the same
 * names, signatures, error codes and buffer conventions, so that a program
 * written against rapidsnark links against libcuzk unchanged. Behind them is
 * one cuzk proving service per prover object (include/cuzk/service/), on the
 * GPU when one is present and on the CPU otherwise.
 *
 * Buffers, as in rapidsnark:
 *   - groth16_prover_prove and the one-shot functions write the proof and the
 *     public signals as NUL-terminated JSON strings into the caller's
 *     buffers. On input *proof_size and *public_size are the buffers' sizes;
 *     on PROVER_OK they are set to the bytes written, the NUL excluded.
 *   - When either buffer is too short (the NUL included), the call returns
 *     PROVER_ERROR_SHORT_BUFFER, sets both sizes to the sizes needed (the NUL
 *     included) and writes nothing into either buffer.
 *   - groth16_proof_size and groth16_public_size_for_zkey_* give sizes that
 *     are always enough.
 *   - error_msg receives a one-line, NUL-terminated message on any code but
 *     PROVER_OK, truncated to error_msg_maxsize bytes; it may be NULL (or the
 *     size 0), and then no message is written.
 * On any code but PROVER_OK the proof and public buffers are left untouched.
 *
 * Errors: PROVER_INVALID_WITNESS_LENGTH when the witness has a different
 * number of signals than the key's nVars; PROVER_ERROR for everything else,
 * a NULL pointer argument included. No C++ exception leaves these functions.
 *
 * Threads: a prover object may be used by several threads at once;
 * groth16_prover_prove calls on one prover run concurrently through its
 * service (which queues them when they exceed its workers). Destroying a
 * prover while another thread still proves with it is the caller's error.
 *
 * Where libcuzk differs from rapidsnark:
 *   - BLS12-381 keys and witnesses are accepted as well as BN254 ones
 *     (rapidsnark: "zkey curve not supported"); such a proof's JSON has
 *     "curve": "bls12381".
 *   - The JSON is laid out as snarkjs writes proof.json and public.json (as
 *     `cuzk prove` writes them): keys in snarkjs's order (pi_a, pi_b, pi_c,
 *     protocol, curve), one space of indentation per level, no final
 *     newline. rapidsnark writes compact JSON and no "curve" key. Both parse
 *     to the same values; sizes differ, so ask the size functions.
 *   - groth16_proof_size gives the largest proof of either curve (rapidsnark:
 *     810, BN254 only), and groth16_public_size_for_zkey_* the largest public
 *     signals of the key's curve in this layout.
 *   - The key is read and checked in full when a prover is created (every
 *     point on its curve, every coefficient in range), and every proof is
 *     verified before it is returned: a witness that does not satisfy the
 *     circuit is PROVER_ERROR, never an invalid proof.
 *   - A witness of the other curve is PROVER_ERROR even when its length
 *     differs too (the curve is checked first; rapidsnark checks the length
 *     first).
 *   - The zkey buffer given to groth16_prover_create is copied: the caller
 *     may free it as soon as the call returns (rapidsnark's prover reads the
 *     caller's buffer for as long as it lives).
 *   - Messages are cuzk's (they name the file or buffer and what is wrong);
 *     a wrong witness length still holds rapidsnark's "Invalid witness
 *     length. Circuit: N, witness: M".
 */
#ifndef CUZK_CUZK_H
#define CUZK_CUZK_H

#if defined(_WIN32)
#define CUZK_API
#else
#define CUZK_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes returned by the functions (rapidsnark's values). */
#define PROVER_OK                     0x0
#define PROVER_ERROR                  0x1
#define PROVER_ERROR_SHORT_BUFFER     0x2
#define PROVER_INVALID_WITNESS_LENGTH 0x3

/*
 * Writes to *public_size a buffer size that holds the public signals of any
 * proof made with the key in zkey_buffer (zkey_size bytes), as JSON, with its
 * NUL. Reads the key's header only.
 * Returns PROVER_OK, or PROVER_ERROR with a message.
 */
CUZK_API int
groth16_public_size_for_zkey_buf(
    const void          *zkey_buffer,
    unsigned long long   zkey_size,
    unsigned long long  *public_size,
    char                *error_msg,
    unsigned long long   error_msg_maxsize);

/* The same for the key in the file zkey_fname. */
CUZK_API int
groth16_public_size_for_zkey_file(
    const char          *zkey_fname,
    unsigned long long  *public_size,
    char                *error_msg,
    unsigned long long   error_msg_maxsize);

/*
 * Writes to *proof_size a buffer size that holds any proof, as JSON, with its
 * NUL (of either curve). Does nothing when proof_size is NULL.
 */
CUZK_API void
groth16_proof_size(
    unsigned long long *proof_size);

/*
 * Makes a prover for the key in zkey_buffer (zkey_size bytes, copied) and
 * stores it in *prover_object.
 * Returns PROVER_OK, or PROVER_ERROR with a message (and *prover_object
 * unchanged).
 */
CUZK_API int
groth16_prover_create(
    void                **prover_object,
    const void          *zkey_buffer,
    unsigned long long   zkey_size,
    char                *error_msg,
    unsigned long long   error_msg_maxsize);

/* The same for the key in the file zkey_file_path. */
CUZK_API int
groth16_prover_create_zkey_file(
    void                **prover_object,
    const char          *zkey_file_path,
    char                *error_msg,
    unsigned long long   error_msg_maxsize);

/*
 * Proves the witness in wtns_buffer (a .wtns file's wtns_size bytes) with the
 * prover's key and writes the proof and the public signals as JSON (see
 * "Buffers" above).
 * Returns PROVER_OK, PROVER_ERROR_SHORT_BUFFER, PROVER_INVALID_WITNESS_LENGTH
 * or PROVER_ERROR.
 */
CUZK_API int
groth16_prover_prove(
    void                *prover_object,
    const void          *wtns_buffer,
    unsigned long long   wtns_size,
    char                *proof_buffer,
    unsigned long long  *proof_size,
    char                *public_buffer,
    unsigned long long  *public_size,
    char                *error_msg,
    unsigned long long   error_msg_maxsize);

/* Destroys a prover; NULL is ignored. No call with it may be in progress. */
CUZK_API void
groth16_prover_destroy(void *prover_object);

/*
 * groth16_prover_create, groth16_prover_prove and groth16_prover_destroy in
 * one call; the same codes as groth16_prover_prove.
 */
CUZK_API int
groth16_prover(
    const void          *zkey_buffer,
    unsigned long long   zkey_size,
    const void          *wtns_buffer,
    unsigned long long   wtns_size,
    char                *proof_buffer,
    unsigned long long  *proof_size,
    char                *public_buffer,
    unsigned long long  *public_size,
    char                *error_msg,
    unsigned long long   error_msg_maxsize);

/* The same with the key in the file zkey_file_path. */
CUZK_API int
groth16_prover_zkey_file(
    const char          *zkey_file_path,
    const void          *wtns_buffer,
    unsigned long long   wtns_size,
    char                *proof_buffer,
    unsigned long long  *proof_size,
    char                *public_buffer,
    unsigned long long  *public_size,
    char                *error_msg,
    unsigned long long   error_msg_maxsize);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_CUZK_H */
