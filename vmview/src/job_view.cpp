#include <harness/vmview/job_view.hpp>

#include <algorithm>
#include <numeric>
#include <set>

namespace harness::cominfo {

int comm_state_rank(const std::string &state) {
    static const char *order[] = {"OK", "RECOVERED", "DETECTED", "RECOVER", "FAILED"};
    for (int i = 0; i < 5; ++i)
        if (state == order[i]) return i;
    return 0;
}

int proc_state_rank(const std::string &state) {
    static const char *order[] = {"OK", "FINALIZED", "JOINING", "UNAVAILABLE", "FAILED"};
    for (int i = 0; i < 5; ++i)
        if (state == order[i]) return i;
    return 0;
}

namespace {

using nlohmann::json;

std::string worst_proc(const std::string &a, const std::string &b) {
    return proc_state_rank(b) > proc_state_rank(a) ? b : a;
}

// One communicator as one rank reported it.
struct CommReport {
    int reporter = 0;
    bool live = false;
    std::int64_t time_ms = 0;
    const json *comm = nullptr;
};

std::vector<int> ints(const json &a) {
    std::vector<int> out;
    if (a.is_array())
        for (const auto &v : a)
            if (v.is_number_integer()) out.push_back(v.get<int>());
    return out;
}

// Reports of one context id that share a member are the same communicator;
// disjoint ones (the pieces of an MPI_Comm_split share the id) are not.
std::vector<std::vector<CommReport>> cluster(const std::vector<CommReport> &reports) {
    std::vector<int> parent(reports.size());
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](int i) {
        while (parent[static_cast<size_t>(i)] != i) i = parent[static_cast<size_t>(i)];
        return i;
    };
    std::vector<std::set<int>> members;
    for (const auto &r : reports) {
        auto m = ints((*r.comm)["members"]);
        members.emplace_back(m.begin(), m.end());
        members.back().erase(-1);
    }
    for (size_t i = 0; i < reports.size(); ++i)
        for (size_t j = i + 1; j < reports.size(); ++j)
            if (std::any_of(members[i].begin(), members[i].end(), [&](int w) { return members[j].count(w); }))
                parent[static_cast<size_t>(find(static_cast<int>(j)))] = find(static_cast<int>(i));
    std::map<int, std::vector<CommReport>> groups;
    for (size_t i = 0; i < reports.size(); ++i) groups[find(static_cast<int>(i))].push_back(reports[i]);
    std::vector<std::vector<CommReport>> out;
    for (auto &[root, g] : groups) out.push_back(std::move(g));
    return out;
}

// Cells of one side (members / remote_members) from the reports that have it.
json cells(const std::vector<CommReport> &reports, const CommReport &freshest, const char *members_key,
           const char *states_key, const std::map<int, std::string> &rank_state) {
    json out = json::array();
    const auto members = ints((*freshest.comm)[members_key]);
    for (size_t i = 0; i < members.size(); ++i) {
        const int w = members[i];
        std::string state = "OK";
        if (w < 0) {
            state = "FAILED";  // a BLANK gap
        } else {
            for (const auto &r : reports) {
                const auto their = ints((*r.comm)[members_key]);
                // No states: every member was OK for that rank.
                if (!r.comm->contains(states_key)) continue;
                const auto &states = (*r.comm)[states_key];
                for (size_t k = 0; k < their.size() && states.is_array() && k < states.size(); ++k)
                    if (their[k] == w && states[k].is_string()) state = worst_proc(state, states[k].get<std::string>());
            }
            auto it = rank_state.find(w);
            if (it != rank_state.end() && it->second == "failed") state = "FAILED";
            if (it != rank_state.end() && it->second == "finalized" && state == "OK") state = "FINALIZED";
        }
        out.push_back({{"rank", static_cast<int>(i)}, {"world", w}, {"state", state}});
    }
    return out;
}

}  // namespace

