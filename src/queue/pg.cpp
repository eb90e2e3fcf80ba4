#include "cuzk/queue/pg.hpp"

#include <poll.h>

#include <algorithm>
#include <cstring>

#include "libpq.hpp"

namespace cuzk::queue {

PgResult::PgResult(pg_result* r) : r_(r) {}
void PgResult::Free::operator()(pg_result* r) const { libpq().clear(r); }
size_t PgResult::rows() const { return (size_t)libpq().ntuples(r_.get()); }
bool PgResult::is_null(size_t row, int col) const { return libpq().getisnull(r_.get(), (int)row, col) != 0; }

std::string_view PgResult::value(size_t row, int col) const {
  return {libpq().getvalue(r_.get(), (int)row, col), (size_t)libpq().getlength(r_.get(), (int)row, col)};
}

int64_t PgResult::integer(size_t row, int col) const {
  const std::string_view v = value(row, col);
  if (libpq().fformat(r_.get(), col) == 0) return std::stoll(std::string(v));
  if (v.size() != 2 && v.size() != 4 && v.size() != 8)
    throw PgError("postgres: column " + std::to_string(col) + " is not an integer", "");
  uint64_t x = 0;
  for (char c : v) x = (x << 8) | (uint8_t)c;  // network byte order
  const unsigned shift = 64 - 8 * (unsigned)v.size();
  return (int64_t)(x << shift) >> shift;  // sign-extended
}

size_t PgResult::affected() const {
  const char* n = libpq().cmdTuples(r_.get());
  return *n ? std::stoull(n) : 0;
}

Pg::Pg(std::string conninfo) : conninfo_(std::move(conninfo)) { reconnect(); }

Pg::~Pg() {
  if (conn_) libpq().finish(conn_);
}

bool Pg::connected() const { return conn_ && libpq().status(conn_) == CONNECTION_OK; }

void Pg::reconnect() {
  if (conn_) libpq().finish(conn_);
  conn_ = libpq().connectdb(conninfo_.c_str());
  if (libpq().status(conn_) != CONNECTION_OK) throw error("connect");
  // Quiet: NOTICEs (CREATE ... IF NOT EXISTS) are not the caller's business.
  libpq().setNoticeProcessor(conn_, [](void*, const char*) {}, nullptr);
  std::vector<std::string> channels;
  channels.swap(channels_);
  for (const std::string& c : channels) listen(c);
}

PgError Pg::error(const char* what, pg_result* r) const {
  const char* state = r ? libpq().resultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
  std::string message = r ? libpq().resultErrorMessage(r) : (conn_ ? libpq().errorMessage(conn_) : "out of memory");
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  if (const size_t nl = message.find('\n'); nl != std::string::npos) message.resize(nl);  // one line
  // A statement on a dead connection fails without a SQLSTATE: "connection lost".
  std::string sqlstate = state ? state : "";
  if (!connected()) sqlstate.clear();
  return PgError(std::string("postgres ") + what + ": " + message, sqlstate);
}

PgResult Pg::exec(std::string_view sql, const std::vector<PgParam>& params, bool binary_results) {
  if (!connected()) throw PgError("postgres: not connected", "");
  // Text values go to libpq NUL-terminated (it ignores their lengths), so they
  // are copied; binary ones (BYTEA) are passed as they are, with their lengths.
  std::vector<std::string> text(params.size());
  std::vector<const char*> values(params.size());
  std::vector<int> lengths(params.size()), formats(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    if (!params[i].value) continue;  // NULL
    formats[i] = params[i].binary ? 1 : 0;
    lengths[i] = (int)params[i].value->size();
    values[i] = params[i].binary ? params[i].value->data() : (text[i] = *params[i].value).c_str();
  }
  const std::string statement(sql);
  pg_result* r = libpq().execParams(conn_, statement.c_str(), (int)params.size(), nullptr, values.data(), lengths.data(),
                              formats.data(), binary_results ? 1 : 0);
  const ExecStatusType status = r ? libpq().resultStatus(r) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    PgError e = error("statement", r);
    if (r) libpq().clear(r);
    throw e;
  }
  return PgResult(r);
}

bool Pg::listen(std::string_view channel) {
  if (std::find(channels_.begin(), channels_.end(), channel) != channels_.end()) return true;
  try {
    exec("LISTEN " + std::string(channel));
  } catch (const PgError& e) {
    if (e.connection_lost()) throw;
    return false;  // feature_not_supported and the like: poll instead
  }
  channels_.emplace_back(channel);
  return true;
}

void Pg::unlisten(std::string_view channel) {
  exec("UNLISTEN " + std::string(channel));
  std::erase(channels_, channel);
}

std::vector<PgNotification> Pg::wait_notifications(std::chrono::milliseconds timeout) {
  std::vector<PgNotification> out;
  const auto drain = [&] {
    if (!libpq().consumeInput(conn_)) throw error("wait");
    while (PGnotify* n = libpq().notifies(conn_)) {
      out.push_back({n->relname, n->extra});
      libpq().freemem(n);
    }
  };
  if (!connected()) throw PgError("postgres: not connected", "");
  drain();
  if (!out.empty()) return out;
  pollfd fd{libpq().socket(conn_), POLLIN, 0};
  if (::poll(&fd, 1, (int)timeout.count()) > 0) drain();
  return out;
}

}  // namespace cuzk::queue
