// The substitution methods on small hand-made cases: which ranks move where,
// in which order, and when a method refuses.
#include <harness/placement/collisions.hpp>
#include <harness/placement/placement.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>

using namespace harness::placement;

namespace {

// 5x5 mesh with 2D(2,1): ranks on the 4x4 block, spares in column 4 and row 4.
Placement five_by_five() {
    return Placement(HostGrid({5, 5}, false), SparePattern::parse("2D(2,1)"));
}

int at(const Placement &p, int x, int y) {
    return p.grid().host({x, y});
}

Substitution handled(const Outcome &o) {
    REQUIRE(std::holds_alternative<Substitution>(o));
    return std::get<Substitution>(o);
}

int max_collisions(const Placement &p) {
    CollisionCounter counter(p.grid());
    return counter.max_collisions(p.logical_extents(), p.rank_to_host());
}

}  // namespace

TEST_CASE("the failure-free map puts ranks row-major on the working block") {
    const Placement p = five_by_five();
    CHECK(p.ranks() == 16);
    CHECK(p.logical_extents() == std::vector<int>{4, 4});
    CHECK(p.host_of(5) == at(p, 1, 1));
    CHECK(p.rank_on(at(p, 4, 0)) == -1);
    CHECK(p.free(at(p, 4, 4)));
}

TEST_CASE("0D: the rank goes to the nearest free host; equal distances take the lowest host number") {
    Placement p = five_by_five();
    const Substitution &s = handled(p.fail(at(p, 1, 1), Method::parse("0d", 2)));
    CHECK(s.degree == 0);
    REQUIRE(s.moves.size() == 1);
    // (4,1) and (1,4) are both 3 hops away; (4,1) is host 9, (1,4) host 21.
    CHECK(s.moves[0].rank == 5);
    CHECK(s.moves[0].from == at(p, 1, 1));
    CHECK(s.moves[0].to == at(p, 4, 1));
    CHECK(p.host_of(5) == at(p, 4, 1));
    CHECK(p.failed(at(p, 1, 1)));
    CHECK(p.failed_count() == 1);
}

TEST_CASE("1D: the row slides towards its spare, the far end first") {
    Placement p = five_by_five();
    const Method one = Method::parse("1d", 2);
    const Substitution &s = handled(p.fail(at(p, 1, 1), one));
    CHECK(s.degree == 1);
    CHECK(s.dim == 0);
    CHECK(s.span.empty());
    REQUIRE(s.moves.size() == 3);
    CHECK(s.moves[0].rank == 7);  // (3,1) → the spare (4,1)
    CHECK(s.moves[0].to == at(p, 4, 1));
    CHECK(s.moves[1].rank == 6);  // (2,1) → (3,1)
    CHECK(s.moves[2].rank == 5);  // the lost rank → (2,1)
    CHECK(s.moves[2].from == at(p, 1, 1));
    CHECK(p.host_of(5) == at(p, 2, 1));
    CHECK(p.host_of(4) == at(p, 0, 1));  // ranks before the failure stay
    // Rank 5, now on (2,1), sends left, up and down through the link (2,1)→(1,1): 2 + F_n = 3.
    CHECK(max_collisions(p) == 3);

    SUBCASE("a second failure in another row slides a row again (uneven directions)") {
        const Substitution &t = handled(p.fail(at(p, 2, 3), one));
        CHECK(t.dim == 0);
    }
    SUBCASE("a second failure in the same row slides its column, into the spare row") {
        const Substitution &t = handled(p.fail(at(p, 3, 1), one));  // now holds rank 6
        CHECK(t.dim == 1);
        REQUIRE(t.moves.size() == 3);
        CHECK(t.moves[0].to == at(p, 3, 4));
        CHECK(t.moves[2].rank == 6);
        CHECK(p.host_of(6) == at(p, 3, 2));
        CHECK(p.host_of(11) == at(p, 3, 3));  // the rest of column 3 shifted down by one
        CHECK(p.host_of(15) == at(p, 3, 4));
    }
}

