// ftmpirun's host grid for spares and sliding (no VM needed): hostfile
// coord= and switch=, --grid/--spares layouts with and without coordinates,
// and the one-line refusals of layouts that cannot work.
#include "grid_layout.hpp"
#include "hosts.hpp"

#include <doctest/doctest.h>

using namespace harness;
using namespace harness::ftmpirun;

namespace {

std::vector<Host> hosts_named(int n) {
    std::vector<Host> hosts;
    for (int i = 0; i < n; ++i) hosts.push_back({"h" + std::to_string(i), {}, 1, {}, {}});
    return hosts;
}

bool says(const Result<GridLayout> &r, const std::string &part) {
    return !r.ok() && r.error().message.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("hostfile coord= and switch=") {
    auto e = parse_hostfile("n0 slots=1 coord=0,1 switch=s1\nn1 coord=2,0\n");
    REQUIRE(e.ok());
    CHECK((*e)[0].coord == std::vector<int>{0, 1});
    CHECK((*e)[0].switch_name == "s1");
    CHECK((*e)[1].coord == std::vector<int>{2, 0});
    CHECK((*e)[1].switch_name.empty());
    for (const char *bad : {"n0 coord=\n", "n0 coord=1,\n", "n0 coord=a,1\n", "n0 coord=-1,2\n", "n0 switch=\n"}) {
        auto r = parse_hostfile(bad);
        CHECK_FALSE(r.ok());
        if (!r.ok()) CHECK(r.error().message.find("line 1") != std::string::npos);
    }
    std::vector<MemberView> m{{"n0", {"127.0.0.1", 7001}, true}};
    auto twice = select_hosts(m, *parse_hostfile("n0 coord=0,0\nn0 coord=1,0\n"), 1);
    CHECK_FALSE(twice.ok());
}

TEST_CASE("2x2 grid with 2D(1,1) spares: a 3x2 host grid filled row-major") {
    auto g = make_grid_layout("2x2", "2D(1,1)", hosts_named(6), 4);
    REQUIRE(g.ok());
    CHECK(g->host_extents == std::vector<int>{3, 2});
    CHECK(g->spares == "2D(1,1)");
    // Ranks on the working block: (0,0) (1,0) (0,1) (1,1) = hosts 0, 1, 3, 4.
    CHECK(g->rank_grid == std::vector<int>{0, 1, 3, 4});
    CHECK(g->host_of_grid == std::vector<int>{0, 1, 2, 3, 4, 5});
    CHECK(g->missing().empty());
    CHECK(g->place(5) == "(2,1)");
}

TEST_CASE("coordinates from the hostfile place hosts anywhere; empty spare places are lost hosts") {
    auto hosts = hosts_named(5);
    const std::vector<std::vector<int>> coords{{1, 1}, {0, 0}, {1, 0}, {0, 1}, {2, 0}};
    for (std::size_t i = 0; i < hosts.size(); ++i) hosts[i].coord = coords[i];
    auto g = make_grid_layout("2x2", "2D(1,1)", hosts, 4);
    REQUIRE(g.ok());
    CHECK(g->rank_grid == std::vector<int>{0, 1, 3, 4});
    CHECK(g->host_of_grid[0] == 1);  // h1 at (0,0) runs rank 0
    CHECK(g->host_of_grid[4] == 0);  // h0 at (1,1) runs rank 3
    CHECK(g->missing() == std::vector<int>{5});
}

TEST_CASE("layouts that cannot work are refused with one line") {
    CHECK(says(make_grid_layout("2x2", "", hosts_named(4), 5), "--grid 2x2 has 4 ranks, the job 5"));
    CHECK(says(make_grid_layout("2y2", "", hosts_named(4), 4), "--grid 2y2"));
    CHECK(says(make_grid_layout("2x2", "3D(1,1)", hosts_named(6), 4), "3-dimensional"));
    CHECK(says(make_grid_layout("2x2", "2D(1,1)", hosts_named(4), 4), "needs 6 hosts, the host list gives 4"));
    auto hosts = hosts_named(2);
    hosts[0].coord = {0, 0};
    CHECK(says(make_grid_layout("2x1", "", hosts, 2), "has no coord="));
    hosts[1].coord = {5, 0};
    CHECK(says(make_grid_layout("2x1", "", hosts, 2), "outside the 2x1 host grid"));
    hosts[1].coord = {0, 0};
    CHECK(says(make_grid_layout("2x1", "", hosts, 2), "share the grid place (0,0)"));
}
