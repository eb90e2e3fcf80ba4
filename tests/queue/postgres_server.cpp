#include "postgres_server.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "unix_socket.hpp"

namespace fs = std::filesystem;

namespace cuzk::test {

namespace {

// Debian installs the server's programs under /usr/lib/postgresql/<major>/bin.
fs::path bin_dir() {
  std::error_code ec;
  fs::path best;
  for (const auto& e : fs::directory_iterator("/usr/lib/postgresql", ec))
    if (fs::exists(e.path() / "bin" / "pg_ctl") && (best.empty() || e.path() > best)) best = e.path() / "bin";
  return best;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

bool PostgresServer::available(std::string* why) {
  if (!bin_dir().empty()) return true;
  if (why) *why = "no PostgreSQL server under /usr/lib/postgresql (scripts/setup.sh installs Debian's postgresql)";
  return false;
}

PostgresServer::PostgresServer() {
  std::string tmpl = (fs::temp_directory_path() / "cuzk-pg-XXXXXX").string();
  require_socket_path_fits(fs::path(tmpl) / ".s.PGSQL.5432");
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  dir_ = tmpl;
  as_nobody_ = ::geteuid() == 0;
  if (as_nobody_) run("chown nobody:nogroup " + dir_.string());
  run(bin_dir().string() + "/initdb -D " + (dir_ / "data").string() +
      " -U cuzk --auth=trust -E UTF8 --no-sync > " + (dir_ / "initdb.log").string() + " 2>&1");
  start();
}

PostgresServer::~PostgresServer() {
  try {
    if (running_) run(bin_dir().string() + "/pg_ctl -D " + (dir_ / "data").string() + " -m immediate -w stop > /dev/null 2>&1");
  } catch (...) {
  }
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

std::string PostgresServer::conninfo() const { return "host=" + dir_.string() + " port=5432 user=cuzk dbname=postgres"; }

void PostgresServer::start() {
  // Only the Unix socket in the private directory: no port to collide with;
  // fsync off, as the data is thrown away.
  run(bin_dir().string() + "/pg_ctl -D " + (dir_ / "data").string() + " -l " + (dir_ / "server.log").string() +
      " -w -t 60 -o \"-k " + dir_.string() + " -c listen_addresses= -c fsync=off -c max_connections=200\" start > /dev/null");
  running_ = true;
}

void PostgresServer::stop() {
  run(bin_dir().string() + "/pg_ctl -D " + (dir_ / "data").string() + " -m fast -w stop > /dev/null");
  running_ = false;
}

void PostgresServer::run(const std::string& command) const {
  const std::string full = as_nobody_ && command.rfind("chown", 0) != 0
                               ? "setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c '" + command + "'"
                               : command;
  if (std::system(full.c_str()) != 0)
    throw std::runtime_error("postgres test server: `" + command + "` failed\n" + read_text(dir_ / "initdb.log") +
                             read_text(dir_ / "server.log"));
}

}  // namespace cuzk::test