TEST_CASE("2D: the half-plane beyond the failed column slides, the column is vacated, no collision") {
    Placement p = five_by_five();
    const Method two = Method::parse("2d", 2);
    const Substitution &s = handled(p.fail(at(p, 1, 1), two));
    CHECK(s.degree == 2);
    CHECK(s.dim == 0);
    CHECK(s.span == std::vector<int>{1});
    CHECK(s.moves.size() == 12);  // 3 ranks in each of 4 rows
    for (int y = 0; y < 5; ++y) CHECK(p.rank_on(at(p, 1, y)) == -1);
    for (int rank = 0; rank < 16; ++rank) {
        const int x = rank % 4, y = rank / 4;
        CHECK(p.host_of(rank) == at(p, x >= 1 ? x + 1 : x, y));
    }
    CHECK(max_collisions(p) == 1);

    // The second failure takes the spare row; a third finds no free host beyond it in every line.
    CHECK(handled(p.fail(at(p, 3, 2), two)).dim == 1);
    CHECK(max_collisions(p) == 1);
    const std::vector<int> before = p.rank_to_host();
    const Outcome third = p.fail(at(p, 4, 3), two);
    REQUIRE(std::holds_alternative<Refusal>(third));
    CHECK(std::get<Refusal>(third).reason.find("2D sliding") == 0);
    // A refusal changes nothing, so the caller can fall back.
    CHECK(p.rank_to_host() == before);
    CHECK_FALSE(p.failed(at(p, 4, 3)));
    CHECK(p.failed_count() == 2);

    // A hybrid falls back to the next degree.
    const Substitution &fallback = handled(p.fail(at(p, 4, 3), Method::parse("hybrid(2D+1D+0D)", 2)));
    CHECK(fallback.degree < 2);
}

TEST_CASE("a slide goes towards the low end, into hosts vacated earlier, when the spare side is full") {
    Placement p = five_by_five();
    handled(p.fail(at(p, 1, 1), Method::parse("2d", 2)));  // column 1 vacated, column 4 full
    const Substitution &s = handled(p.fail(at(p, 3, 0), Method::parse("1d", 2)));
    CHECK(s.dim == 0);
    CHECK(s.step == -1);
    REQUIRE(s.moves.size() == 2);
    CHECK(s.moves[0].rank == 1);  // logical (1,0), on (2,0) since the 2D slide → the vacated (1,0)
    CHECK(s.moves[0].to == at(p, 1, 0));
    CHECK(s.moves[1].rank == 2);  // the lost rank → (2,0)
    CHECK(p.host_of(2) == at(p, 2, 0));
    CHECK(max_collisions(p) == 2);  // rank 2 sends right and down through (2,0)→(3,0); row 0 has no row above
}

TEST_CASE("1D refuses when neither the row nor the column of the failed host has a free host left") {
    // 3x3 with 2D(2,1): ranks on 2x2; rows 0 and 1 take their spares, then column 1 takes its spare.
    Placement p(HostGrid({3, 3}, false), SparePattern::parse("2D(2,1)"));
    const Method one = Method::parse("1d", 2);
    handled(p.fail(p.grid().host({0, 0}), one));  // row 0 → (2,0)
    handled(p.fail(p.grid().host({0, 1}), one));  // row 1 → (2,1)
    // Rows are full: columns 0 and 1 still reach the spare row.
    handled(p.fail(p.grid().host({1, 0}), one));
    const Outcome o = p.fail(p.grid().host({1, 1}), one);
    REQUIRE(std::holds_alternative<Refusal>(o));
    CHECK(std::get<Refusal>(o).reason.find("1D sliding: no slab through host 4") == 0);
    CHECK(p.free(p.grid().host({2, 2})));  // the corner is out of every working row and column
}

TEST_CASE("a failed spare only leaves the pool; failing twice or outside the grid throws") {
    Placement p = five_by_five();
    const Substitution &s = handled(p.fail(at(p, 4, 4), Method::parse("1d", 2)));
    CHECK(s.degree == -1);
    CHECK(s.moves.empty());
    CHECK(p.failed(at(p, 4, 4)));
    CHECK_FALSE(p.free(at(p, 4, 4)));
    CHECK_THROWS_AS(p.fail(at(p, 4, 4), Method::parse("1d", 2)), std::invalid_argument);
    CHECK_THROWS_AS(p.fail(25, Method::parse("1d", 2)), std::invalid_argument);
    CHECK_THROWS_AS(p.fail(-1, Method::parse("1d", 2)), std::invalid_argument);
}

TEST_CASE("0D refuses once no free host is left") {
    Placement p(HostGrid({2, 2}, false), SparePattern::parse("2D(1,1)"));  // ranks on column 0, spares column 1
    const Method zero = Method::parse("0d", 2);
    handled(p.fail(p.grid().host({0, 0}), zero));
    handled(p.fail(p.grid().host({0, 1}), zero));
    const Outcome o = p.fail(p.grid().host({1, 0}), zero);
    REQUIRE(std::holds_alternative<Refusal>(o));
    CHECK(std::get<Refusal>(o).reason == "0D sliding: no free host left");
}

