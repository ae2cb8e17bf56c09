// Parsing substitution methods and hybrids.
#include <harness/placement/method.hpp>

#include <doctest/doctest.h>

#include <stdexcept>

using namespace harness::placement;

TEST_CASE("plain degrees and qD") {
    CHECK(Method::parse("0d", 2).degrees == std::vector<int>{0});
    CHECK(Method::parse("2D", 3).degrees == std::vector<int>{2});
    CHECK(Method::parse("qd", 3).degrees == std::vector<int>{3});
    CHECK_FALSE(Method::parse("1d", 2).hybrid());
    CHECK(Method::parse("1d", 2).describe() == "1D");
}

TEST_CASE("hybrids: explicit order, all (highest first), all but one") {
    CHECK(Method::parse("hybrid(2D+1D+0D)", 2).degrees == std::vector<int>{2, 1, 0});
    CHECK(Method::parse("hybrid(1d+2d)", 2).degrees == std::vector<int>{1, 2});  // any order given
    CHECK(Method::parse("hybrid(all)", 3).degrees == std::vector<int>{3, 2, 1, 0});
    CHECK(Method::parse("HYBRID(-2D)", 3).degrees == std::vector<int>{3, 1, 0});
    CHECK(Method::parse("hybrid(all)", 3).describe() == "hybrid(3D+2D+1D+0D)");
}

TEST_CASE("bad methods are refused with the reason") {
    for (const char *bad :
         {"", "d", "xd", "3d", "hybrid(3D+0D)", "hybrid(1D+1D)", "hybrid(2D", "hybrid()", "hybrid(-4D)", "1e"})
        CHECK_THROWS_AS(Method::parse(bad, 2), std::invalid_argument);
    try {
        Method::parse("3d", 2);
        FAIL("3D on a 2D grid was accepted");
    } catch (const std::invalid_argument &e) {
        CHECK(std::string(e.what()).find("3D sliding needs a grid of at least 3 dimensions") != std::string::npos);
    }
}
