#include "render.hpp"

#include <iomanip>

namespace harness::hostinfo {

namespace {

std::string join(const std::vector<std::string> &v, const char *sep = " ") {
    std::string out;
    for (const auto &s : v) out += (out.empty() ? "" : sep) + s;
    return out.empty() ? "-" : out;
}

}  // namespace

void print_text(const VmState &st, std::ostream &out) {
    out << "members (as member " << st.via << " sees them)\n";
    for (const auto &m : st.members) {
        out << "  " << std::left << std::setw(10) << m.id << std::setw(24) << m.address
            << (m.alive      ? "alive"
                    : m.left ? "LEFT"
                             : "FAILED");
        if (m.silent_ms > 0) out << "  (heard " << m.silent_ms << " ms ago)";
        out << "\n";
    }
    out << "services\n";
    for (const auto &[name, ids] : st.services) out << "  " << std::setw(14) << name << join(ids) << "\n";
    out << "drd\n";
    if (st.drd.known) {
        out << "  leader        " << (st.drd.leader.empty() ? "-" : st.drd.leader) << "\n";
        out << "  voters        " << join(st.drd.voters) << "\n";
        out << "  standbys      " << join(st.drd.standbys) << "\n";
        out << "  commit index  " << st.drd.commit_index << "\n";
    } else {
        out << "  (not loaded)\n";
    }
    out << "plugins\n";
    for (const auto &[id, list] : st.plugins) out << "  " << std::setw(10) << id << join(list, ", ") << "\n";
    for (const auto &n : st.notes) out << "note: " << n << "\n";
}

}  // namespace harness::hostinfo
