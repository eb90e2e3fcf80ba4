#include "cuzk/service/daemon_socket.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace cuzk::service {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSocketName = "cuzkd.sock";

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// Where the default socket's folder comes from.
enum class Home {
  service,  // $RUNTIME_DIRECTORY: systemd made it for this service
  system,   // /run/cuzk, for root
  user,     // a folder of the user's own, which must stay private
};

std::pair<fs::path, Home> socket_dir(const SocketEnvironment& e) {
  if (!e.runtime_directory.empty()) return {e.runtime_directory, Home::service};
  if (e.uid == 0) return {kSystemSocket.parent_path(), Home::system};
  if (!e.xdg_runtime_dir.empty()) return {fs::path(e.xdg_runtime_dir) / "cuzk", Home::user};
  return {fs::path(e.tmpdir.empty() ? "/tmp" : e.tmpdir) / ("cuzk-" + std::to_string(e.uid)), Home::user};
}

std::string octal(mode_t mode) {
  char s[8];
  std::snprintf(s, sizeof s, "%04o", unsigned(mode & 07777));
  return s;
}

// Why `dir` (lstat'ed as `st`) cannot hold the socket; empty when it can.
std::string refusal(const fs::path& dir, const struct stat& st, Home home, uid_t uid) {
  if (!S_ISDIR(st.st_mode)) return dir.string() + ": not a directory";
  if (home != Home::user) return "";
  if (st.st_uid != uid)
    return dir.string() + ": owned by uid " + std::to_string(st.st_uid) + ", not by you (uid " + std::to_string(uid) +
           "), so another user may have made it to plant cuzkd's socket; remove it or give --listen";
  if (st.st_mode & 022)
    return dir.string() + ": mode " + octal(st.st_mode) +
           " lets others write there (plant a socket); chmod 700 it or give --listen";
  return "";
}

}  // namespace

SocketEnvironment SocketEnvironment::current() {
  SocketEnvironment e;
  e.uid = ::geteuid();
  e.runtime_directory = env("RUNTIME_DIRECTORY");
  // systemd separates several RuntimeDirectory= folders by ':'.
  e.runtime_directory = e.runtime_directory.substr(0, e.runtime_directory.find(':'));
  e.xdg_runtime_dir = env("XDG_RUNTIME_DIR");
  e.tmpdir = env("TMPDIR");
  return e;
}

fs::path default_socket(const SocketEnvironment& env) { return socket_dir(env).first / kSocketName; }

void prepare_default_socket_dir(bool create, const SocketEnvironment& env) {
  const auto [dir, home] = socket_dir(env);
  struct stat st{};
  if (::lstat(dir.c_str(), &st) != 0) {
    if (errno != ENOENT) throw std::runtime_error(dir.string() + ": " + std::strerror(errno));
    if (home == Home::service) throw std::runtime_error(dir.string() + " ($RUNTIME_DIRECTORY): no such directory");
    if (!create) {
      const fs::path parent = dir.parent_path();
      if (::access(parent.c_str(), W_OK | X_OK) != 0)
        throw std::runtime_error(dir.string() + ": cannot be made: " + parent.string() + ": " + std::strerror(errno));
      return;
    }
    if (::mkdir(dir.c_str(), home == Home::user ? 0700 : 0755) != 0 && errno != EEXIST)
      throw std::runtime_error(dir.string() + ": cannot make it: " + std::strerror(errno));
    // Made here or, in a race, by another process: checked the same way.
    if (::lstat(dir.c_str(), &st) != 0) throw std::runtime_error(dir.string() + ": " + std::strerror(errno));
  }
  if (const std::string why = refusal(dir, st, home, env.uid); !why.empty()) throw std::runtime_error(why);
}

std::vector<fs::path> client_socket_candidates(const SocketEnvironment& env) {
  std::vector<fs::path> c{default_socket(env)};
  if (c.front() != kSystemSocket) c.push_back(kSystemSocket);
  return c;
}

std::optional<fs::path> find_default_socket(const SocketEnvironment& env) {
  const fs::path own = default_socket(env);
  for (const fs::path& sock : client_socket_candidates(env)) {
    struct stat st{};
    if (::stat(sock.c_str(), &st) != 0 || !S_ISSOCK(st.st_mode)) continue;
    if (sock == own) {
      // The user's own folder must pass the same check as cuzkd's.
      const auto [dir, home] = socket_dir(env);
      struct stat d{};
      if (::lstat(dir.c_str(), &d) != 0 || !refusal(dir, d, home, env.uid).empty()) continue;
    }
    return sock;
  }
  return std::nullopt;
}

}  // namespace cuzk::service
