#include "hosts.hpp"

#include <algorithm>
#include <sstream>

namespace harness::ftmpirun {

std::string trim(const std::string &s) {
    auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

namespace {

bool all_digits(const std::string &s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

// Members that `name` designates: by id, by HOST:PORT, or by HOST.
std::vector<std::size_t> matches(const std::vector<MemberView> &members, const std::string &name) {
    std::vector<std::size_t> by_id, by_address, by_host;
    for (std::size_t i = 0; i < members.size(); ++i) {
        if (!members[i].alive) continue;
        if (members[i].id == name) by_id.push_back(i);
        if (members[i].tcp.to_string() == name) by_address.push_back(i);
        if (members[i].tcp.host == name) by_host.push_back(i);
    }
    if (!by_id.empty()) return by_id;
    if (!by_address.empty()) return by_address;
    return by_host;
}

std::string known_members(const std::vector<MemberView> &members) {
    std::string s;
    for (const auto &m : members)
        if (m.alive) s += (s.empty() ? "" : ", ") + m.id + " (" + m.tcp.to_string() + ")";
    return s.empty() ? "none" : s;
}

// "3,4" → {3, 4}: one to six numbers, each from 0.
std::optional<std::vector<int>> parse_coord(const std::string &text) {
    std::vector<int> coord;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, ',');) {
        if (!all_digits(part) || part.size() > 6) return std::nullopt;
        coord.push_back(std::stoi(part));
    }
    if (coord.empty() || coord.size() > 6 || text.back() == ',') return std::nullopt;
    return coord;
}

}  // namespace

std::vector<HostEntry> parse_host_list(const std::string &list) {
    std::vector<HostEntry> out;
    std::stringstream in(list);
    for (std::string part; std::getline(in, part, ',');)
        if (!trim(part).empty()) out.push_back({trim(part), 0});
    return out;
}

Result<std::vector<HostEntry>> parse_hostfile(const std::string &text) {
    std::vector<HostEntry> out;
    std::stringstream in(text);
    int number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        line = trim(line.substr(0, line.find('#')));
        if (line.empty()) continue;
        std::stringstream words(line);
        HostEntry e;
        words >> e.name;
        for (std::string word; words >> word;) {
            if (word.rfind("slots=", 0) == 0 && all_digits(word.substr(6))) {
                e.slots = std::stoi(word.substr(6));
                continue;
            }
            if (word.rfind("max_slots=", 0) == 0) continue;  // accepted for mpirun hostfiles, not used
            if (word.rfind("coord=", 0) == 0) {
                auto coord = parse_coord(word.substr(6));
                if (!coord)
                    return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                                      "hostfile line " + std::to_string(number) + ": cannot read \"" + word +
                                          "\" (want coord=X,Y with numbers from 0)");
                e.coord = *coord;
                continue;
            }
            if (word.rfind("switch=", 0) == 0 && word.size() > 7) {
                e.switch_name = word.substr(7);
                continue;
            }
            return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                              "hostfile line " + std::to_string(number) + ": cannot read \"" + word +
                                  "\" (want slots=N, coord=X,Y or switch=NAME)");
        }
        out.push_back(e);
    }
    return out;
}

Result<std::vector<Host>> select_hosts(const std::vector<MemberView> &members, const std::vector<HostEntry> &entries,
                                       int default_slots) {
    std::vector<Host> hosts;
    if (entries.empty()) {
        for (const auto &m : members)
            if (m.alive) hosts.push_back({m.id, m.tcp, std::max(1, default_slots)});
        if (hosts.empty()) return make_error(HARNESS_ERR_NOT_FOUND, "the VM has no alive daemon");
        return hosts;
    }
    for (const auto &entry : entries) {
        std::string name = entry.name;
        int slots = entry.slots;
        auto found = matches(members, name);
        if (found.empty()) {
            // "NAME:SLOTS", where NAME may itself be HOST:PORT.
            auto colon = name.rfind(':');
            if (colon != std::string::npos && all_digits(name.substr(colon + 1)) && slots == 0) {
                slots = std::stoi(name.substr(colon + 1));
                name = name.substr(0, colon);
                found = matches(members, name);
            }
        }
        if (found.empty())
            return make_error(HARNESS_ERR_NOT_FOUND,
                              "host \"" + entry.name +
                                  "\" is no alive daemon of the VM (members: " + known_members(members) + ")");
        if (found.size() > 1)
            return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                              "host \"" + name +
                                  "\" runs several daemons; name one by member id or "
                                  "HOST:PORT (members: " +
                                  known_members(members) + ")");
        if (slots <= 0) slots = 1;
        const MemberView &m = members[found.front()];
        auto same = std::find_if(hosts.begin(), hosts.end(), [&](const Host &h) { return h.member_id == m.id; });
        if (same == hosts.end()) {
            hosts.push_back({m.id, m.tcp, slots, entry.coord, entry.switch_name});
            continue;
        }
        same->slots += slots;
        if (!entry.coord.empty() && !same->coord.empty() && entry.coord != same->coord)
            return make_error(HARNESS_ERR_INVALID_ARGUMENT, "host \"" + name + "\" is given two grid places");
        if (same->coord.empty()) same->coord = entry.coord;
        if (same->switch_name.empty()) same->switch_name = entry.switch_name;
    }
    return hosts;
}

Result<std::vector<std::size_t>> place_ranks(const std::vector<Host> &hosts, int np, bool oversubscribe) {
    if (np < 1) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "-np must be at least 1");
    if (hosts.empty()) return make_error(HARNESS_ERR_NOT_FOUND, "no hosts to place ranks on");
    long total = 0;
    for (const auto &h : hosts) total += h.slots;
    if (np > total && !oversubscribe)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          "not enough slots: " + std::to_string(np) + " ranks for " + std::to_string(total) + " slot" +
                              (total == 1 ? "" : "s") + " on " + std::to_string(hosts.size()) +
                              " host(s); give more with --host/--hostfile or allow it with --oversubscribe");
    std::vector<std::size_t> where;
    for (std::size_t h = 0; h < hosts.size() && static_cast<int>(where.size()) < np; ++h)
        for (int s = 0; s < hosts[h].slots && static_cast<int>(where.size()) < np; ++s) where.push_back(h);
    for (std::size_t h = 0; static_cast<int>(where.size()) < np; h = (h + 1) % hosts.size()) where.push_back(h);
    return where;
}

std::optional<std::string> choose_replacement_host(const std::string &failed_on, bool failed_on_alive,
                                                   const std::vector<Candidate> &alive_candidates) {
    if (failed_on_alive) return failed_on;
    const Candidate *best = nullptr;
    for (const auto &c : alive_candidates)
        if (!best || c.live_processes < best->live_processes) best = &c;
    if (!best) return std::nullopt;
    return best->member_id;
}

std::optional<std::string> single_job_daemon(const std::vector<std::string> &rank_daemons,
                                             const std::vector<std::string> &job_hosts, bool places_beyond_ranks) {
    if (rank_daemons.empty()) return std::nullopt;
    const std::string &first = rank_daemons.front();
    auto elsewhere = [&](const std::string &member) { return member != first; };
    if (std::any_of(rank_daemons.begin(), rank_daemons.end(), elsewhere)) return std::nullopt;
    if (places_beyond_ranks && std::any_of(job_hosts.begin(), job_hosts.end(), elsewhere)) return std::nullopt;
    return first;
}

}  // namespace harness::ftmpirun
