// Who calls cuzkd, and what each caller may do (the rights table is in
// docs/SECURITY.md). Every call has one identity, its caller's name:
//   uid:N      on the Unix socket: the peer's uid (SO_PEERCRED) when it connected
//   cert:NAME  on TCP with a client certificate (tcp.tls_client_ca): its
//              common name, else its first subject alternative name
//   loopback   on a loopback TCP listener without a client certificate:
//              TCP carries no credentials, so every local process that can
//              connect is this one identity (the Unix socket tells users apart)
//   anonymous  on TLS off loopback without a client certificate
//              (tcp.allow_anonymous_clients): likewise one identity for all
// A job belongs to the name that submitted it: only that name and admins see
// it (Status), await it or cancel it; to anyone else it does not exist. A
// queue job belongs to its submitter's name in the fleet (Caller::in_fleet).
// Loading and evicting keys is an admin's right. Admins: [auth] admin_uids and
// admin_names, and root and cuzkd's own uid unless default_admins is false.
#pragma once

#include <grpcpp/grpcpp.h>
#include <sys/types.h>

#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "config.hpp"

namespace cuzk::daemon {

// A caller without the right to what it asked: PERMISSION_DENIED, with the
// one-line message (rpc_status.hpp).
class PermissionDenied : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The uid of each connection cuzkd accepted on its Unix socket, by the peer
// gRPC gives the calls that come on it.
//
// Why this map: a channel made from a descriptor (grpc::AddInsecureChannelFromFd)
// has no auth context (gRPC takes only insecure credentials for it), and its
// calls' peer is "fd:N", N the descriptor cuzkd accepted. The uid is read
// once, at accept, from that very connection, and recorded under N before
// gRPC has the descriptor, so that a call finds the connection it came on:
// gRPC keeps a connection's descriptor open while a call on it lives (the
// call holds its transport, which owns the descriptor), and a later
// connection given the same number replaces the entry before it can send a
// call. Reading SO_PEERCRED at call time instead would trust whatever N names
// at that moment (once closed, possibly the client end of cuzkd's own
// watchdog probe, which reads as cuzkd's uid: an admin).
class UnixPeers {
 public:
  // The connection on descriptor `fd`, from `uid`, about to go to gRPC.
  void accepted(int fd, uid_t uid);
  // The uid of a call's peer ("fd:N"); nullopt for any other peer.
  std::optional<uid_t> uid(const std::string& peer) const;

 private:
  mutable std::mutex mu_;
  std::unordered_map<int, uid_t> by_fd_;
};

struct Caller {
  std::string name;  // "uid:1000", "cert:alice", "loopback", "anonymous"
  bool admin = false;
  // Whether this caller may see, await and cancel a job of `owner`.
  bool may_see(const std::string& owner) const { return admin || owner == name; }
  // This caller as every host of a queue fleet names it, `host` being the
  // fleet's name for the cuzkd that accepted the call ([queue] host): a
  // certificate's name holds on every host (the fleet's CA signed it); a
  // uid, `loopback` or `anonymous` only on that host ("uid:1000@host-a").
  Caller in_fleet(const std::string& host) const;
};

class Authorizer {
 public:
  // `peers`: filled by the Unix socket's acceptor, and outliving this.
  Authorizer(const Config& config, const UnixPeers& peers);

  // The caller of a call; PermissionDenied for a peer cuzkd cannot name
  // (not one of its listeners').
  Caller caller(const grpc::ServerContext& ctx) const;
  // The caller, when an admin; PermissionDenied naming `right` otherwise.
  Caller admin(const grpc::ServerContext& ctx, const std::string& right) const;

 private:
  const UnixPeers& peers_;
  std::set<uid_t> admin_uids_;
  std::set<std::string> admin_names_;
  // The name of a TCP caller without a client certificate.
  std::string tcp_anonymous_;
};

}  // namespace cuzk::daemon
