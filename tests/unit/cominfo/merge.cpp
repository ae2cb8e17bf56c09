// cominfo's merge (tools/cominfo/src/job_view.*, history.*) over rank records
// written here in the format of docs/cominfo.md: who counts as failed, how
// the communicators' rows and cells are decided, how split pieces are told
// apart, and the timeline's failures and recoveries with their durations.
#include <harness/vmview/job_history.hpp>
#include <harness/vmview/job_view.hpp>

#include <doctest/doctest.h>

using harness::cominfo::job_history;
using harness::cominfo::job_view;
using harness::cominfo::JobRecords;
using nlohmann::json;

namespace {

json record(int rank, const std::string &state, json comms, json events = json::array()) {
    return {{"format", 1},        {"job", "7"},     {"rank", rank}, {"incarnation", 0},       {"world_size", 4},
            {"pid", 1000 + rank}, {"member", "m1"}, {"host", "h"},  {"started_ms", 1000},     {"update", 1},
            {"time_ms", 2000},    {"state", state}, {"round", 0},   {"communicators", comms}, {"events", events},
            {"events_dropped", 0}};
}

json world_comm(const std::string &state, json states = nullptr) {
    json c{{"id", 0},        {"name", "MPI_COMM_WORLD"}, {"rank", 0},
           {"size", 4},      {"inter", false},           {"mode", "shrink"},
           {"state", state}, {"revoked", false},         {"members", {0, 1, 2, 3}}};
    if (!states.is_null()) c["states"] = states;
    return c;
}

const json &comm_row(const json &view, const std::string &key) {
    for (const auto &c : view["communicators"])
        if (c["key"] == key) return c;
    FAIL("no communicator " << key << " in " << view.dump(2));
    static json none;
    return none;
}

}  // namespace

TEST_CASE("a rank that live ranks see failed is failed; its stale record does not count") {
    JobRecords j;
    j.job = "7";
    j.started_ms = 1000;
    const json failed_view = {"OK", "OK", "FAILED", "OK"};
    for (int r : {0, 1, 3}) {
        j.ranks[r] = record(r, "running", json::array({world_comm("DETECTED", failed_view)}));
        j.ranks[r]["processes"] = failed_view;
    }
    j.ranks[2] = record(2, "running", json::array({world_comm("OK")}));  // killed: never updated again
    const json v = job_view(j);
    CAPTURE(v.dump(2));
    REQUIRE(v["ranks"].size() == 4);
    CHECK(v["ranks"][2]["state"] == "failed");
    CHECK(v["ranks"][0]["state"] == "running");
    CHECK(v["ranks"][2]["processes"] == json({"OK", "OK", "OK", "OK"}));  // its own record, all OK
    const json &w = comm_row(v, "0:0");
    CHECK(w["state"] == "DETECTED");
    CHECK(w["reported_by"] == json({0, 1, 3}));
    REQUIRE(w["cells"].size() == 4);
    CHECK(w["cells"][2]["state"] == "FAILED");
    CHECK(w["cells"][0]["state"] == "OK");
}

TEST_CASE("the most advanced state of the live members is the communicator's; finalized ranks are dim cells") {
    JobRecords j;
    j.job = "7";
    j.ranks[0] = record(0, "running", json::array({world_comm("RECOVER")}));
    j.ranks[1] = record(1, "running", json::array({world_comm("DETECTED")}));
    j.ranks[2] = record(2, "running", json::array({world_comm("OK")}));
    j.ranks[3] = record(3, "finalized", json::array({world_comm("OK")}));
    const json v = job_view(j);
    const json &w = comm_row(v, "0:0");
    CHECK(w["state"] == "RECOVER");
    CHECK(w["cells"][3]["state"] == "FINALIZED");
    CHECK(v["ranks"][3]["state"] == "finalized");
}

TEST_CASE("the pieces of a split share a context id and are two rows") {
    auto piece = [](std::vector<int> members, int rank) {
        return json{{"id", 4},        {"name", ""},    {"rank", rank},     {"size", 2},         {"inter", false},
                    {"mode", "ulfm"}, {"state", "OK"}, {"revoked", false}, {"members", members}};
    };
    JobRecords j;
    j.job = "7";
    j.ranks[0] = record(0, "running", json::array({piece({0, 2}, 0)}));
    j.ranks[2] = record(2, "running", json::array({piece({0, 2}, 1)}));
    j.ranks[1] = record(1, "running", json::array({piece({1, 3}, 0)}));
    j.ranks[3] = record(3, "running", json::array({piece({1, 3}, 1)}));
    const json v = job_view(j);
    CAPTURE(v.dump(2));
    REQUIRE(v["communicators"].size() == 2);
    CHECK(comm_row(v, "4:0")["cells"].size() == 2);
    CHECK(comm_row(v, "4:1")["cells"][1]["world"] == 3);
    CHECK(v["ranks"][3]["state"] == "running");
}

