// The statements of "Sliding substitution of failed nodes" (Hori et al.,
// seed 002) checked on grids small enough for a unit test. The paper's own
// figures use 100x100 (2D) and 12x12x12 / 24x24x24 (3D) grids with millions
// of random cases; bench/slidesim/paper_figures.sh runs those.
#include <harness/placement/simulation.hpp>

#include <doctest/doctest.h>

using namespace harness::placement;

namespace {

SimulationResult run(const char *grid, bool torus, const char *spares, const char *method, int failures,
                     bool spares_fail, long samples = 0) {
    SimulationSpec spec;
    spec.grid = HostGrid::parse(grid, torus);
    spec.pattern = SparePattern::parse(spares);
    spec.method = Method::parse(method, spec.grid.dims());
    spec.failures = failures;
    spec.spares_fail = spares_fail;
    spec.samples = samples;
    return simulate(spec);
}

}  // namespace

TEST_CASE("1D sliding with 2D(2,1) handles every sequence of up to 3 failures, C_max = 2 + F_n") {
    for (bool torus : {false, true}) {
        CAPTURE(torus);
        const SimulationResult r = run("6x6", torus, "2D(2,1)", "1d", 3, false);
        REQUIRE(r.exhaustive);
        CHECK(r.failure_free == 1);
        for (int f = 1; f <= 3; ++f) {
            CAPTURE(f);
            const FailureStats &s = r.per_failures[f - 1];
            CHECK(s.refused == 0);
            CHECK(s.handled > 0);
            CHECK(s.worst == 2 + f);
        }
    }
}

TEST_CASE("1D sliding with 2D(2,1) (5x5) handles 3 failures even when spares that took over ranks fail; not always 4") {
    // A failure in the last working row slides it into the spare column, a failure there slides the spare
    // column into the corner; the corner's failure then slides back along the spare row.
    const SimulationResult r = run("5x5", false, "2D(2,1)", "1d", 4, true);
    for (int f = 1; f <= 3; ++f) {
        CHECK(r.per_failures[f - 1].refused == 0);
        CHECK(r.per_failures[f - 1].worst == 2 + f);
    }
    CHECK(r.per_failures[3].refused > 0);
}

TEST_CASE("2D sliding handles 2 failures with 2D(2,1) and 1 with 2D(1,1), without any collision") {
    const SimulationResult r = run("6x6", false, "2D(2,1)", "2d", 3, false);
    for (int f = 1; f <= 2; ++f) {
        CHECK(r.per_failures[f - 1].refused == 0);
        CHECK(r.per_failures[f - 1].worst == 1);
    }
    // A third failure is handled only when it can slide into a plane vacated earlier; most are refused.
    CHECK(r.per_failures[2].refused > 2 * r.per_failures[2].handled);
    CHECK(r.per_failures[2].worst == 1);

    const SimulationResult one = run("6x5", false, "2D(1,1)", "2d", 2, false);
    CHECK(one.per_failures[0].refused == 0);
    CHECK(one.per_failures[0].worst == 1);
    CHECK(one.per_failures[1].handled == 0);
}

TEST_CASE("hybrid(all) beats 0D on the average for a small number of failures (2D, exhaustive)") {
    for (bool torus : {false, true}) {
        CAPTURE(torus);
        const SimulationResult hybrid = run("6x6", torus, "2D(2,1)", "hybrid(all)", 3, true);
        const SimulationResult zero = run("6x6", torus, "2D(2,1)", "0d", 3, true);
        REQUIRE(hybrid.exhaustive);
        for (int f = 1; f <= 3; ++f) {
            CAPTURE(f);
            CHECK(hybrid.per_failures[f - 1].refused == 0);
            CHECK(hybrid.per_failures[f - 1].average() < zero.per_failures[f - 1].average());
            // The worst case too on a mesh; on a 6x6 torus 0D's substitutes are nearer (wrap-around) and
            // its worst after 3 failures (4) is below hybrid's (5).
            if (!torus) CHECK(hybrid.per_failures[f - 1].worst <= zero.per_failures[f - 1].worst);
        }
        // The first two failures go to 2D sliding: no collision at all.
        CHECK(hybrid.per_failures[1].worst == 1);
        CHECK(hybrid.per_failures[1].selected[0] == hybrid.per_failures[1].handled);
    }
}

TEST_CASE("hybrid(all) beats 0D on the average in 3D too; 3D sliding takes the first two failures (sampled)") {
    const SimulationResult hybrid = run("6x6x6", false, "3D(2,1)", "hybrid(all)", 4, true, 600);
    const SimulationResult zero = run("6x6x6", false, "3D(2,1)", "0d", 4, true, 600);
    REQUIRE_FALSE(hybrid.exhaustive);
    CHECK(hybrid.sequences == 600);
    for (int f = 1; f <= 4; ++f) {
        CAPTURE(f);
        CHECK(hybrid.per_failures[f - 1].average() < zero.per_failures[f - 1].average());
    }
    for (int f = 1; f <= 2; ++f) {
        CHECK(hybrid.per_failures[f - 1].selected[0] == hybrid.per_failures[f - 1].handled);  // 3D
        CHECK(hybrid.per_failures[f - 1].worst == 1);
    }
}

TEST_CASE("sampling is reproducible from its seed") {
    const SimulationResult a = run("9x9", false, "2D(2,1)", "hybrid(all)", 5, true, 200);
    const SimulationResult b = run("9x9", false, "2D(2,1)", "hybrid(all)", 5, true, 200);
    for (int f = 0; f < 5; ++f) {
        CHECK(a.per_failures[f].sum == b.per_failures[f].sum);
        CHECK(a.per_failures[f].worst == b.per_failures[f].worst);
    }
}
