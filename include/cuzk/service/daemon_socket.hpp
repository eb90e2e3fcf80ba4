// Where cuzkd's Unix socket lies when no address is given, and where the
// clients look for it then: one rule for both, so that `cuzkd &` followed by
// `cuzk client status` meet without an address.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cuzk::service {

// What the rule reads from the process.
struct SocketEnvironment {
  uid_t uid = 0;
  std::string runtime_directory;  // $RUNTIME_DIRECTORY: systemd's RuntimeDirectory= (the first of several)
  std::string xdg_runtime_dir;    // $XDG_RUNTIME_DIR
  std::string tmpdir;             // $TMPDIR
  static SocketEnvironment current();
};

// The socket of cuzkd run as root or by the packaged systemd unit.
inline const std::filesystem::path kSystemSocket = "/run/cuzk/cuzkd.sock";

// The default socket, cuzkd.sock in the first of:
//   $RUNTIME_DIRECTORY                  under systemd (the unit's RuntimeDirectory=cuzk: /run/cuzk)
//   /run/cuzk                           for root
//   $XDG_RUNTIME_DIR/cuzk               for a user with a login session
//   $TMPDIR/cuzk-<uid> (TMPDIR: /tmp)   for any other user
std::filesystem::path default_socket(const SocketEnvironment& env = SocketEnvironment::current());

// Makes sure the default socket's folder can take cuzkd's socket:
// `create` makes a missing one (0700 for a user's, 0755 for /run/cuzk);
// without it (cuzkd --check) a missing one passes where its parent lets it
// be made. A user's folder must be a directory (not a link) owned by the
// user that no one else may write to: in a shared /tmp another user could
// otherwise make it first and plant a socket that clients would send their
// witnesses to. std::runtime_error with one line when it cannot be used.
void prepare_default_socket_dir(bool create, const SocketEnvironment& env = SocketEnvironment::current());

// What a client tries when given no address: the user's own default socket,
// then the system's (once, where they are the same file).
std::vector<std::filesystem::path> client_socket_candidates(const SocketEnvironment& env = SocketEnvironment::current());

// The first candidate that exists as a socket in a folder that passes the
// check above; nullopt when none does.
std::optional<std::filesystem::path> find_default_socket(const SocketEnvironment& env = SocketEnvironment::current());

}  // namespace cuzk::service
