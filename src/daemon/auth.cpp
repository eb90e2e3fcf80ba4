#include "auth.hpp"

#include <grpc/grpc_security_constants.h>
#include <unistd.h>

#include <charconv>

namespace cuzk::daemon {

void UnixPeers::accepted(int fd, uid_t uid) {
  std::lock_guard lock(mu_);
  by_fd_[fd] = uid;
}

std::optional<uid_t> UnixPeers::uid(const std::string& peer) const {
  constexpr std::string_view kPrefix = "fd:";
  if (peer.rfind(kPrefix, 0) != 0) return std::nullopt;
  int fd = -1;
  const char* end = peer.data() + peer.size();
  const auto [at, ec] = std::from_chars(peer.data() + kPrefix.size(), end, fd);
  if (ec != std::errc() || at != end) return std::nullopt;
  std::lock_guard lock(mu_);
  const auto it = by_fd_.find(fd);
  if (it == by_fd_.end()) return std::nullopt;
  return it->second;
}

Caller Caller::in_fleet(const std::string& host) const {
  return {name.starts_with("cert:") ? name : name + "@" + host, admin};
}

Authorizer::Authorizer(const Config& config, const UnixPeers& peers)
    : peers_(peers),
      admin_uids_(config.auth.admin_uids.begin(), config.auth.admin_uids.end()),
      admin_names_(config.auth.admin_names.begin(), config.auth.admin_names.end()),
      tcp_anonymous_(!config.tcp.address.empty() && is_loopback(config.tcp.address) ? "loopback" : "anonymous") {
  if (config.auth.default_admins) admin_uids_.insert({uid_t(0), ::geteuid()});
}

Caller Authorizer::caller(const grpc::ServerContext& ctx) const {
  const std::string peer = ctx.peer();
  if (const auto uid = peers_.uid(peer)) return {"uid:" + std::to_string(*uid), admin_uids_.count(*uid) > 0};
  if (peer.rfind("ipv4:", 0) != 0 && peer.rfind("ipv6:", 0) != 0)
    throw PermissionDenied("cannot tell who is calling (peer " + peer + ")");
  const auto auth = ctx.auth_context();
  if (!auth || !auth->IsPeerAuthenticated()) return {tcp_anonymous_, false};
  // A verified certificate: the CA is the operator's, so the name it signed
  // is the client's.
  auto names = auth->FindPropertyValues(GRPC_X509_CN_PROPERTY_NAME);
  if (names.empty()) names = auth->FindPropertyValues(GRPC_X509_SAN_PROPERTY_NAME);
  if (names.empty() || names.front().empty()) throw PermissionDenied("the client certificate names no one (no CN or SAN)");
  const std::string name(names.front().data(), names.front().size());
  return {"cert:" + name, admin_names_.count(name) > 0};
}

Caller Authorizer::admin(const grpc::ServerContext& ctx, const std::string& right) const {
  Caller c = caller(ctx);
  if (!c.admin)
    throw PermissionDenied(right + " is an admin's right, and " + c.name +
                           " is not an admin ([auth] admin_uids, admin_names)");
  return c;
}

}  // namespace cuzk::daemon
