// The settings table's values -> Settings (see settings.hpp).
#include "ft/settings.hpp"

#include "internal/ft.hpp"
#include "runtime/log.hpp"
#include "settings/values.hpp"

#include <cstdlib>

namespace ftmpi::ft {
namespace {

Settings current;

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
    using ftmpi::settings::Id;
    const ftmpi::settings::Values &env = ftmpi::settings::current();
    Settings s;
    s.comm_mode = comm_mode_from_name(env.text(Id::comm_mode));
    s.msg_mode = msg_mode_from_name(env.text(Id::msg_mode));
    s.strict = env.flag(Id::coll_strict);
    s.ordered = env.text(Id::notifier) == "ordered";
    s.confirm_ms = env.integer(Id::confirm);
    s.daemon_lost_ms = env.integer(Id::daemon_lost);
    s.daemon_hung_ms = env.integer(Id::daemon_hung);
    s.cominfo = env.flag(Id::cominfo);
    s.verbose = env.flag(Id::verbose) || log::enabled(log::Level::info);
    s.restarted = env.flag(Id::restarted);
    s.incarnation = env.integer(Id::incarnation);
    s.round = env.integer(Id::round);
    s.job = env.text(Id::job);
    s.have_daemon = std::getenv("HARNESS_HCORE") != nullptr && *std::getenv("HARNESS_HCORE") != '\0';
    current = s;
}

const Settings &settings() {
    return current;
}

int default_comm_mode() {
    return current.comm_mode;
}
int default_msg_mode() {
    return current.msg_mode;
}
bool default_strict() {
    return current.strict;
}

}  // namespace ftmpi::ft
