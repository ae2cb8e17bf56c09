// ftmpirun's recovery (tools/ftmpirun/src/job_recovery.*) with the real
// network detector, MIGRATE and the sliding placement: when the detector
// asks to avoid the fault's switch, no move of the substitution lands on a
// host behind it (docs/policies.md, `migrate`), and when every method needs
// such a host the migration is refused and the rank left out (a gap a later
// round asks to refill, not a chosen one).
#include "job_recovery.hpp"
#include "policy_support.hpp"

#include <algorithm>

using namespace harness::ftmpirun;
using policytest::load;

namespace {

// A 2x2 job on a 3x3 host grid with spares 2D(2,1): job host h is grid host
// h (row-major, x fastest); ranks 0-3 on hosts 0, 1, 3, 4.
GridLayout grid3x3() {
    GridLayout g;
    g.rank_extents = {2, 2};
    g.host_extents = {3, 3};
    g.spares = "2D(2,1)";
    for (int h = 0; h < 9; ++h) {
        g.grid_of_host.push_back(h);
        g.host_of_grid.push_back(h);
    }
    g.rank_grid = {0, 1, 3, 4};
    return g;
}

harness::policy::Layout layout_of(const GridLayout &g) {
    harness::policy::Layout l;
    l.host_extents = g.host_extents;
    l.spares = g.spares;
    l.rank_extents = g.rank_extents;
    l.rank_host = g.rank_grid;
    return l;
}

// Host 0 failed; switch_of[h] is host h's switch.
JobFacts facts(const std::vector<std::string> &switch_of) {
    JobFacts f;
    for (int h = 0; h < 9; ++h) {
        HostFacts hf;
        hf.member_id = "m" + std::to_string(h);
        hf.alive = h != 0;
        hf.switch_name = switch_of[static_cast<std::size_t>(h)];
        hf.processes = h == 1 || h == 3 || h == 4;
        f.hosts.push_back(hf);
    }
    f.rank_host = {0, 1, 3, 4};
    return f;
}

Recovery recovery(const std::string &threshold) {
    auto policy = load(R"({"detectors": [{"component": "network", "threshold": )" + threshold +
                       R"(}], "placement": {"component": "sliding", "method": "1D"}})");
    auto placement = policy->open_placement(layout_of(grid3x3()));
    REQUIRE_MESSAGE(placement.ok(), (placement.ok() ? "" : placement.error().message));
    return Recovery(std::move(policy), grid3x3(), std::move(*placement));
}

std::string notes(const Recovery::Outcome &o) {
    std::string s;
    for (const auto &n : o.notes) s += n + "\n";
    return s;
}

}  // namespace

TEST_CASE("MIGRATE off a switch with a placement: the slide goes along the column, not onto the switch's hosts") {
    // Rows are switches: s0 = hosts 0-2, s1 = 3-5, s2 = 6-8. Without the
    // switch, 1D slides row 0 (rank 1 onto host 2, rank 0 onto host 1),
    // behind the failed host's switch s0.
    Recovery r = recovery("0.3");
    auto out = r.on_fault(0, 0, 0, true, facts({"s0", "s0", "s0", "s1", "s1", "s1", "s2", "s2", "s2"}));
    INFO(notes(out));
    CHECK(notes(out).find("by detector network") != std::string::npos);
    REQUIRE(out.plans.count(0) == 1);
    for (const auto &[rank, plan] : out.plans) {
        CAPTURE(rank);
        CHECK(plan.kind == RankPlan::Kind::start_on);
        CHECK(plan.host >= 3);  // off s0
    }
    // The column slide: rank 2 from host 3 to 6, rank 0 into host 3.
    CHECK(out.plans.at(0).host == 3);
    REQUIRE(out.plans.count(2) == 1);
    CHECK(out.plans.at(2).host == 6);
    CHECK(out.moved == std::vector<int>{2});
}

TEST_CASE("MIGRATE off a switch with a placement: every method needs the switch, the rank is left out") {
    // Every free host (2, 5, 6, 7, 8) is behind the failed host's switch.
    Recovery r = recovery("0.1");
    auto out = r.on_fault(0, 0, 0, true, facts({"s0", "s1", "s0", "s1", "s1", "s0", "s0", "s0", "s0"}));
    INFO(notes(out));
    REQUIRE(out.plans.count(0) == 1);
    const RankPlan &plan = out.plans.at(0);
    CHECK(plan.kind == RankPlan::Kind::leave_out);
    CHECK(plan.why.find("off switch s0") != std::string::npos);
    CHECK_FALSE(plan.chosen);  // refused, not IGNORE: a later round asks again
    CHECK(out.plans.size() == 1);
    CHECK(out.moved.empty());
}
