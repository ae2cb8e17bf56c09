#include <harness/common/log.hpp>

#include <chrono>
#include <cstdio>
#include <ctime>

namespace harness {

LogLevel parse_log_level(std::string_view text) {
    if (text == "debug") return LogLevel::debug;
    if (text == "warning" || text == "warn") return LogLevel::warning;
    if (text == "error") return LogLevel::error;
    return LogLevel::info;
}

void Logger::log(LogLevel level, std::string_view message) const {
    if (!enabled(level)) return;
    static const char *const names[] = {"debug", "info", "warning", "error"};
    auto now = std::chrono::system_clock::now();
    auto t = std::chrono::system_clock::to_time_t(now);
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm tm{};
    gmtime_r(&t, &tm);
    char stamp[32];
    std::snprintf(stamp, sizeof stamp, "%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
    // One fprintf per line keeps lines whole when several threads log.
    std::fprintf(stderr, "%s %s%s%s: %.*s\n", stamp, prefix_.c_str(), prefix_.empty() ? "" : " ",
                 names[static_cast<int>(level)], static_cast<int>(message.size()), message.data());
}

}  // namespace harness