TEST_CASE("3D grid: 3D, 2D and 1D slides move a half-space, a plane's lines, one line") {
    const HostGrid grid({4, 4, 4}, false);
    const SparePattern pattern = SparePattern::parse("3D(2,1)");  // ranks on 3x3x4
    const int failed = grid.host({1, 1, 1});
    SUBCASE("3D") {
        Placement p(grid, pattern);
        const Substitution &s = handled(p.fail(failed, Method::parse("3d", 3)));
        CHECK(s.dim == 0);
        CHECK(s.span == std::vector<int>{1, 2});
        CHECK(s.moves.size() == 2 * 3 * 4);  // every rank with x >= 1
        CHECK(max_collisions(p) == 1);
    }
    SUBCASE("2D") {
        Placement p(grid, pattern);
        const Substitution &s = handled(p.fail(failed, Method::parse("2d", 3)));
        CHECK(s.dim == 0);
        CHECK(s.span == std::vector<int>{1});  // the plane z = 1
        CHECK(s.moves.size() == 2 * 3);
        for (int y = 0; y < 3; ++y) CHECK(p.rank_on(grid.host({1, y, 1})) == -1);
        CHECK(p.rank_on(grid.host({1, 1, 0})) >= 0);
    }
    SUBCASE("1D") {
        Placement p(grid, pattern);
        const Substitution &s = handled(p.fail(failed, Method::parse("1d", 3)));
        CHECK(s.moves.size() == 2);
        // The slid rank sends left and to its four neighbours across x through one link: 1 + 2 (q - 1).
        CHECK(max_collisions(p) == 5);
    }
}

TEST_CASE("a running job's map is taken as given and checked") {
    const HostGrid grid({3, 3}, false);
    Placement p(grid, {2, 2}, {0, 1, 3, 5}, {4});  // rank 3 already moved off the failed host 4
    CHECK(p.failed(4));
    CHECK(p.rank_on(5) == 3);
    CHECK(handled(p.fail(0, Method::parse("0d", 2))).moves[0].to == 2);
    CHECK_THROWS_AS(Placement(grid, {2, 2}, {0, 1, 3}, {}), std::invalid_argument);      // a rank short
    CHECK_THROWS_AS(Placement(grid, {2, 2}, {0, 1, 3, 3}, {}), std::invalid_argument);   // two on one host
    CHECK_THROWS_AS(Placement(grid, {2, 2}, {0, 1, 3, 4}, {4}), std::invalid_argument);  // on a failed host
    CHECK_THROWS_AS(Placement(grid, {2, 2}, {0, 1, 3, 9}, {}), std::invalid_argument);   // off the grid
    CHECK_THROWS_AS(Placement(grid, {4}, {0, 1, 3, 5}, {}), std::invalid_argument);      // dimensions differ
}

TEST_CASE("avoided hosts: no spare behind them is taken and no move lands on one; refused when nothing else fits") {
    // 3x3 with 2D(2,1): ranks 0-3 on (0,0) (1,0) (0,1) (1,1). Row 0 is to be
    // avoided (a switch that lost (0,0)): 1D would slide row 0 onto (2,0).
    Placement p(HostGrid({3, 3}, false), SparePattern::parse("2D(2,1)"));
    const Method one = Method::parse("1d", 2);
    const int lost = p.grid().host({0, 0});
    const std::vector<int> row0 = {p.grid().host({1, 0}), p.grid().host({2, 0})};
    const Substitution &plain = handled(p.plan(lost, 1));
    CHECK(plain.moves.front().to == p.grid().host({2, 0}));

    SUBCASE("the slide goes along the column instead, and fail applies that plan") {
        const Substitution &s = handled(p.fail(lost, one, row0));
        CHECK(s.dim == 1);
        for (const Move &m : s.moves) CHECK(std::find(row0.begin(), row0.end(), m.to) == row0.end());
        CHECK(p.host_of(0) == p.grid().host({0, 1}));
        CHECK(p.host_of(2) == p.grid().host({0, 2}));
        CHECK(p.free(p.grid().host({2, 0})));  // avoided, not lost: still a spare later
    }
    SUBCASE("0D takes the nearest free host off the avoided ones") {
        const Substitution &s = handled(p.fail(lost, Method::parse("0d", 2), row0));
        REQUIRE(s.moves.size() == 1);
        CHECK(s.moves[0].to == p.grid().host({0, 2}));
    }
    SUBCASE("every free host avoided: refused, nothing changed") {
        std::vector<int> all_free;
        for (int h = 0; h < p.grid().size(); ++h)
            if (p.free(h)) all_free.push_back(h);
        const Outcome o = p.fail(lost, Method::parse("hybrid(all)", 2), all_free);
        REQUIRE(std::holds_alternative<Refusal>(o));
        CHECK_FALSE(p.failed(lost));
        CHECK(p.host_of(0) == lost);
        handled(p.fail(lost, one));  // the host stays usable for a plain failure
    }
}
