// cuzk db: the PostgreSQL job queue, straight to the database (queue_commands.cpp).
#pragma once

#include <functional>

namespace CLI {
class App;
}

namespace cuzk::cli {

// Adds `db` and its verbs (migrate, submit, await, status), setting `run`.
void add_queue_commands(CLI::App& app, std::function<int()>& run);

}  // namespace cuzk::cli
