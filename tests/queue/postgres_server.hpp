// A real PostgreSQL server for the queue's tests, from Debian's packages
// (postgresql; scripts/setup.sh installs it): initdb into a private directory,
// the server listening only on a Unix socket there, trust authentication for
// the one user. PostgreSQL refuses to run as root, so as root (CI) the data
// directory belongs to `nobody` and the server runs as that user (setpriv).
#pragma once

#include <filesystem>
#include <string>

namespace cuzk::test {

class PostgresServer {
 public:
  PostgresServer();  // initdb + start; throws with the server's log on failure
  ~PostgresServer();  // stops it (immediate) and removes the directory
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

  // libpq's conninfo for the server's database.
  std::string conninfo() const;
  void stop();   // fast shutdown: clients see their connections end
  void start();
  // Whether the binaries were found (tests skip with the reason where not).
  static bool available(std::string* why);

 private:
  void run(const std::string& command) const;
  std::filesystem::path dir_;
  bool as_nobody_ = false;
  bool running_ = false;
};

}  // namespace cuzk::test
