// The cuzk program as a client of cuzkd (built only where the build has the
// generated gRPC code, cuzk_proto; CUZK_HAVE_DAEMON_CLIENT):
//   - `cuzk client prove|submit|await|cancel|status|preload|evict`, one verb
//     per RPC of proto/cuzk/v1/prover.proto;
//   - `cuzk prove` and `cuzk prove-batch` with --daemon ADDR (or CUZK_DAEMON
//     set) send the work to cuzkd instead of proving here, and write the same
//     files with the same messages.
// The output contract is the CLI's (commands.hpp, output.hpp): files appear
// together or not at all, earlier outputs are removed first, and every error
// is one "error: ..." line (client_connection.hpp maps gRPC codes to exit
// statuses 2 and 1).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "client_connection.hpp"
#include "commands.hpp"

namespace CLI {
class App;
}

namespace cuzk::cli {

// Adds the `client` command and its verbs (setting `run` when one is chosen),
// and --daemon and --tls-ca to prove and prove-batch. Call it after those two
// are added.
void add_client_commands(CLI::App& app, std::function<int()>& run);

// The daemon that `command` ("prove" or "prove-batch") sends its work to:
// --daemon, else CUZK_DAEMON; nullopt: prove here. Options that only a local
// run uses (--backend, --threads, --gpus, the engine's flags, --trace) are an
// std::invalid_argument together with a daemon: cuzkd chooses those.
std::optional<DaemonAddress> daemon_for(const std::string& command);

// cuzk prove through cuzkd: the key is preloaded by path (on the daemon's
// host) under an id made from its absolute path, size and modification time,
// unless the daemon holds it already; the witness's bytes are sent.
int prove_on_daemon(const DaemonAddress& daemon, const std::string& zkey, const std::string& wtns,
                    const std::string& proof, const std::string& pub, const ProveOptions& opts);

// cuzk prove-batch through cuzkd, once prove_batch has checked and cleared
// `outputs` (proof and public file of each witness, in turn): one job per
// witness, so that a bad witness fails alone.
int prove_batch_on_daemon(const DaemonAddress& daemon, const std::string& zkey, const std::vector<std::string>& wtns,
                          const std::vector<std::filesystem::path>& outputs, const BatchOptions& opts);

}  // namespace cuzk::cli
