// Reading and atomically writing the user's files (settings, scenarios, exports).
#include "app/files.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace m2m::app {

namespace fs = std::filesystem;

std::string config_dir() {
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::string(xdg) + "/math-to-metal";
    if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.config/math-to-metal";
    return ".math-to-metal";
}

std::optional<std::string> read_file(const std::string& path, std::string& error) {
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        error = path + " does not exist";
        return std::nullopt;
    }
    if (!fs::is_regular_file(path, ec)) {
        error = path + " is not a regular file";
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot read " + path + ": " + std::strerror(errno);
        return std::nullopt;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string write_file_atomically(const std::string& path, const std::string& text) {
    std::error_code ec;
    const fs::path target(path);
    if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
    if (ec) return "cannot create the folder " + target.parent_path().string() + ": " + ec.message();
    if (fs::is_directory(target, ec)) return path + " is a folder, not a file; nothing was written";
    const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) return "cannot write " + tmp + ": " + std::strerror(errno);
    const bool wrote = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    const bool flushed = std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
    const int saved_errno = errno;
    const bool closed = std::fclose(f) == 0;
    if (!wrote || !flushed || !closed) {
        std::remove(tmp.c_str());
        return "could not write " + path + " (" + std::strerror(saved_errno ? saved_errno : EIO) +
               "); the previous file is unchanged";
    }
    fs::rename(tmp, target, ec);
    if (ec) {
        std::remove(tmp.c_str());
        return "could not replace " + path + ": " + ec.message() + "; the previous file is unchanged";
    }
    return {};
}

}  // namespace m2m::app
