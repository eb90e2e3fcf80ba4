/*
 * libcuzk: cuzk's C API (valid C and C++), in two parts: rapidsnark's
 * functions (first), and cuzk's own (prefix cuzk_, further down).
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

#include <stddef.h>
#include <stdint.h>

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

/* ------------------------------------------------------------------------
 * cuzk's own API (prefix cuzk_): one prover object holds keys of both
 * curves, loaded once and shared by every proof made with them, and proves
 * many witnesses at once through cuzk's pipeline (synthesis, GPU workers,
 * finalizers); submit returns at once, await collects the proofs with the
 * time each spent in each stage.
 *
 * Errors: every function returns a cuzk_status; on anything but CUZK_OK,
 * cuzk_last_error() gives a one-line message for the calling thread (kept
 * until that thread's next failing call). No C++ exception leaves these
 * functions; every pointer and size is checked (a NULL pointer where one is
 * required is CUZK_ERROR_INVALID_ARGUMENT).
 *
 * Threads: every function may be called from any thread. A prover may be
 * used by several threads at once (submit, await, prove, keys); destroying
 * it while another thread still uses it is the caller's error. A result
 * belongs to whoever awaited it.
 *
 * Strings handed out (a result's JSON and messages, cuzk_version) are
 * NUL-terminated and owned by the library: a result's until
 * cuzk_result_free, the others for the process's life.
 * ---------------------------------------------------------------------- */

typedef enum cuzk_status {
  CUZK_OK = 0,
  CUZK_ERROR_INVALID_ARGUMENT = 1,  /* malformed or mismatched input: a key, a witness (wrong curve, wrong
                                       length, truncated), an option, a NULL pointer */
  CUZK_ERROR_NOT_FOUND = 2,         /* no such file, key id or job id */
  CUZK_ERROR_UNSATISFIED = 3,       /* the witness does not satisfy the circuit (its proof did not verify) */
  CUZK_ERROR_RESOURCE_EXHAUSTED = 4, /* beyond the admission bounds, or out of host or device memory */
  CUZK_ERROR_CANCELLED = 5,         /* the job was cancelled */
  CUZK_ERROR_DEADLINE_EXCEEDED = 6, /* the job's deadline passed */
  CUZK_ERROR_UNAVAILABLE = 7,       /* no healthy GPU is left */
  CUZK_ERROR_INTERNAL = 8,          /* anything else */
  CUZK_ERROR_SHORT_BUFFER = 9,      /* a caller's buffer is too small: the size needed was written */
  CUZK_ERROR_TIMEOUT = 10           /* cuzk_await with a timeout: the job is not done yet (await again) */
} cuzk_status;

/* "0.1.0": the library's version. */
CUZK_API const char *cuzk_version(void);
/* The backends this build can run, comma-separated: "cpu" or "cpu,cuda". */
CUZK_API const char *cuzk_build_backends(void);
/* A short name of a status ("invalid_argument", ...); "unknown" for others. */
CUZK_API const char *cuzk_status_name(cuzk_status status);
/* The calling thread's message for its last call that failed ("" if none). */
CUZK_API const char *cuzk_last_error(void);

/*
 * Options of a prover. Fill with cuzk_options_init, then change fields:
 * struct_size lets later versions add fields at the end.
 */
typedef struct cuzk_options {
  size_t struct_size;          /* sizeof(cuzk_options), set by cuzk_options_init */
  const char *backend;         /* "auto" (or NULL): the GPUs when present, else the CPU; "cpu"; "cuda" */
  const int *gpus;             /* the GPUs to use (cuda), n_gpus of them; NULL: every GPU */
  size_t n_gpus;
  unsigned threads;            /* CPU threads of one CPU proof (0: all cores) */
  unsigned synthesis_threads;  /* witnesses read and a/b/c evaluated at once (0: the default, 2) */
  unsigned workers_per_gpu;    /* cuda: proofs in flight per GPU (0: the default, 2) */
  unsigned finalizer_threads;  /* proofs assembled and verified at once (0: the default, 1) */
  size_t max_pending_partitions; /* admission bound on witnesses queued or running (0: the default, 4096) */
  /* Added in 0.2: callers built against 0.1's header (a smaller struct_size) get the default. */
  size_t gpu_memory;           /* cuda: device bytes the prover may use on each GPU (0: what the GPU has free) */
} cuzk_options;

CUZK_API void cuzk_options_init(cuzk_options *options);

typedef struct cuzk_prover cuzk_prover;

/* Makes a prover (options NULL: the defaults) and stores it in *prover. */
CUZK_API cuzk_status cuzk_prover_create(const cuzk_options *options, cuzk_prover **prover);
/* Waits for the prover's jobs to finish, then destroys it; NULL is ignored. */
CUZK_API void cuzk_prover_destroy(cuzk_prover *prover);
/* Where the prover runs, e.g. "CPU, 1 worker" or "GPU 0: 2 workers each",
 * into buf (size bytes, NUL included); CUZK_ERROR_SHORT_BUFFER with
 * *needed set when it does not fit (needed may be NULL). */
CUZK_API cuzk_status cuzk_prover_describe(const cuzk_prover *prover, char *buf, size_t size, size_t *needed);

/*
 * Keys. A key is read and checked in full (every point on its curve, every
 * coefficient in range) and held in memory the prover owns, under an id of
 * at most CUZK_KEY_ID_MAX bytes (NUL included): the given one, or when id
 * is NULL the file's stem ("circuit" for circuit.zkey) or "zkey" for a
 * buffer. Loading under an id already in use replaces that key; jobs
 * already submitted keep the old one. The id used is written to id_out
 * when it is not NULL (CUZK_KEY_ID_MAX bytes).
 */
