// The fleet of a PostgreSQL job queue as the status page shows it
// (status_page.hpp; queue mode only): Queue::fleet() over a connection of its
// own, made again on the next call after a failure.
#pragma once

#include <string>

#include "status_page.hpp"

namespace cuzk::daemon {

// {"partitions": {state: count}, "hosts": [{host, claimed, proofs_last_minute,
// proofs}], "partitions_with_failed_attempts", "failed_attempts"}, or
// {"error": message} when the queue does not answer.
StatusPage::FleetSource fleet_source(std::string conninfo);

}  // namespace cuzk::daemon
