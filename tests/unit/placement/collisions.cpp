// The collision count: routes in dimension order, torus wrap-around, and the
// paper's Figure 4 case (one failure substituted far away: five messages on a link).
#include <harness/placement/collisions.hpp>
#include <harness/placement/placement.hpp>

#include <doctest/doctest.h>

using namespace harness::placement;

TEST_CASE("a failure-free stencil on its own grid never collides") {
    for (bool torus : {false, true}) {
        for (const std::vector<int> &extents : {std::vector<int>{6, 5}, std::vector<int>{4, 3, 5}}) {
            const HostGrid grid(extents, torus);
            const Placement p(grid, SparePattern{grid.dims(), 0, 1});  // no spares: ranks on every host
            CollisionCounter counter(grid);
            CAPTURE(grid.describe());
            CHECK(counter.max_collisions(p.logical_extents(), p.rank_to_host()) == 1);
            // A periodic stencil fits a torus, but its wrap-around messages cross a mesh.
            CHECK(counter.max_collisions(p.logical_extents(), p.rank_to_host(), true) == (torus ? 1 : 2));
        }
    }
}

TEST_CASE("messages go along dimension 0 first, then 1") {
    const HostGrid grid({3, 3}, false);
    // Two ranks side by side logically, on hosts (0,0) and (2,2).
    const Placement p(grid, {2, 1}, {grid.host({0, 0}), grid.host({2, 2})}, {});
    CollisionCounter counter(grid);
    CHECK(counter.max_collisions(p.logical_extents(), p.rank_to_host()) == 1);
    CHECK(counter.link_count(grid.host({0, 0}), 0, +1) == 1);
    CHECK(counter.link_count(grid.host({1, 0}), 0, +1) == 1);
    CHECK(counter.link_count(grid.host({2, 0}), 1, +1) == 1);
    CHECK(counter.link_count(grid.host({2, 1}), 1, +1) == 1);
    CHECK(counter.link_count(grid.host({0, 1}), 0, +1) == 0);
    // The way back: x first from (2,2), then y down column 0.
    CHECK(counter.link_count(grid.host({2, 2}), 0, -1) == 1);
    CHECK(counter.link_count(grid.host({0, 2}), 1, -1) == 1);
}

TEST_CASE("on a torus a message takes the shorter way around") {
    const HostGrid grid({5, 2}, true);
    const Placement p(grid, {2, 1}, {grid.host({0, 0}), grid.host({4, 0})}, {});
    CollisionCounter counter(grid);
    counter.max_collisions(p.logical_extents(), p.rank_to_host());
    CHECK(counter.link_count(grid.host({0, 0}), 0, -1) == 1);  // 0 → 4 across the wrap link
    CHECK(counter.link_count(grid.host({4, 0}), 0, +1) == 1);  // 4 → 0 likewise
    CHECK(counter.link_count(grid.host({1, 0}), 0, -1) == 0);
}

TEST_CASE("Figure 4: a failed host replaced by a distant spare puts five messages on one link") {
    // 7x6 mesh, 2D(1,1): spares in column 6. Host (2,3) fails; its rank goes to (6,3).
    const HostGrid grid({7, 6}, false);
    Placement p(grid, SparePattern::parse("2D(1,1)"));
    const Outcome o = p.fail(grid.host({2, 3}), Method::parse("0d", 2));
    REQUIRE(std::holds_alternative<Substitution>(o));
    CHECK(std::get<Substitution>(o).moves[0].to == grid.host({6, 3}));
    CollisionCounter counter(grid);
    CHECK(counter.max_collisions(p.logical_extents(), p.rank_to_host()) == 5);
    // The four messages of the substitute, all routed west along row 3 first, and (4,3)'s own.
    CHECK(counter.link_count(grid.host({4, 3}), 0, -1) == 5);
}

TEST_CASE("the incremental count after each substitution equals a full count") {
    struct Case {
        const char *grid;
        bool torus;
        bool periodic;
        const char *spares;
        const char *method;
    };
    const Case cases[] = {
        {"9x8", false, false, "2D(2,1)", "hybrid(all)"},
        {"9x8", true, true, "2D(2,1)", "hybrid(all)"},
        {"9x8", false, false, "2D(1,1)", "0d"},
        {"8x7", true, false, "2D(2,2)", "hybrid(1D+0D)"},
        {"5x5x6", false, false, "3D(2,1)", "hybrid(all)"},
        {"5x5x6", true, true, "3D(3,1)", "hybrid(-2D)"},
    };
    std::uint64_t state = 12345;
    auto next = [&](int bound) {  // a small LCG: reproducible across standard libraries
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<int>((state >> 33) % static_cast<std::uint64_t>(bound));
    };
    for (const Case &c : cases) {
        CAPTURE(c.grid);
        CAPTURE(c.method);
        const HostGrid grid = HostGrid::parse(c.grid, c.torus);
        const Method method = Method::parse(c.method, grid.dims());
        for (int sequence = 0; sequence < 20; ++sequence) {
            Placement p(grid, SparePattern::parse(c.spares));
            CollisionCounter incremental(grid);
            CollisionCounter full(grid);
            incremental.max_collisions(p.logical_extents(), p.rank_to_host(), c.periodic);
            for (int f = 0; f < 12; ++f) {
                const Outcome o = p.fail(p.host_of(next(p.ranks())), method);
                if (!std::holds_alternative<Substitution>(o)) break;
                const int updated = incremental.update(std::get<Substitution>(o).moves, p.rank_to_host());
                REQUIRE(updated == full.max_collisions(p.logical_extents(), p.rank_to_host(), c.periodic));
                for (int host = 0; host < grid.size(); ++host)
                    for (int d = 0; d < grid.dims(); ++d)
                        for (int dir : {-1, 1})
                            REQUIRE(incremental.link_count(host, d, dir) == full.link_count(host, d, dir));
            }
        }
    }
}
