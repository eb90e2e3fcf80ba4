// libpq's functions, loaded with the first connection (dlopen) instead of at
// every process's start: libpq and the 25 libraries it pulls in (Kerberos,
// LDAP, GnuTLS) cost each cuzk process 2.2 ms to map and initialise, and only
// the job queue's commands use them (docs/PERFORMANCE.md).
#pragma once

#include <libpq-fe.h>

namespace cuzk::queue {

// X(name) for each PQname that pg.cpp calls.
#define CUZK_LIBPQ_FUNCTIONS(X)                                                                                \
  X(clear) X(cmdTuples) X(connectdb) X(consumeInput) X(errorMessage) X(execParams) X(fformat) X(finish)        \
  X(freemem) X(getisnull) X(getlength) X(getvalue) X(notifies) X(ntuples) X(resultErrorField)                  \
  X(resultErrorMessage) X(resultStatus) X(setNoticeProcessor) X(socket) X(status)

struct LibPq {
#define CUZK_LIBPQ_MEMBER(name) decltype(&PQ##name) name = nullptr;
  CUZK_LIBPQ_FUNCTIONS(CUZK_LIBPQ_MEMBER)
#undef CUZK_LIBPQ_MEMBER
};

// Loads libpq once: libpq.so.5 as the dynamic loader finds it, else the
// library the build was configured with. Throws std::runtime_error naming
// what is missing (not a PgError: no reconnection cures it).
const LibPq& libpq();

}  // namespace cuzk::queue
