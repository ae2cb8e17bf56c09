// harness/common/log.hpp — leveled logging to stderr, one line per message.
//
// The level is per Logger so that two daemons in one process (tests) can log
// differently; lines carry a prefix naming the daemon.
#pragma once

#include <string>
#include <string_view>

namespace harness {

enum class LogLevel { debug = 0, info = 1, warning = 2, error = 3 };

LogLevel parse_log_level(std::string_view text);  // unknown → info

class Logger {
public:
    explicit Logger(std::string prefix = {}, LogLevel level = LogLevel::info)
        : prefix_(std::move(prefix)), level_(level) {}
    void set_prefix(std::string prefix) { prefix_ = std::move(prefix); }
    void set_level(LogLevel level) { level_ = level; }
    bool enabled(LogLevel level) const { return level >= level_; }

    void log(LogLevel level, std::string_view message) const;
    void debug(std::string_view m) const { log(LogLevel::debug, m); }
    void info(std::string_view m) const { log(LogLevel::info, m); }
    void warning(std::string_view m) const { log(LogLevel::warning, m); }
    void error(std::string_view m) const { log(LogLevel::error, m); }

private:
    std::string prefix_;
    LogLevel level_;
};

}  // namespace harness
