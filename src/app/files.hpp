// Files the app keeps for the user: where they live and how they are written without loss.
#pragma once

#include <optional>
#include <string>

namespace m2m::app {

/// $XDG_CONFIG_HOME/math-to-metal, else ~/.config/math-to-metal.
std::string config_dir();

/// Reads a whole file; nullopt and `error` set when it cannot (missing, a directory, unreadable).
std::optional<std::string> read_file(const std::string& path, std::string& error);

/// Writes `text` to a temporary file beside `path`, flushes it, then renames it over `path`:
/// a full disk or a crash leaves the old file whole. Creates the folder if needed.
/// Returns an empty string on success, else what went wrong.
std::string write_file_atomically(const std::string& path, const std::string& text);

}  // namespace m2m::app
