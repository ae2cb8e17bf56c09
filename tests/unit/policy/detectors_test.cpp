// The detector components through the real loader (DirectPlugin from the
// build's plugins root) and the chain: which detector takes which fault and
// which protocol it chooses.
#include "policy_support.hpp"

using harness::policy::Decision;
using harness::policy::Fault;
using policytest::load;

namespace {

Fault fault_on(int host, bool host_failed) {
    Fault f;
    f.rank = 5;
    f.host = host;
    f.host_name = "h" + std::to_string(host);
    f.host_failed = host_failed;
    f.host_failures = 1;
    return f;
}

}  // namespace

TEST_CASE("process takes a fault on a live host (RESTART), physical one on a failed host (MIGRATE)") {
    auto policy = load(R"({"detectors": [{"component": "physical"}, {"component": "process"}]})");

    Decision live = policy->decide(fault_on(2, false));
    CHECK(live.protocol == "RESTART");
    CHECK(live.detector == "process");
    CHECK_FALSE(live.avoid_switch);
    CHECK(live.reason == "rank 5: its process failed on h2, which lives");

    Decision dead = policy->decide(fault_on(2, true));
    CHECK(dead.protocol == "MIGRATE");
    CHECK(dead.detector == "physical");
    CHECK_FALSE(dead.avoid_switch);
    CHECK(dead.reason == "h2 failed (rank 5)");
}

TEST_CASE("network: a switch with at least `threshold` of its hosts failed means MIGRATE off that switch") {
    auto policy = load(R"({"detectors": [{"component": "network", "threshold": 0.5},
                                         {"component": "physical"}, {"component": "process"}]})");
    Fault f = fault_on(4, true);
    f.switch_name = "sw1";
    f.switch_hosts = 3;

    f.switch_failed_hosts = 2;
    Decision two = policy->decide(f);
    CHECK(two.detector == "network");
    CHECK(two.protocol == "MIGRATE");
    CHECK(two.avoid_switch);
    CHECK(two.reason == "switch sw1: 2 of 3 hosts failed (threshold 0.5)");

    f.switch_failed_hosts = 1;  // 1/3 < 0.5: passed on
    Decision one = policy->decide(f);
    CHECK(one.detector == "physical");
    CHECK_FALSE(one.avoid_switch);

    f.switch_name.clear();  // no switch known: never the network's case
    f.switch_failed_hosts = 3;
    CHECK(policy->decide(f).detector == "physical");
}

TEST_CASE("repeated: the third fault on a host with threshold 2 migrates; the first two go on to process") {
    auto policy = load(R"({"detectors": [{"component": "repeated", "threshold": 2}, {"component": "process"}]})");
    Fault f = fault_on(3, false);
    for (int faults : {1, 2}) {
        f.host_failures = faults;
        Decision d = policy->decide(f);
        CHECK(d.detector == "process");
        CHECK(d.protocol == "RESTART");
    }
    f.host_failures = 3;
    Decision third = policy->decide(f);
    CHECK(third.detector == "repeated");
    CHECK(third.protocol == "MIGRATE");
    CHECK(third.reason == "h3: 3 faults, more than the threshold 2");
}

TEST_CASE("a detector's protocol key overrides its default; a fault nobody takes gets RESTART") {
    auto policy = load(R"({"detectors": [{"component": "physical", "protocol": "PROMOTE"}]})");
    CHECK(policy->decide(fault_on(1, true)).protocol == "PROMOTE");

    Decision none = policy->decide(fault_on(1, false));
    CHECK(none.protocol == "RESTART");
    CHECK_FALSE(none.avoid_switch);
    CHECK(none.reason == "no detector took it");
    CHECK(none.detector == "");
}

TEST_CASE("describe() is one line with each component's configuration, in file order") {
    auto policy = load(R"json({
      "detectors": [ {"component": "repeated", "threshold": 2, "protocol": "MIGRATE"},
                     {"component": "network", "threshold": 0.6},
                     {"component": "physical"},
                     {"component": "process"} ],
      "protocols": { "RESTART": {"fallback": "migrate"}, "PROMOTE": {"fallback": "restart"} },
      "placement": {"component": "sliding", "method": "hybrid(2D+1D+0D)"}
    })json");
    CHECK(policy->describe() ==
          "detectors repeated(threshold=2,protocol=MIGRATE) > network(threshold=0.6) > physical > process; "
          "protocols RESTART(fallback=migrate), PROMOTE(fallback=restart); "
          "placement sliding(method=hybrid(2D+1D+0D))");
    CHECK(policy->names_placement());
}

TEST_CASE("the built-in policy: physical then process, sliding placement with the given method") {
    std::string text = harness::policy::Policy::default_text("1D");
    auto policy = load(text);
    CHECK(policy->describe() == "detectors physical > process; placement sliding(method=1D)");
    CHECK(load(harness::policy::Policy::default_text(""))->describe() ==
          "detectors physical > process; placement sliding(method=hybrid(all))");
    CHECK(policy->decide(fault_on(0, true)).protocol == "MIGRATE");
    CHECK(policy->decide(fault_on(0, false)).protocol == "RESTART");
}
