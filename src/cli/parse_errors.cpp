#include "parse_errors.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>
#include <regex>

namespace cuzk::cli {

namespace {

bool same_ignoring_case(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower((unsigned char)x) == std::tolower((unsigned char)y);
         });
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

// Edits (insert, delete, replace) from a to b: how near a typo is.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The command the words name ("cuzk client await"), the last one parsed.
const CLI::App* chosen_command(const CLI::App& app, std::string& path) {
  const CLI::App* cmd = &app;
  path = "cuzk";
  for (auto subs = cmd->get_subcommands(); !subs.empty(); subs = cmd->get_subcommands()) {
    cmd = subs.front();
    path += " " + cmd->get_name();
  }
  return cmd;
}

// The nearest of `cmd`'s long options to `typed`, if a typo away (at most a
// third of its letters wrong), else "".
std::string nearest_option(const CLI::App& cmd, const std::string& typed) {
  std::string best;
  size_t best_distance = typed.size() / 3 + 1;
  for (const CLI::Option* opt : cmd.get_options()) {
    for (const std::string& name : opt->get_lnames()) {
      const size_t d = edit_distance(typed, "--" + name);
      if (d < best_distance) best_distance = d, best = "--" + name;
    }
  }
  return best;
}

std::string unexpected(const CLI::App& cmd, const std::string& path, const std::vector<std::string>& extras) {
  for (const std::string& arg : extras) {
    if (arg.size() < 2 || arg[0] != '-') continue;
    const std::string typed = arg.substr(0, arg.find('='));
    const std::string near = nearest_option(cmd, typed);
    return path + ": unknown option " + typed + (near.empty() ? "" : " (did you mean " + near + "?)") + " (" + path +
           " --help lists them)";
  }
  return path + ": unexpected argument \"" + extras.front() + "\" (" + path + " --help says what it takes)";
}

std::vector<const CLI::App*> all_commands(const CLI::App& app) {
  return app.get_subcommands(std::function<bool(const CLI::App*)>{});
}

}  // namespace

CLI::Validator one_of(std::vector<std::string> accepted, bool any_case) {
  const std::string list = joined(accepted);
  return CLI::Validator(
      [accepted, list, any_case](std::string& value) -> std::string {
        for (const auto& a : accepted)
          if (any_case ? same_ignoring_case(a, value) : a == value) return {};
        return "\"" + value + "\" is not one of " + list;
      },
      "{" + list + "}");
}

CLI::Validator within(long long min, long long max) {
  return CLI::Validator(
      [min, max](std::string& value) -> std::string {
        long long v = 0;
        const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
        if (value.empty() || end != value.data() + value.size() || ec == std::errc::invalid_argument)
          return "\"" + value + "\" is not a whole number";
        if (ec == std::errc::result_out_of_range || v < min || v > max)
          return value + " is out of range (" + std::to_string(min) + " to " + std::to_string(max) + ")";
        return {};
      },
      std::to_string(min) + " to " + std::to_string(max));
}

std::string parse_error_message(const CLI::App& app, const CLI::ParseError& e) {
  std::string path;
  const CLI::App* cmd = chosen_command(app, path);
  const std::vector<std::string> extras = app.remaining(true);
  // No command, or a mistyped one: CLI11 says only that one is required.
  if (cmd == &app) {
    std::vector<std::string> names;
    for (const CLI::App* sub : all_commands(app)) names.push_back(sub->get_name());
    if (!extras.empty() && extras.front()[0] != '-')
      return "unknown command \"" + extras.front() + "\"; the commands are " + joined(names);
    if (dynamic_cast<const CLI::RequiredError*>(&e)) return "a command comes first; the commands are " + joined(names);
  }
  if (dynamic_cast<const CLI::ExtrasError*>(&e) && !extras.empty()) return unexpected(*cmd, path, extras);
  // A value that is not of the option's type, where no check ran before the
  // conversion: "Could not convert: NAME = VALUE".
  static const std::regex conversion("Could not convert: (.+) = (.*)");
  std::smatch m;
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ConversionError*>(&e) && std::regex_match(what, m, conversion))
    return path + ": " + m[1].str() + " \"" + m[2].str() + "\" is not a valid value";
  return path == "cuzk" ? what : path + ": " + what;
}

std::string short_usage(const CLI::App& app) {
  std::string out = "usage: cuzk <command> [options]   (cuzk <command> --help for each)\ncommands:\n";
  for (const CLI::App* sub : all_commands(app)) {
    std::string line = sub->get_description();
    line = line.substr(0, line.find_first_of(":.\n"));
    out += "  " + sub->get_name() + std::string(sub->get_name().size() < 12 ? 12 - sub->get_name().size() : 1, ' ') +
           line + "\n";
  }
  return out;
}

}  // namespace cuzk::cli
