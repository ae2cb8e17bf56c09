#include "mapping.hpp"

#include <algorithm>
#include <set>
#include <sstream>

namespace harness::ftmpirun {

namespace {

Error invalid(const std::string &message) {
    return make_error(HARNESS_ERR_INVALID_ARGUMENT, message);
}

bool parse_int(const std::string &text, int &out) {
    if (text.empty() || text.size() > 9 ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    out = std::stoi(text);
    return true;
}

}  // namespace

Result<MapBy> parse_map_by(const std::string &text) {
    if (text == "slot") return MapBy{MapBy::Kind::slot, 0};
    if (text == "node") return MapBy{MapBy::Kind::node, 0};
    const std::string ppr = "ppr:", node = ":node";
    int n = 0;
    if (text.size() > ppr.size() + node.size() && text.compare(0, ppr.size(), ppr) == 0 &&
        text.compare(text.size() - node.size(), node.size(), node) == 0 &&
        parse_int(text.substr(ppr.size(), text.size() - ppr.size() - node.size()), n) && n >= 1)
        return MapBy{MapBy::Kind::ppr, n};
    return invalid("--map-by " + (text.empty() ? std::string("''") : text) +
                   ": not supported (slot, node or ppr:N:node)");
}

Result<std::vector<std::size_t>> place_ranks(const std::vector<Host> &hosts, int np, bool oversubscribe,
                                             const MapBy &map_by) {
    if (map_by.kind == MapBy::Kind::slot) return place_ranks(hosts, np, oversubscribe);
    if (np < 1) return invalid("-np must be at least 1");
    if (hosts.empty()) return make_error(HARNESS_ERR_NOT_FOUND, "no hosts to place ranks on");
    std::vector<int> room;
    for (const auto &h : hosts) room.push_back(map_by.kind == MapBy::Kind::ppr ? map_by.per_node : h.slots);
    long total = 0;
    for (int r : room) total += r;
    if (np > total && !oversubscribe)
        return invalid("not enough room: " + std::to_string(np) + " ranks for " + std::to_string(total) +
                       (map_by.kind == MapBy::Kind::ppr ? " (ppr:" + std::to_string(map_by.per_node) + ":node on " +
                                std::to_string(hosts.size()) + " host(s))"
                                                        : " slot(s)") +
                       "; allow it with --oversubscribe");
    std::vector<std::size_t> where;
    if (map_by.kind == MapBy::Kind::ppr) {
        for (std::size_t h = 0; h < hosts.size(); ++h)
            for (int i = 0; i < room[h] && static_cast<int>(where.size()) < np; ++i) where.push_back(h);
    } else {
        // Round robin over the hosts that still have a free slot.
        for (bool placed = true; placed && static_cast<int>(where.size()) < np;) {
            placed = false;
            for (std::size_t h = 0; h < hosts.size() && static_cast<int>(where.size()) < np; ++h)
                if (room[h] > 0) {
                    --room[h];
                    where.push_back(h);
                    placed = true;
                }
        }
    }
    for (std::size_t h = 0; static_cast<int>(where.size()) < np; h = (h + 1) % hosts.size()) where.push_back(h);
    return where;
}

Result<std::vector<int>> parse_cpu_list(const std::string &text) {
    std::vector<int> cpus;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, ',')) {
        auto dash = part.find('-');
        int lo = 0, hi = 0;
        bool ok = dash == std::string::npos
            ? parse_int(part, lo) && parse_int(part, hi)
            : parse_int(part.substr(0, dash), lo) && parse_int(part.substr(dash + 1), hi);
        if (!ok || hi < lo || hi > 4095) return invalid("CPU list '" + text + "': '" + part + "' is not N or N-M");
        for (int c = lo; c <= hi; ++c)
            if (std::find(cpus.begin(), cpus.end(), c) == cpus.end()) cpus.push_back(c);
    }
    if (cpus.empty()) return invalid("CPU list '" + text + "' is empty");
    return cpus;
}

std::string cpu_list_string(const std::vector<int> &cpus) {
    std::string s;
    for (int c : cpus) s += (s.empty() ? "" : ",") + std::to_string(c);
    return s;
}

Result<std::vector<RankfileEntry>> parse_rankfile(const std::string &text) {
    std::vector<RankfileEntry> out;
    std::set<int> seen;
    std::stringstream in(text);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        auto hash = line.find('#');
        if (hash != std::string::npos) line.resize(hash);
        line = trim(line);
        if (line.empty()) continue;
        const std::string where = "rankfile line " + std::to_string(number) + ": ";
        std::stringstream words(line);
        std::string rank_word, assignment, slot;
        words >> rank_word >> assignment >> slot;
        std::string extra;
        words >> extra;
        auto eq = assignment.find('=');
        RankfileEntry e;
        if (rank_word != "rank" || eq == std::string::npos || !parse_int(assignment.substr(0, eq), e.rank) ||
            eq + 1 == assignment.size() || !extra.empty())
            return invalid(where + "'" + line + "' is not `rank N=HOST slot=CPUS`");
        e.host = assignment.substr(eq + 1);
        if (slot.compare(0, 5, "slot=") != 0) return invalid(where + "slot=CPUS is missing");
        auto cpus = parse_cpu_list(slot.substr(5));
        if (!cpus) return invalid(where + cpus.error().message);
        e.cpus = *cpus;
        if (!seen.insert(e.rank).second) return invalid(where + "rank " + std::to_string(e.rank) + " is placed twice");
        out.push_back(std::move(e));
    }
    if (out.empty()) return invalid("the rankfile places no rank");
    return out;
}

}  // namespace harness::ftmpirun