TEST_CASE("a rank that never reported is listed as such") {
    JobRecords j;
    j.job = "7";
    j.ranks[0] = record(0, "running", json::array({world_comm("OK")}));
    const json v = job_view(j);
    REQUIRE(v["ranks"].size() == 4);
    CHECK(v["ranks"][1]["state"] == "not reported");
    CHECK(!v["ranks"][1].contains("pid"));
}

TEST_CASE("history: one failure detected by three ranks, one recovery with its duration, one still running") {
    JobRecords j;
    j.job = "7";
    j.started_ms = 1000;
    auto events = [](int rank, std::int64_t detected, std::int64_t start, std::int64_t end) {
        json e = json::array();
        e.push_back({{"seq", 1},
                     {"time_ms", detected},
                     {"kind", "failure_detected"},
                     {"world", 2},
                     {"incarnation", 0},
                     {"why", "killed by signal 9 (SIGKILL)"}});
        e.push_back({{"seq", 2},
                     {"time_ms", start},
                     {"kind", "recovery_start"},
                     {"comm", 2},
                     {"name", "work"},
                     {"mode", "shrink"},
                     {"size", 4}});
        e.push_back({{"seq", 3},
                     {"time_ms", end},
                     {"kind", "recovery_end"},
                     {"comm", 2},
                     {"name", "work"},
                     {"mode", "shrink"},
                     {"ok", true},
                     {"result", 2},
                     {"size", 3}});
        // A second recovery of "work" that rank 0 has not finished.
        if (rank == 0)
            e.push_back({{"seq", 4},
                         {"time_ms", end + 500},
                         {"kind", "recovery_start"},
                         {"comm", 2},
                         {"name", "work"},
                         {"mode", "shrink"},
                         {"size", 3}});
        return e;
    };
    j.ranks[0] = record(0, "running", json::array(), events(0, 3000, 3500, 3540));
    j.ranks[1] = record(1, "running", json::array(), events(1, 3004, 3501, 3550));
    j.ranks[3] = record(3, "running", json::array(), events(3, 3010, 3502, 3545));
    const json h = job_history(j);
    CAPTURE(h.dump(2));
    const auto &t = h["timeline"];
    REQUIRE(t.size() == 3);
    CHECK(t[0]["kind"] == "failure");
    CHECK(t[0]["world"] == 2);
    CHECK(t[0]["time_ms"] == 3000);
    CHECK(t[0]["spread_ms"] == 10);
    CHECK(t[0]["detected_by"].size() == 3);
    CHECK(t[1]["kind"] == "recovery");
    CHECK(t[1]["start_ms"] == 3500);
    CHECK(t[1]["end_ms"] == 3550);
    CHECK(t[1]["duration_ms"] == 50);
    CHECK(t[1]["after_failure_ms"] == 500);
    CHECK(t[1]["size_before"] == 4);
    CHECK(t[1]["size_after"] == 3);
    CHECK(t[1]["ranks"] == json({0, 1, 3}));
    CHECK(t[2]["kind"] == "recovery");
    CHECK(t[2]["duration_ms"].is_null());  // rank 0 started it and has not ended it
}

TEST_CASE("after the job: the survivors finalized, the killed rank stays failed, their last view decides") {
    JobRecords j;
    j.job = "7";
    const json failed_view = {"OK", "OK", "FAILED", "OK"};
    json shrunk = world_comm("OK");
    shrunk["size"] = 3;
    shrunk["members"] = {0, 1, 3};
    for (int r : {0, 1, 3}) {
        j.ranks[r] = record(r, "finalized", json::array({shrunk}));
        j.ranks[r]["processes"] = failed_view;
        j.ranks[r]["time_ms"] = 5000;
    }
    j.ranks[2] = record(2, "running", json::array({world_comm("OK")}));  // stale, time_ms 2000
    const json v = job_view(j);
    CAPTURE(v.dump(2));
    CHECK(v["ranks"][2]["state"] == "failed");
    CHECK(v["ranks"][0]["state"] == "finalized");
    const json &w = comm_row(v, "0:0");
    CHECK(w["size"] == 3);
    REQUIRE(w["cells"].size() == 3);
    CHECK(w["cells"][2]["world"] == 3);
    CHECK(w["cells"][2]["state"] == "FINALIZED");
    CHECK(w["reported_by"] == json({0, 1, 3}));
}
