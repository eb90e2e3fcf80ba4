// A Unix socket's address for the tests' own sockets (cuzkd's, PostgreSQL's).
// sun_path holds 107 bytes and a NUL: a longer path would be cut, and the
// socket bound or reached at another name, so it is refused here with the
// path and what to shorten (the temporary folder is $TMPDIR's).
#pragma once

#include <sys/socket.h>
#include <sys/un.h>

#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace cuzk::test {

inline void require_socket_path_fits(const std::filesystem::path& path) {
  if (path.native().size() < sizeof(sockaddr_un{}.sun_path)) return;
  throw std::length_error("the Unix socket path " + path.native() + " is " + std::to_string(path.native().size()) +
                          " bytes, more than sun_path's " + std::to_string(sizeof(sockaddr_un{}.sun_path) - 1) +
                          ": set TMPDIR to a shorter folder");
}

inline sockaddr_un unix_address(const std::filesystem::path& path) {
  require_socket_path_fits(path);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.c_str(), path.native().size() + 1);
  return addr;
}

}  // namespace cuzk::test
