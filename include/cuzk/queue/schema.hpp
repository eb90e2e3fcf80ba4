// The job queue's tables, versioned: migrate() brings a database to this
// build's version, one migration per transaction, safely when several cuzkd
// start at once (the version row is locked while a migration runs). The
// tables are an interface as much as the code is: docs/QUEUE.md describes them
// for those who submit or read with SQL.
#pragma once

#include "cuzk/queue/pg.hpp"

namespace cuzk::queue {

// The schema version this build writes and reads.
int schema_version();

// Applies the migrations the database lacks, up to `version` (an older one
// only for a test of a later migration); returns its version before. Throws
// PgError, std::invalid_argument for a version this build does not know, or
// std::runtime_error when the database is newer than this build.
int migrate(Pg& db, int version = schema_version());

// The database's version (0: never migrated); throws when it is not this
// build's, saying which to run: `cuzk db migrate` or a newer cuzk.
void require_schema(Pg& db);

}  // namespace cuzk::queue
