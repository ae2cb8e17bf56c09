#include <harness/vmview/job_history.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace harness::cominfo {

namespace {

using nlohmann::json;

std::int64_t ms(const json &e, const char *key) {
    return e.value(key, std::int64_t{0});
}

// The k-th recovery of one communicator at every rank that took part.
struct Recovery {
    std::int64_t comm = 0;
    std::string name, mode;
    std::int64_t start_ms = 0, end_ms = 0;
    int size_before = 0, size_after = -1;
    bool ended = false, ok = true;
    std::int64_t result = -1;
    std::set<int> ranks, ended_at;
};

}  // namespace

json job_history(const JobRecords &records) {
    json failures = json::object();                               // "world.incarnation" → entry
    std::map<std::pair<std::int64_t, int>, Recovery> recoveries;  // (comm, k) → recovery
    std::map<std::int64_t, json> revokes;                         // comm → entry
    std::int64_t dropped = 0;

    for (const auto &[rank, r] : records.ranks) {
        dropped += r.value("events_dropped", std::int64_t{0});
        if (!r.contains("events") || !r["events"].is_array()) continue;
        std::map<std::int64_t, int> started;  // this rank's recoveries per comm so far
        std::map<std::int64_t, int> open;     // comm → k of its recovery in progress here
        for (const auto &e : r["events"]) {
            const std::string kind = e.value("kind", "");
            const std::int64_t t = ms(e, "time_ms");
            if (kind == "failure_detected") {
                const std::string key =
                    std::to_string(e.value("world", -1)) + "." + std::to_string(e.value("incarnation", 0));
                json &f = failures[key];
                if (f.is_null() || t < ms(f, "time_ms")) {
                    f["kind"] = "failure";
                    f["world"] = e.value("world", -1);
                    f["incarnation"] = e.value("incarnation", 0);
                    f["time_ms"] = t;
                    f["why"] = e.value("why", "");
                }
                f["detected_by"].push_back({{"rank", rank}, {"time_ms", t}});
            } else if (kind == "revoked") {
                const std::int64_t comm = e.value("comm", std::int64_t{-1});
                json &v = revokes[comm];
                if (v.is_null() || t < ms(v, "time_ms"))
                    v = {{"kind", "revoke"}, {"comm", comm}, {"name", e.value("name", "")}, {"time_ms", t}};
            } else if (kind == "recovery_start") {
                const std::int64_t comm = e.value("comm", std::int64_t{-1});
                const int k = started[comm]++;
                open[comm] = k;
                Recovery &rec = recoveries[{comm, k}];
                if (rec.ranks.empty() || t < rec.start_ms) rec.start_ms = t;
                rec.comm = comm;
                rec.name = e.value("name", "");
                rec.mode = e.value("mode", "");
                rec.size_before = std::max(rec.size_before, e.value("size", 0));
                rec.ranks.insert(rank);
            } else if (kind == "recovery_end") {
                const std::int64_t comm = e.value("comm", std::int64_t{-1});
                auto it = open.find(comm);
                if (it == open.end()) continue;  // its start was dropped from the log
                Recovery &rec = recoveries[{comm, it->second}];
                open.erase(it);
                rec.ended_at.insert(rank);
                rec.end_ms = std::max(rec.end_ms, t);
                rec.ok = rec.ok && e.value("ok", false);
                if (e.contains("size")) rec.size_after = e.value("size", -1);
                if (e.contains("result")) rec.result = e.value("result", std::int64_t{-1});
            }
        }
    }

    json timeline = json::array();
    for (auto &[key, f] : failures.items()) {
        std::int64_t last = 0;
        for (const auto &d : f["detected_by"]) last = std::max(last, ms(d, "time_ms"));
        f["spread_ms"] = last - ms(f, "time_ms");
        timeline.push_back(f);
    }
    for (auto &[comm, v] : revokes) timeline.push_back(v);
    for (auto &[id, rec] : recoveries) {
        // In progress while a rank that started it has not ended it.
        const bool done = rec.ended_at == rec.ranks;
        json r{{"kind", "recovery"},
               {"comm", rec.comm},
               {"name", rec.name},
               {"mode", rec.mode},
               {"time_ms", rec.start_ms},
               {"start_ms", rec.start_ms},
               {"size_before", rec.size_before},
               {"ranks", rec.ranks}};
        if (done) {
            r["end_ms"] = rec.end_ms;
            r["duration_ms"] = rec.end_ms - rec.start_ms;
            r["ok"] = rec.ok;
            if (rec.size_after >= 0) r["size_after"] = rec.size_after;
            if (rec.result >= 0) r["result"] = rec.result;
        } else {
            r["end_ms"] = nullptr;
            r["duration_ms"] = nullptr;
        }
        // How long after the latest failure detected before it started.
        std::int64_t after = -1;
        for (const auto &item : timeline)
            if (item["kind"] == "failure" && ms(item, "time_ms") <= rec.start_ms)
                after = after < 0 ? rec.start_ms - ms(item, "time_ms")
                                  : std::min(after, rec.start_ms - ms(item, "time_ms"));
        if (after >= 0) r["after_failure_ms"] = after;
        timeline.push_back(std::move(r));
    }
    std::stable_sort(timeline.begin(), timeline.end(),
                     [](const json &a, const json &b) { return ms(a, "time_ms") < ms(b, "time_ms"); });
    return {{"job", records.job},
            {"started_ms", records.started_ms},
            {"timeline", std::move(timeline)},
            {"events_dropped", dropped},
            {"notes", records.notes}};
}

}  // namespace harness::cominfo
