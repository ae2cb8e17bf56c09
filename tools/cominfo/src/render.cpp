#include "render.hpp"

#include <cstdio>
#include <iomanip>
#include <sstream>

namespace harness::cominfo {

namespace {

using nlohmann::json;

// ANSI colours per state: the seed paper's COMINFO colour-codes processes
// and communicators the same way.
const char *colour_of(const std::string &state) {
    if (state == "OK" || state == "running") return "\x1b[32m";                                     // green
    if (state == "DETECTED" || state == "UNAVAILABLE") return "\x1b[33m";                           // yellow
    if (state == "RECOVER" || state == "JOINING") return "\x1b[36m";                                // cyan
    if (state == "RECOVERED") return "\x1b[34m";                                                    // blue
    if (state == "FAILED" || state == "failed") return "\x1b[1;31m";                                // bold red
    if (state == "FINALIZED" || state == "finalized" || state == "not reported") return "\x1b[2m";  // dim
    return "";
}

std::string paint(const std::string &text, const std::string &state, bool colour) {
    const char *c = colour_of(state);
    if (!colour || *c == '\0') return text;
    return std::string(c) + text + "\x1b[0m";
}

std::string seconds(std::int64_t ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.3f s", static_cast<double>(ms) / 1000.0);
    return buf;
}

std::string upper(std::string s) {
    for (char &ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    return s;
}

void print_cells(const json &cells, bool colour, std::ostream &out) {
    for (const auto &cell : cells) {
        const std::string state = cell.value("state", "OK");
        std::ostringstream text;
        text << "[" << cell.value("rank", 0);
        if (cell.value("world", -1) != cell.value("rank", 0)) text << "/w" << cell.value("world", -1);
        text << " " << state << "]";
        out << " " << paint(text.str(), state, colour);
    }
}

}  // namespace

void print_view(const json &view, bool colour, std::int64_t now_ms, std::ostream &out) {
    std::map<std::string, int> counts;
    for (const auto &r : view["ranks"]) ++counts[r.value("state", "")];
    out << "job " << view.value("job", "") << ": " << view.value("world_size", 0) << " ranks";
    const char *sep = " (";
    for (const auto &[state, n] : counts) {
        out << sep << n << " " << paint(state, state, colour);
        sep = ", ";
    }
    if (!counts.empty()) out << ")";
    const std::int64_t age = now_ms - view.value("updated_ms", std::int64_t{0});
    if (view.value("updated_ms", std::int64_t{0}) > 0 && age >= 0)
        out << "; last report " << std::fixed << std::setprecision(1) << static_cast<double>(age) / 1000.0 << " s ago";
    out << "\n\ncommunicators (cell: rank[/w world rank] state)\n";
    out << "  " << std::left << std::setw(8) << "id" << std::setw(18) << "name" << std::setw(16) << "mode"
        << std::setw(6) << "size" << std::setw(11) << "state" << std::setw(9) << "revoked"
        << "members\n";
    for (const auto &c : view["communicators"]) {
        const std::string state = c.value("state", "OK");
        std::string name = c.value("name", "");
        if (name.empty()) name = "-";
        std::ostringstream st;
        st << std::left << std::setw(11) << state;
        out << "  " << std::left << std::setw(8) << c.value("id", std::int64_t{0}) << std::setw(18) << name
            << std::setw(16) << upper(c.value("mode", "")) << std::setw(6) << c.value("size", 0)
            << paint(st.str(), state, colour) << std::setw(9) << (c.value("revoked", false) ? "REVOKED" : "no");
        print_cells(c["cells"], colour, out);
        if (c.contains("remote_cells")) {
            out << "  | remote:";
            print_cells(c["remote_cells"], colour, out);
        }
        out << "\n";
    }
    out << "\nranks\n";
    out << "  " << std::left << std::setw(6) << "rank" << std::setw(14) << "state" << std::setw(9) << "pid"
        << std::setw(12) << "member" << std::setw(18) << "host"
        << "sees\n";
    for (const auto &r : view["ranks"]) {
        const std::string state = r.value("state", "");
        std::ostringstream st;
        st << std::left << std::setw(14) << state;
        out << "  " << std::left << std::setw(6) << r.value("rank", 0) << paint(st.str(), state, colour) << std::setw(9)
            << (r.contains("pid") ? std::to_string(r.value("pid", 0L)) : "-") << std::setw(12)
            << r.value("member", std::string("-")).substr(0, 10) << std::setw(18) << r.value("host", std::string("-"));
        if (r.contains("processes"))
            for (const auto &p : r["processes"])
                out << " " << paint(p.get<std::string>(), p.get<std::string>(), colour);
        out << "\n";
    }
    for (const auto &n : view["notes"]) out << "note: " << n.get<std::string>() << "\n";
}

void print_history(const json &history, std::ostream &out) {
    const std::int64_t t0 = history.value("started_ms", std::int64_t{0});
    out << "job " << history.value("job", "") << ": failures and recoveries (times since the first MPI_Init)\n";
    if (history["timeline"].empty()) out << "  (none)\n";
    for (const auto &e : history["timeline"]) {
        const std::string kind = e.value("kind", "");
        out << "  " << std::right << std::setw(10) << seconds(e.value("time_ms", std::int64_t{0}) - t0) << "  ";
        if (kind == "failure") {
            out << "world rank " << e.value("world", -1);
            if (e.value("incarnation", 0) > 0) out << " (incarnation " << e.value("incarnation", 0) << ")";
            out << " failed: " << e.value("why", "") << "; detected by rank";
            if (e["detected_by"].size() > 1) out << "s";
            for (const auto &d : e["detected_by"]) out << " " << d.value("rank", -1);
            out << " within " << e.value("spread_ms", std::int64_t{0}) << " ms\n";
        } else if (kind == "revoke") {
            out << "communicator " << e.value("comm", 0);
            if (!e.value("name", "").empty()) out << " \"" << e.value("name", "") << "\"";
            out << " revoked\n";
        } else if (kind == "recovery") {
            out << "communicator " << e.value("comm", 0);
            if (!e.value("name", "").empty()) out << " \"" << e.value("name", "") << "\"";
            out << ": recovery by " << upper(e.value("mode", "")) << " started (" << e.value("size_before", 0)
                << " ranks)";
            if (e["duration_ms"].is_null()) {
                out << ", still in progress\n";
                continue;
            }
            out << ", " << (e.value("ok", false) ? "ended" : "FAILED") << " at "
                << seconds(e.value("end_ms", std::int64_t{0}) - t0);
            if (e.contains("size_after"))
                out << " with " << e.value("size_after", 0) << (e.value("size_after", 0) == 1 ? " rank" : " ranks");
            out << "; took " << e.value("duration_ms", std::int64_t{0}) << " ms";
            if (e.contains("after_failure_ms"))
                out << " (started " << e.value("after_failure_ms", std::int64_t{0}) << " ms after the failure)";
            out << "\n";
        }
    }
    if (history.value("events_dropped", std::int64_t{0}) > 0)
        out << "note: " << history.value("events_dropped", std::int64_t{0})
            << " older events were dropped from the ranks' logs\n";
    for (const auto &n : history["notes"]) out << "note: " << n.get<std::string>() << "\n";
}

}  // namespace harness::cominfo