#define CUZK_KEY_ID_MAX 256
CUZK_API cuzk_status cuzk_key_load_file(cuzk_prover *prover, const char *zkey_path, const char *id, char *id_out);
CUZK_API cuzk_status cuzk_key_load_buffer(cuzk_prover *prover, const void *zkey, size_t zkey_size, const char *id,
                                          char *id_out);
/* Forgets a key (jobs using it keep it until they end); NOT_FOUND if unknown. */
CUZK_API cuzk_status cuzk_key_evict(cuzk_prover *prover, const char *id);

typedef struct cuzk_key_info {
  char curve[16];        /* "bn128" or "bls12381", as snarkjs names them */
  uint64_t n_vars;       /* the witness's length in signals (the constant 1 included) */
  uint64_t n_public;     /* public signals */
  uint64_t domain_size;  /* the evaluation domain: constraints and public inputs, rounded up to 2^k */
} cuzk_key_info;
CUZK_API cuzk_status cuzk_key_info_get(const cuzk_prover *prover, const char *id, cuzk_key_info *info);
/* The key's verification key as snarkjs's verification_key.json into buf
 * (size bytes, NUL included); CUZK_ERROR_SHORT_BUFFER with *needed set when
 * it does not fit (needed may be NULL). */
CUZK_API cuzk_status cuzk_key_export_vk(const cuzk_prover *prover, const char *id, char *buf, size_t size,
                                        size_t *needed);

/* One witness of a job: a .wtns file's bytes (copied by submit), or a path. */
typedef struct cuzk_witness {
  const void *data;  /* the bytes, or NULL to read path */
  size_t size;
  const char *path;  /* used when data is NULL */
} cuzk_witness;

typedef uint64_t cuzk_job;

/*
 * Submits a job of n witnesses (each a partition proved on its own) for the
 * key `key_id`, and stores its id in *job. priority: higher first; equal
 * ones in submission order. deadline_ms: the job fails its unfinished
 * witnesses with CUZK_ERROR_DEADLINE_EXCEEDED that many milliseconds from
 * now (0: none). Every witness is read and checked here (curve, length,
 * format): a bad one fails the submit, naming it.
 */
CUZK_API cuzk_status cuzk_submit(cuzk_prover *prover, const char *key_id, const cuzk_witness *witnesses, size_t n,
                                 int priority, uint64_t deadline_ms, cuzk_job *job);

typedef struct cuzk_result cuzk_result;

/*
 * Waits for a job (timeout_ms < 0: as long as it takes; otherwise at most
 * that long, then CUZK_ERROR_TIMEOUT and the job goes on) and hands its
 * result over, once: a second await of the same job is NOT_FOUND. A job
 * whose witnesses failed still returns CUZK_OK here; each witness's own
 * status is in the result.
 */
CUZK_API cuzk_status cuzk_await(cuzk_prover *prover, cuzk_job job, int64_t timeout_ms, cuzk_result **result);
/* Cancels a job: witnesses not yet proved fail with CUZK_ERROR_CANCELLED.
 * NOT_FOUND if the job is unknown or already awaited. */
CUZK_API cuzk_status cuzk_cancel(cuzk_prover *prover, cuzk_job job);

/* Seconds a witness spent in each stage of the pipeline. */
typedef struct cuzk_times {
  double queue;      /* submitted to synthesis start */
  double synthesis;  /* reading the witness (and evaluating a/b/c) */
  double prove;      /* waiting for a worker, upload and kernels (or the CPU proof) */
  double finish;     /* waiting for a finalizer, assembly and verification */
  double total;      /* submitted to done */
} cuzk_times;

/* One witness's outcome; its strings live as long as the result. */
typedef struct cuzk_proof {
  cuzk_status status;       /* CUZK_OK: the proof was made and verified */
  const char *error;        /* one line when status is not CUZK_OK, else "" */
  const char *proof_json;   /* snarkjs's proof.json when CUZK_OK, else "" */
  const char *public_json;  /* snarkjs's public.json when CUZK_OK, else "" */
  cuzk_times times;
} cuzk_proof;

/* The witnesses in a result, and witness i's outcome (i < count). */
CUZK_API size_t cuzk_result_count(const cuzk_result *result);
CUZK_API cuzk_status cuzk_result_get(const cuzk_result *result, size_t i, cuzk_proof *proof);
CUZK_API void cuzk_result_free(cuzk_result *result);

/*
 * One witness, submitted and awaited: the result holds one proof. Returns
 * the witness's own status; the result is stored whatever that is (its
 * message and times can be read; free it), except when the submit itself
 * fails (a malformed witness, an unknown key): then *result is NULL.
 */
CUZK_API cuzk_status cuzk_prove(cuzk_prover *prover, const char *key_id, const cuzk_witness *witness,
                                cuzk_result **result);

/*
 * Verifies a proof against a verification key, all three as snarkjs writes
 * them (verification_key.json, public.json, proof.json; NUL-terminated
 * strings). *valid is 1 when the proof verifies and 0 when it does not;
 * CUZK_ERROR_INVALID_ARGUMENT when a document is malformed (a point off its
 * curve or out of its subgroup, a value out of range, the wrong number of
 * public signals, a curve other than the key's).
 */
CUZK_API cuzk_status cuzk_verify(const char *vk_json, const char *public_json, const char *proof_json, int *valid);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_CUZK_H */
