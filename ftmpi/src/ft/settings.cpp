// Environment -> Settings (see settings.hpp).
#include "ft/settings.hpp"

#include "internal/ft.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ftmpi::ft {
namespace {

Settings current;

const char *env(const char *name) {
    const char *v = std::getenv(name);
    return v != nullptr && *v != '\0' ? v : nullptr;
}

void bad_value(const char *name, const char *value, const char *expected, const char *used) {
    std::fprintf(stderr, "FT-MPI: %s=%s is not %s; using %s\n", name, value, expected, used);
}

bool read_bool(const char *name, bool fallback) {
    const char *v = env(name);
    if (v == nullptr) return fallback;
    for (const char *yes : {"1", "yes", "on", "true"})
        if (std::strcmp(v, yes) == 0) return true;
    for (const char *no : {"0", "no", "off", "false"})
        if (std::strcmp(v, no) == 0) return false;
    bad_value(name, v, "one of 1, 0, yes, no, on, off, true, false", fallback ? "1" : "0");
    return fallback;
}

int read_int(const char *name, int fallback, int lowest) {
    const char *v = env(name);
    if (v == nullptr) return fallback;
    char *end = nullptr;
    long n = std::strtol(v, &end, 10);
    if (*end != '\0' || n < lowest || n > 1000000000L) {
        std::string expected = "an integer >= " + std::to_string(lowest);
        bad_value(name, v, expected.c_str(), std::to_string(fallback).c_str());
        return fallback;
    }
    return static_cast<int>(n);
}

}  // namespace

Settings::Settings() : comm_mode(FTMPI_COMM_MODE_ULFM), msg_mode(FTMPI_MSG_MODE_CONT) {}

int comm_mode_from_name(const std::string &name) {
    if (name == "ulfm") return FTMPI_COMM_MODE_ULFM;
    if (name == "abort") return FTMPI_COMM_MODE_ABORT;
    if (name == "blank") return FTMPI_COMM_MODE_BLANK;
    if (name == "shrink") return FTMPI_COMM_MODE_SHRINK;
    if (name == "rebuild") return FTMPI_COMM_MODE_REBUILD;
    if (name == "rebuild-append") return FTMPI_COMM_MODE_REBUILD_APPEND;
    return -1;
}

int msg_mode_from_name(const std::string &name) {
    if (name == "cont") return FTMPI_MSG_MODE_CONT;
    if (name == "nop") return FTMPI_MSG_MODE_NOP;
    return -1;
}

const char *comm_mode_name(int mode) {
    switch (mode) {
    case FTMPI_COMM_MODE_ULFM: return "ulfm";
    case FTMPI_COMM_MODE_ABORT: return "abort";
    case FTMPI_COMM_MODE_BLANK: return "blank";
    case FTMPI_COMM_MODE_SHRINK: return "shrink";
    case FTMPI_COMM_MODE_REBUILD: return "rebuild";
    case FTMPI_COMM_MODE_REBUILD_APPEND: return "rebuild-append";
    default: return "unknown";
    }
}

void load_settings() {
    Settings s;
    if (const char *v = env("FTMPI_COMM_MODE")) {
        int m = comm_mode_from_name(v);
        if (m < 0) bad_value("FTMPI_COMM_MODE", v, "one of ulfm, abort, blank, shrink, rebuild, rebuild-append", "ulfm");
        else s.comm_mode = m;
    }
    if (const char *v = env("FTMPI_MSG_MODE")) {
        int m = msg_mode_from_name(v);
        if (m < 0) bad_value("FTMPI_MSG_MODE", v, "one of cont, nop", "cont");
        else s.msg_mode = m;
    }
    s.strict = read_bool("FTMPI_COLL_STRICT", false);
    if (const char *v = env("FTMPI_NOTIFIER")) {
        if (std::strcmp(v, "ordered") == 0) s.ordered = true;
        else if (std::strcmp(v, "unordered") != 0) bad_value("FTMPI_NOTIFIER", v, "ordered or unordered", "unordered");
    }
    s.confirm_ms = read_int("FTMPI_CONFIRM_MS", 3000, 0);
    s.daemon_lost_ms = read_int("FTMPI_DAEMON_LOST_MS", 5000, 100);
    s.verbose = read_bool("FTMPI_VERBOSE", false);
    s.restarted = read_bool("FTMPI_RESTARTED", false);
    s.incarnation = read_int("FTMPI_INCARNATION", 0, 0);
    s.round = read_int("FTMPI_ROUND", 0, 0);
    if (const char *v = env("FTMPI_JOB")) s.job = v;
    s.have_daemon = env("HARNESS_HCORE") != nullptr;
    current = s;
}

const Settings &settings() { return current; }

int default_comm_mode() { return current.comm_mode; }
int default_msg_mode() { return current.msg_mode; }
bool default_strict() { return current.strict; }

}  // namespace ftmpi::ft
