// Outputs named on the command line. A command that fails leaves no output
// behind, not even an older file at the same path that a script ignoring the
// exit status would take for this run's (make's .DELETE_ON_ERROR): proving
// commands remove the JSON files they are about to write before they start.
// They remove only JSON files, never a key or witness named there by mistake.
#pragma once

#include <filesystem>

namespace cuzk::cli {

// Removes `output` if it is an earlier JSON file (or empty); `what` names the
// content for messages ("proof.json"). Refuses, before any work, a directory
// (std::runtime_error) and a file of another kind (std::invalid_argument).
void remove_stale_json(const std::filesystem::path& output, const char* what);

}  // namespace cuzk::cli
