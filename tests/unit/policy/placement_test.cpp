// placement/sliding through the real loader gives what harness::placement
// gives for the same case, keeps its state between failures, and refuses a
// too small buffer without changing anything.
#include "policy_support.hpp"

#include <harness/placement/placement.hpp>
#include <harness/policy.h>

#include <variant>

namespace hp = harness::placement;
using harness::policy::Layout;
using policytest::load;

namespace {

// A 3x3 mesh with spares 2D(2,1): ranks 0-3 on the working block (hosts 0, 1, 3, 4).
Layout grid3x3() {
    Layout l;
    l.host_extents = {3, 3};
    l.spares = "2D(2,1)";
    l.rank_extents = {2, 2};
    l.rank_host = {0, 1, 3, 4};
    return l;
}

hp::Placement library3x3() {
    return hp::Placement(hp::HostGrid({3, 3}, false), hp::SparePattern::parse("2D(2,1)"));
}

std::vector<std::tuple<int, int, int>> moves_of(const std::vector<harness::policy::Move> &moves) {
    std::vector<std::tuple<int, int, int>> out;
    for (const auto &m : moves) out.emplace_back(m.rank, m.from, m.to);
    return out;
}

std::vector<std::tuple<int, int, int>> moves_of(const std::vector<hp::Move> &moves) {
    std::vector<std::tuple<int, int, int>> out;
    for (const auto &m : moves) out.emplace_back(m.rank, m.from, m.to);
    return out;
}

}  // namespace

TEST_CASE("sliding with method 1D on 3x3, 2D(2,1): the moves are the library's, failure after failure") {
    auto policy = load(R"({"detectors": [{"component": "physical"}],
                           "placement": {"component": "sliding", "method": "1D"}})");
    auto placement = policy->open_placement(grid3x3());
    REQUIRE_MESSAGE(placement.ok(), (placement.ok() ? "" : placement.error().message));
    hp::Placement library = library3x3();
    hp::Method method = hp::Method::parse("1D", 2);

    // Host 0 first (the case the brief names), then more, until 1D refuses.
    int handled = 0;
    for (int host : {0, 4, 1, 3}) {
        CAPTURE(host);
        auto got = (*placement)->fail(host);
        hp::Outcome expected = library.fail(host, method);
        if (auto *s = std::get_if<hp::Substitution>(&expected)) {
            REQUIRE_MESSAGE(got.ok(), (got.ok() ? "" : got.error().message));
            CHECK(got->method == (s->degree < 0 ? std::string() : std::to_string(s->degree) + "D"));
            CHECK(moves_of(got->moves) == moves_of(s->moves));
            ++handled;
        } else {
            REQUIRE_FALSE(got.ok());
            CHECK(got.error().message == std::get<hp::Refusal>(expected).reason);
        }
    }
    CHECK(handled >= 2);
}

TEST_CASE("the first failure of host 0 slides a line of two ranks (pipeline order)") {
    auto policy = load(R"({"detectors": [{"component": "physical"}],
                           "placement": {"component": "sliding", "method": "1D"}})");
    auto placement = policy->open_placement(grid3x3());
    REQUIRE(placement.ok());
    auto got = (*placement)->fail(0);
    REQUIRE(got.ok());
    CHECK(got->method == "1D");
    REQUIRE(got->moves.size() == 2);
    // The rank moving into the free host comes first.
    CHECK(got->moves[0].from != 0);
    CHECK(got->moves[1].from == 0);
    CHECK(got->moves[1].rank == 0);
}

TEST_CASE("a spare failing while free moves nothing; a bad layout or method is one line") {
    auto policy = load(R"({"detectors": [{"component": "physical"}],
                           "placement": {"component": "sliding"}})");
    auto placement = policy->open_placement(grid3x3());
    REQUIRE(placement.ok());
    auto spare = (*placement)->fail(8);
    REQUIRE(spare.ok());
    CHECK(spare->method == "");
    CHECK(spare->moves.empty());
    auto again = (*placement)->fail(8);
    REQUIRE_FALSE(again.ok());
    CHECK(again.error().message == "host 8 has already failed");

    Layout bad = grid3x3();
    bad.spares = "2D(3,1)";
    auto refused = policy->open_placement(bad);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.rfind("policy.json: placement (sliding): ", 0) == 0);

    auto four_d = load(R"json({"detectors": [{"component": "physical"}],
                               "placement": {"component": "sliding", "method": "hybrid(3D+0D)"}})json");
    auto too_many_dims = four_d->open_placement(grid3x3());
    REQUIRE_FALSE(too_many_dims.ok());
    CHECK(too_many_dims.error().message.find("method 'hybrid(3D+0D)'") != std::string::npos);
}

TEST_CASE("the C table: a buffer too small is TOO_MANY with the count it takes, and nothing changes") {
    harness::hlib::DirectLoadOptions local;
    local.ask_daemon = false;
    auto plugin = harness::hlib::DirectPlugin::load(HARNESS_PLUGINS_ROOT, {"placement", "sliding"}, local);
    REQUIRE_MESSAGE(plugin.ok(), (plugin.ok() ? "" : plugin.error().describe()));
    auto ops = (*plugin)->interface_as<harness_policy_placement_ops>(HARNESS_POLICY_PLACEMENT_INTERFACE,
                                                                     HARNESS_POLICY_VERSION);
    REQUIRE(ops.ok());

    const int32_t extents[] = {3, 3}, ranks[] = {2, 2}, hosts[] = {0, 1, 3, 4};
    harness_policy_layout layout{sizeof layout, 2, extents, 0, "2D(2,1)", ranks, 4, hosts, 0, nullptr};
    const char *keys[] = {"method"}, *values[] = {"1D"};
    harness_policy_config config{sizeof config, 1, keys, values};
    char why[200] = {};
    void *p = (*ops)->open(&config, &layout, why, sizeof why);
    REQUIRE_MESSAGE(p != nullptr, why);

    harness_policy_move moves[8] = {};
    int32_t count = -1;
    char method[8] = "x";
    CHECK((*ops)->fail(p, 0, moves, 1, &count, method, sizeof method, why, sizeof why) == HARNESS_POLICY_TOO_MANY);
    CHECK(count == 2);
    CHECK(std::string(why) == "2 moves, room for 1");
    // Nothing changed: the same failure still goes through, as on a fresh placement.
    CHECK((*ops)->fail(p, 0, moves, 8, &count, method, sizeof method, why, sizeof why) == HARNESS_POLICY_OK);
    hp::Placement library = library3x3();
    auto expected = std::get<hp::Substitution>(library.fail(0, hp::Method::parse("1D", 2)));
    REQUIRE(count == static_cast<int32_t>(expected.moves.size()));
    for (int32_t i = 0; i < count; ++i) {
        CHECK(moves[i].rank == expected.moves[i].rank);
        CHECK(moves[i].to == expected.moves[i].to);
    }
    CHECK(std::string(method) == "1D");
    (*ops)->close(p);

    const char *bad_keys[] = {"methd"};
    harness_policy_config bad{sizeof bad, 1, bad_keys, values};
    CHECK((*ops)->open(&bad, &layout, why, sizeof why) == nullptr);
    CHECK(std::string(why) == "unknown key 'methd' (it takes method)");
}
