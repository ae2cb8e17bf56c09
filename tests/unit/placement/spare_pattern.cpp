// Spare patterns qD(r,s): parsing, which hosts are spares, and the spare
// ratio against the paper's closed form.
#include <harness/placement/spare_pattern.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

using namespace harness::placement;

TEST_CASE("qD(r,s) parses and prints back; bad patterns are refused") {
    const SparePattern p = SparePattern::parse("3d(2,1)");
    CHECK(p.q == 3);
    CHECK(p.r == 2);
    CHECK(p.s == 1);
    CHECK(p.describe() == "3D(2,1)");
    for (const char *bad : {"", "2D", "2D(3,1)", "2D(2,0)", "2D(2,1)x", "2X(2,1)", "D(1,1)", "0D(0,1)"})
        CHECK_THROWS_AS(SparePattern::parse(bad), std::invalid_argument);
}

TEST_CASE("2D(2,1) on 10x10: the last column and the last row, corner included") {
    const HostGrid grid({10, 10}, false);
    const SparePattern p = SparePattern::parse("2D(2,1)");
    CHECK(p.spare_count(grid) == 19);
    CHECK(p.is_spare(grid, grid.host({9, 0})));
    CHECK(p.is_spare(grid, grid.host({0, 9})));
    CHECK(p.is_spare(grid, grid.host({9, 9})));
    CHECK_FALSE(p.is_spare(grid, grid.host({8, 8})));
    CHECK(p.working_extents(grid) == std::vector<int>{9, 9});
}

TEST_CASE("the spare ratio formula R = 1 - (N^(1/q) - s)^r (N^(1/q))^(q-r) / N holds on cubic grids") {
    for (int q = 1; q <= 3; ++q)
        for (int side = 3; side <= 12; ++side)
            for (int r = 0; r <= q; ++r)
                for (int s = 1; s < side && s <= 2; ++s) {
                    const HostGrid grid(std::vector<int>(q, side), false);
                    const SparePattern p{q, r, s};
                    CAPTURE(p.describe());
                    CAPTURE(side);
                    CHECK(p.spare_ratio(grid) == doctest::Approx(p.spare_ratio_formula(grid.size())));
                }
    // The paper's special case R_2D(2,2) = 1 - (N^(1/2) - 2)^2 / N, and its 12x12x12 3D(2,1) job.
    CHECK(SparePattern{2, 2, 2}.spare_ratio_formula(100) == doctest::Approx(1 - 64.0 / 100));
    CHECK(SparePattern{3, 2, 1}.spare_ratio(HostGrid({12, 12, 12}, false)) ==
          doctest::Approx(1 - 11.0 * 11 * 12 / 1728));
}

TEST_CASE("the paper's Figure 3 trends: more dimensions or sides, more spares; larger jobs, fewer") {
    const SparePattern two{2, 2, 1};
    const SparePattern three{3, 2, 1};
    CHECK(three.spare_ratio_formula(10000) > two.spare_ratio_formula(10000));
    CHECK(SparePattern{2, 1, 1}.spare_ratio_formula(10000) < two.spare_ratio_formula(10000));
    CHECK(two.spare_ratio_formula(1'000'000) < two.spare_ratio_formula(10000));
    CHECK(three.spare_ratio_formula(1'000'000) < three.spare_ratio_formula(1728));
}

TEST_CASE("a pattern that does not fit the grid is refused") {
    CHECK_THROWS_AS(SparePattern::parse("3D(2,1)").check(HostGrid({8, 8}, false)), std::invalid_argument);
    CHECK_THROWS_AS(SparePattern::parse("2D(2,4)").check(HostGrid({4, 8}, false)), std::invalid_argument);
    CHECK_NOTHROW(SparePattern::parse("2D(2,3)").check(HostGrid({4, 8}, false)));
    CHECK_NOTHROW(SparePattern::parse("2D(1,4)").check(HostGrid({8, 4}, false)));  // r = 1 cuts dimension 0 only
}

TEST_CASE("host grids parse, number hosts row-major and measure torus distances") {
    const HostGrid grid = HostGrid::parse("5x4x3", true);
    CHECK(grid.dims() == 3);
    CHECK(grid.size() == 60);
    CHECK(grid.host({1, 2, 1}) == 1 + 2 * 5 + 1 * 20);
    CHECK(grid.coords(31) == Coords{1, 2, 1});
    CHECK(grid.distance(grid.host({0, 0, 0}), grid.host({4, 0, 0})) == 1);  // wraps
    CHECK(HostGrid::parse("5x4x3", false).distance(grid.host({0, 0, 0}), grid.host({4, 0, 0})) == 4);
    CHECK(grid.describe() == "5x4x3 torus");
    for (const char *bad : {"", "x", "10x", "10x1", "axb", "10x10x", "2x2x2x2x2x2x2"})
        CHECK_THROWS_AS(HostGrid::parse(bad, false), std::invalid_argument);
}