json job_view(const JobRecords &records) {
    json view{{"job", records.job}, {"started_ms", records.started_ms}};
    int world_size = 0;
    std::int64_t updated = 0;
    for (const auto &[rank, r] : records.ranks) {
        world_size = std::max({world_size, r.value("world_size", 0), rank + 1});
        updated = std::max(updated, r.value("time_ms", std::int64_t{0}));
    }
    view["world_size"] = world_size;
    view["updated_ms"] = updated;

    // A rank is failed when another rank sees it failed: a rank declares
    // only real failures, and a finalized rank's last view still holds. (A
    // killed rank's own record is stale: it never says so itself.)
    std::set<int> failed;
    for (const auto &[rank, r] : records.ranks) {
        if (!r.contains("processes")) continue;  // all OK as it sees them
        const auto &procs = r["processes"];
        for (size_t w = 0; procs.is_array() && w < procs.size(); ++w)
            if (procs[w] == "FAILED" && static_cast<int>(w) != rank) failed.insert(static_cast<int>(w));
    }
    std::map<int, std::string> rank_state;
    json ranks = json::array();
    for (int w = 0; w < world_size; ++w) {
        auto it = records.ranks.find(w);
        std::string state = "not reported";
        if (it != records.ranks.end()) state = it->second.value("state", "running");
        if (failed.count(w) && state != "finalized") state = "failed";
        rank_state[w] = state;
        json entry{{"rank", w}, {"state", state}};
        if (it != records.ranks.end()) {
            const json &r = it->second;
            for (const char *k : {"incarnation", "pid", "member", "host", "round"})
                if (r.contains(k)) entry[k] = r[k];
            // Every world rank's state as this rank sees them (its record
            // leaves them out while all are OK).
            entry["processes"] = r.contains("processes")
                ? r["processes"]
                : json(std::vector<std::string>(static_cast<size_t>(r.value("world_size", 0)), "OK"));
            entry["updated_ms"] = r.value("time_ms", std::int64_t{0});
        }
        ranks.push_back(std::move(entry));
    }
    view["ranks"] = std::move(ranks);

    // Communicators by context id, then by shared members.
    std::map<std::int64_t, std::vector<CommReport>> by_id;
    for (const auto &[rank, r] : records.ranks) {
        // Running ranks decide; after the job, the ranks that finalized.
        const bool live = rank_state[rank] == "running" || rank_state[rank] == "finalized";
        if (!r["communicators"].is_array()) continue;
        for (const auto &c : r["communicators"])
            by_id[c.value("id", std::int64_t{-1})].push_back({rank, live, r.value("time_ms", std::int64_t{0}), &c});
    }
    json comms = json::array();
    for (const auto &[id, reports] : by_id) {
        for (auto &group : cluster(reports)) {
            // The views of running ranks decide; without any, those of the
            // ranks that finalized; a communicator only failed ranks
            // reported keeps what they said last.
            std::vector<CommReport> deciding;
            for (const auto &r : group)
                if (r.live && rank_state[r.reporter] == "running") deciding.push_back(r);
            if (deciding.empty())
                for (const auto &r : group)
                    if (r.live) deciding.push_back(r);
            if (deciding.empty()) deciding = group;
            const CommReport &freshest = *std::max_element(
                deciding.begin(), deciding.end(), [](const auto &a, const auto &b) { return a.time_ms < b.time_ms; });
            const json &c = *freshest.comm;
            std::string state = "OK";
            bool revoked = false;
            std::string name;
            for (const auto &r : deciding) {
                const std::string s = r.comm->value("state", "OK");
                if (comm_state_rank(s) > comm_state_rank(state)) state = s;
                revoked = revoked || r.comm->value("revoked", false);
                if (name.empty()) name = r.comm->value("name", "");
            }
            std::set<int> all;
            for (const auto &r : group)
                for (int w : ints((*r.comm)["members"]))
                    if (w >= 0) all.insert(w);
            json row{{"id", id},
                     {"key", std::to_string(id) + ":" + (all.empty() ? "-" : std::to_string(*all.begin()))},
                     {"name", name},
                     {"mode", c.value("mode", "")},
                     {"size", c.value("size", 0)},
                     {"inter", c.value("inter", false)},
                     {"state", state},
                     {"revoked", revoked}};
            row["cells"] = cells(deciding, freshest, "members", "states", rank_state);
            if (row["inter"].get<bool>())
                row["remote_cells"] = cells(deciding, freshest, "remote_members", "remote_states", rank_state);
            std::vector<int> reporters;
            for (const auto &r : deciding) reporters.push_back(r.reporter);
            row["reported_by"] = reporters;
            comms.push_back(std::move(row));
        }
    }
    view["communicators"] = std::move(comms);
    view["notes"] = records.notes;
    return view;
}

}  // namespace harness::cominfo
