// cuzk's own words for a command line CLI11 refuses: the option, the value and
// what is accepted, the nearest option for a typo, a short usage for no
// command at all. CLI11's messages name its internals ("Check gpu value in
// {auto->0,...} OR {0,1,2} FAILED", "Could not convert: job-id = x").
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace cuzk::cli {

// Accepts one of `accepted` (in any case where any_case): "\"gpu\" is not one
// of auto, cpu, cuda" otherwise.
CLI::Validator one_of(std::vector<std::string> accepted, bool any_case = false);

// A number from `min` to `max`: "5000 is out of range (0 to 4096)" otherwise.
CLI::Validator within(long long min, long long max);

// The one line for a refused command line (without "error: ").
std::string parse_error_message(const CLI::App& app, const CLI::ParseError& e);

// What `cuzk` alone prints: the commands, one line each, and where help is.
std::string short_usage(const CLI::App& app);

}  // namespace cuzk::cli
