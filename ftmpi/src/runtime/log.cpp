// The leveled logger (log.hpp).
#include "runtime/log.hpp"

#include "settings/values.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace ftmpi::log {

namespace {

using settings::Id;

// set_level's level; -1: none, the setting's.
std::atomic<int> level_set{-1};

// Both from the current values (settings/values.hpp): those read at MPI_Init
// once it has run.
Level threshold() {
    const Level chosen = level();
    return settings::current().flag(Id::verbose) ? std::max(chosen, Level::info) : chosen;
}

// "FT-MPI[job 3 rank 2]", or as much of it as is known; a hot standby not
// yet promoted has no rank: "FT-MPI[job 3 standby 0]".
std::string prefix() {
    const settings::Values &v = settings::current();
    std::string inside;
    if (v.is_set(Id::job)) inside = "job " + v.text(Id::job);
    if (v.is_set(Id::standby) && v.valid(Id::standby))
        inside += (inside.empty() ? "standby " : " standby ") + v.given(Id::standby);
    else if (v.is_set(Id::rank))
        inside += (inside.empty() ? "rank " : " rank ") + v.given(Id::rank);
    return inside.empty() ? std::string("FT-MPI") : "FT-MPI[" + inside + "]";
}

void vwrite(Level level, const char *format, va_list args) {
    if (!enabled(level)) return;
    static const char *const names[] = {"error", "warn", "info", "debug"};
    char line[2048];
    int n = std::snprintf(line, sizeof line, "%s %s: ", prefix().c_str(), names[static_cast<int>(level)]);
    if (n < 0) return;
    auto used = std::min(static_cast<std::size_t>(n), sizeof line - 2);
    const int m = std::vsnprintf(line + used, sizeof line - used - 1, format, args);
    if (m > 0) used = std::min(used + static_cast<std::size_t>(m), sizeof line - 2);  // a longer line is cut
    line[used++] = '\n';
    for (std::size_t done = 0; done < used;) {
        const ssize_t w = ::write(STDERR_FILENO, line + done, used - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        done += static_cast<std::size_t>(w);
    }
}

}  // namespace

bool enabled(Level level) {
    return level <= threshold();
}

Level level() {
    const int set = level_set.load(std::memory_order_relaxed);
    if (set >= 0) return static_cast<Level>(set);
    return static_cast<Level>(settings::current().number(Id::log_level));  // choices in Level's order
}

void set_level(Level chosen) {
    level_set.store(static_cast<int>(chosen), std::memory_order_relaxed);
}

#define FTMPI_LOG_AT(fn, level)                                                                                        \
    void fn(const char *format, ...) {                                                                                 \
        va_list args;                                                                                                  \
        va_start(args, format);                                                                                        \
        vwrite(level, format, args);                                                                                   \
        va_end(args);                                                                                                  \
    }
FTMPI_LOG_AT(error, Level::error)
FTMPI_LOG_AT(warn, Level::warn)
FTMPI_LOG_AT(info, Level::info)
FTMPI_LOG_AT(debug, Level::debug)
#undef FTMPI_LOG_AT

}  // namespace ftmpi::log
