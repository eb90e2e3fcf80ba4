// cuzkd's command line (CLI11). Every flag has a configuration key; a flag
// given on the command line overrides the file's value, and is applied again
// whenever SIGHUP re-reads the file.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

#include "config.hpp"

namespace cuzk::daemon {

class Flags {
 public:
  Flags();
  // Parses argv. Returns an exit status when the program should stop now
  // (--help: 0; a bad flag: 2, after one "error: ..." line), else nullopt.
  std::optional<int> parse(int argc, char** argv);

  // The configuration: the file's (or the defaults), then the flags given.
  Config load() const;

  std::filesystem::path config_file;
  bool check_only = false;  // --check: validate the configuration and exit

 private:
  CLI::App app_;
  std::vector<std::function<void(Config&)>> apply_;
};

}  // namespace cuzk::daemon
