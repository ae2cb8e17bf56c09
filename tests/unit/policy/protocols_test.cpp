// The protocol components through the real loader, run by the chain against
// a launcher that records what it was asked and refuses what it is told to.
#include "policy_support.hpp"

#include <set>
#include <stdexcept>
#include <vector>

using harness::policy::Decision;
using harness::policy::Fault;
using policytest::load;

namespace {

class RecordingLauncher : public harness::policy::Launcher {
public:
    std::vector<std::string> calls;
    std::set<std::string> refuse;  // "start_on", "migrate", "promote"
    bool throw_on_migrate = false;

    std::string start_on(int rank, int host) override {
        calls.push_back("start_on " + std::to_string(rank) + " " + std::to_string(host));
        return refuse.count("start_on") ? "host " + std::to_string(host) + " failed" : "";
    }
    std::string migrate(int rank, bool avoid_switch) override {
        calls.push_back("migrate " + std::to_string(rank) + (avoid_switch ? " avoid_switch" : ""));
        if (throw_on_migrate) throw std::runtime_error("placement table corrupt");
        return refuse.count("migrate") ? "no free host" : "";
    }
    std::string promote(int rank) override {
        calls.push_back("promote " + std::to_string(rank));
        return refuse.count("promote") ? "no standby left" : "";
    }
    void leave_out(int rank, const std::string &reason) override {
        calls.push_back("leave_out " + std::to_string(rank) + ": " + reason);
    }
};

Fault fault() {
    Fault f;
    f.rank = 7;
    f.host = 2;
    f.host_name = "h2";
    f.host_failures = 1;
    return f;
}

Decision decision(const std::string &protocol, bool avoid_switch = false) {
    return Decision{protocol, avoid_switch, "test decision", "test"};
}

using Calls = std::vector<std::string>;

}  // namespace

TEST_CASE("restart starts the rank on its host; refused, it migrates (fallback migrate, the default)") {
    auto policy = load(R"({"detectors": [{"component": "process"}]})");
    RecordingLauncher l;
    CHECK(policy->recover(fault(), decision("RESTART"), l) == "");
    CHECK(l.calls == Calls{"start_on 7 2"});

    RecordingLauncher refusing;
    refusing.refuse = {"start_on"};
    CHECK(policy->recover(fault(), decision("RESTART", true), refusing) == "");
    CHECK(refusing.calls == Calls{"start_on 7 2", "migrate 7 avoid_switch"});

    refusing.calls.clear();
    refusing.refuse = {"start_on", "migrate"};
    CHECK(policy->recover(fault(), decision("RESTART"), refusing) ==
          "RESTART: start_on host 2: host 2 failed; migrate: no free host");
}

TEST_CASE("restart with fallback none reports the refusal without migrating") {
    auto policy = load(R"({"detectors": [{"component": "process"}], "protocols": {"RESTART": {"fallback": "none"}}})");
    RecordingLauncher l;
    l.refuse = {"start_on"};
    CHECK(policy->recover(fault(), decision("RESTART"), l) == "RESTART: start_on host 2: host 2 failed");
    CHECK(l.calls == Calls{"start_on 7 2"});
}

TEST_CASE("migrate asks the launcher to migrate, passing avoid_switch on") {
    auto policy = load(R"({"detectors": [{"component": "physical"}]})");
    RecordingLauncher l;
    CHECK(policy->recover(fault(), decision("MIGRATE", true), l) == "");
    CHECK(policy->recover(fault(), decision("MIGRATE", false), l) == "");
    CHECK(l.calls == Calls{"migrate 7 avoid_switch", "migrate 7"});

    RecordingLauncher throwing;
    throwing.throw_on_migrate = true;
    CHECK(policy->recover(fault(), decision("MIGRATE"), throwing) ==
          "MIGRATE: migrate: the launcher failed: placement table corrupt");
}

TEST_CASE("promote promotes a standby; with none left it falls back as configured") {
    auto policy = load(R"({"detectors": [{"component": "physical", "protocol": "PROMOTE"}]})");
    RecordingLauncher l;
    CHECK(policy->recover(fault(), decision("PROMOTE"), l) == "");
    CHECK(l.calls == Calls{"promote 7"});

    RecordingLauncher no_standby;
    no_standby.refuse = {"promote"};
    CHECK(policy->recover(fault(), decision("PROMOTE"), no_standby) == "");
    CHECK(no_standby.calls == Calls{"promote 7", "migrate 7"});

    auto to_restart = load(R"({"detectors": [{"component": "physical", "protocol": "PROMOTE"}],
                               "protocols": {"PROMOTE": {"fallback": "restart"}}})");
    RecordingLauncher restarted;
    restarted.refuse = {"promote"};
    CHECK(to_restart->recover(fault(), decision("PROMOTE"), restarted) == "");
    CHECK(restarted.calls == Calls{"promote 7", "start_on 7 2"});
    // As the RESTART protocol: its host refused too, it migrates.
    RecordingLauncher host_gone;
    host_gone.refuse = {"promote", "start_on"};
    CHECK(to_restart->recover(fault(), decision("PROMOTE"), host_gone) == "");
    CHECK(host_gone.calls == Calls{"promote 7", "start_on 7 2", "migrate 7"});

    auto without = load(R"({"detectors": [{"component": "physical", "protocol": "PROMOTE"}],
                            "protocols": {"PROMOTE": {"fallback": "none"}}})");
    RecordingLauncher alone;
    alone.refuse = {"promote"};
    CHECK(without->recover(fault(), decision("PROMOTE"), alone) == "PROMOTE: promote: no standby left");
    CHECK(alone.calls == Calls{"promote 7"});
}

TEST_CASE("ignore leaves the rank out with the detector's reason") {
    auto policy = load(R"({"detectors": [{"component": "process", "protocol": "IGNORE"}]})");
    Decision d = policy->decide(fault());
    REQUIRE(d.protocol == "IGNORE");
    RecordingLauncher l;
    CHECK(policy->recover(fault(), d, l) == "");
    CHECK(l.calls == Calls{"leave_out 7: rank 7: its process failed on h2, which lives"});
}

TEST_CASE("a decision naming a protocol with no component is a one-line reason, not a crash") {
    auto policy = load(R"({"detectors": [{"component": "process"}]})");
    RecordingLauncher l;
    std::string why = policy->recover(fault(), decision("TELEPORT"), l);
    CHECK(why.find("protocol 'TELEPORT'") != std::string::npos);
    CHECK(why.find("no such component (protocol/teleport: not found") != std::string::npos);
    CHECK(policy->recover(fault(), decision("lower"), l).find("not a protocol name") != std::string::npos);
    CHECK(l.calls.empty());
}
