// One PostgreSQL connection through libpq: parameterised statements, results
// read as text or binary, and errors as exceptions that carry the SQLSTATE, so
// that a caller can tell a lost connection (class 08, or libpq's own "no
// connection") from a conflict or a constraint. Only what the job queue needs,
// and only PostgreSQL that YugabyteDB's YSQL also speaks (docs/QUEUE.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct pg_conn;
struct pg_result;

namespace cuzk::queue {

class PgError : public std::runtime_error {
 public:
  PgError(const std::string& message, std::string sqlstate) : std::runtime_error(message), sqlstate_(std::move(sqlstate)) {}
  // Five characters ("40001", "23505", ...), or empty where libpq itself failed.
  const std::string& sqlstate() const { return sqlstate_; }
  // The connection is gone (or was never made): reconnect and retry is the cure.
  bool connection_lost() const { return sqlstate_.empty() || sqlstate_.starts_with("08") || sqlstate_ == "57P01"; }
  // A transaction lost a race (serialization failure, deadlock): retry it.
  bool conflict() const { return sqlstate_ == "40001" || sqlstate_ == "40P01"; }

 private:
  std::string sqlstate_;
};

// A statement's parameter: text (numbers, names, JSON) or binary (BYTEA), or NULL.
struct PgParam {
  std::optional<std::string_view> value;
  bool binary = false;
  static PgParam text(std::string_view v) { return {v, false}; }
  static PgParam bytes(std::string_view v) { return {v, true}; }
  static PgParam null() { return {std::nullopt, false}; }
};

class PgResult {
 public:
  explicit PgResult(pg_result* r);
  size_t rows() const;
  bool is_null(size_t row, int col) const;
  // The value's bytes: text, or the binary form where the statement asked for it.
  std::string_view value(size_t row, int col) const;
  std::string text(size_t row, int col) const { return std::string(value(row, col)); }
  // An integer column in either format (int2/int4/int8 when binary).
  int64_t integer(size_t row, int col) const;
  // Rows an UPDATE/INSERT/DELETE touched.
  size_t affected() const;

 private:
  struct Free {
    void operator()(pg_result* r) const;
  };
  std::unique_ptr<pg_result, Free> r_;
};

struct PgNotification {
  std::string channel, payload;
};

class Pg {
 public:
  // Connects (conninfo: a postgres:// URL or "key=value ..."); throws PgError.
  explicit Pg(std::string conninfo);
  ~Pg();
  Pg(const Pg&) = delete;
  Pg& operator=(const Pg&) = delete;

  // One statement with $1.. parameters; throws PgError on any failure.
  // binary_results: every column comes back in binary (BYTEA without hex).
  PgResult exec(std::string_view sql, const std::vector<PgParam>& params = {}, bool binary_results = false);

  // fn() between BEGIN and COMMIT; ROLLBACK when it throws. A conflict
  // (serialization failure, deadlock) is retried up to 5 times.
  template <class F>
  decltype(auto) transaction(F&& fn);

  // LISTEN on a channel (once: a channel listened to already is not asked
  // again); false where the server has no LISTEN/NOTIFY (YugabyteDB before
  // 2025.2.3), and the caller then polls.
  bool listen(std::string_view channel);
  void unlisten(std::string_view channel);
  // Notifications received within `timeout` (none on a timeout).
  std::vector<PgNotification> wait_notifications(std::chrono::milliseconds timeout);

  // Drops the connection and makes a new one (LISTENs are made again).
  void reconnect();
  bool connected() const;

 private:
  PgError error(const char* what, pg_result* r = nullptr) const;
  std::string conninfo_;
  pg_conn* conn_ = nullptr;
  std::vector<std::string> channels_;
};

template <class F>
decltype(auto) Pg::transaction(F&& fn) {
  for (int attempt = 1;; ++attempt) {
    exec("BEGIN");
    try {
      if constexpr (std::is_void_v<decltype(fn())>) {
        fn();
        exec("COMMIT");
        return;
      } else {
        auto r = fn();
        exec("COMMIT");
        return r;
      }
    } catch (const PgError& e) {
      if (!e.connection_lost()) exec("ROLLBACK");
      if (!e.conflict() || attempt == 5) throw;
    } catch (...) {
      exec("ROLLBACK");
      throw;
    }
  }
}

}  // namespace cuzk::queue
