// The compacted layout: composition folds regular patterns, commit merges
// adjacent runs and folds equal, equally spaced ones.
#include <doctest/doctest.h>

#include "layout.hpp"

using namespace ftmpi::dt;

namespace {
Layout run(Aint off, size_t len) {
    Layout l;
    l.blocks = {Block{off, len, 1, 0}};
    return l;
}
}  // namespace

TEST_CASE("replicating a run with its own length as stride makes one longer run") {
    const Layout l = replicate(run(0, 4), 1000, 4);
    REQUIRE(l.blocks.size() == 1);
    CHECK(l.blocks[0] == Block{0, 4000, 1, 0});
    CHECK(l.reps == 1);
}

TEST_CASE("a huge strided vector stays one block") {
    const Layout l = replicate(run(0, 4), 100'000'000, 8);
    REQUIRE(l.blocks.size() == 1);
    CHECK(l.blocks[0] == Block{0, 4, 100'000'000, 8});
    CHECK(l.bytes() == 400'000'000u);
}

TEST_CASE("a vector of vectors uses the outer repeat, not a list") {
    const Layout row = replicate(run(0, 8), 100, 16);        // 100 doubles, every other one
    const Layout grid = replicate(row, 1'000'000, 100'000);  // a million such rows
    CHECK(grid.blocks.size() == 1);
    CHECK(grid.reps == 1'000'000u);
    CHECK(grid.rep_stride == 100'000);
    CHECK(grid.bytes() == 800'000'000u);
}

TEST_CASE("rows that continue each other's stride fold into one block") {
    const Layout row = replicate(run(0, 4), 10, 8);  // 10 ints at stride 8: spans 80 bytes
    const Layout two = replicate(row, 3, 80);        // next row starts where the stride continues
    REQUIRE(two.blocks.size() == 1);
    CHECK(two.blocks[0] == Block{0, 4, 30, 8});
}

TEST_CASE("concat merges adjacent runs") {
    const Layout l = concat({run(0, 4), run(4, 8), run(16, 4)});
    REQUIRE(l.blocks.size() == 2);
    CHECK(l.blocks[0] == Block{0, 12, 1, 0});
    CHECK(l.blocks[1] == Block{16, 4, 1, 0});
}

TEST_CASE("compact folds equal runs at equal spacing and keeps order") {
    Layout l = concat({run(0, 4), run(12, 4), run(24, 4), run(36, 4), run(100, 2)});
    const Layout c = compact(l);
    REQUIRE(c.blocks.size() == 2);
    CHECK(c.blocks[0] == Block{0, 4, 4, 12});
    CHECK(c.blocks[1] == Block{100, 2, 1, 0});
    CHECK(c.starts == std::vector<size_t>{0, 16});
    CHECK(c.bytes() == l.bytes());
}

TEST_CASE("compact turns a repeated single run into a block") {
    Layout l;
    l.blocks = {Block{0, 4, 1, 0}, Block{4, 4, 1, 0}};  // two adjacent ints...
    l.reps = 5;
    l.rep_stride = 16;  // ...repeated every 16 bytes
    const Layout c = compact(l);
    REQUIRE(c.blocks.size() == 1);
    CHECK(c.blocks[0] == Block{0, 8, 5, 16});
    CHECK(c.reps == 1);
}

TEST_CASE("pack_bytes and unpack_bytes follow the layout order") {
    // Two runs in reverse memory order: packing must follow the listed order.
    Layout l = concat({run(4, 4), run(0, 4)});
    index(l);
    const unsigned char src[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    unsigned char out[8] = {};
    CHECK(pack_bytes(l, 8, 1, src, 0, out, 8) == 8);
    const unsigned char want[8] = {4, 5, 6, 7, 0, 1, 2, 3};
    CHECK(std::equal(out, out + 8, want));
    unsigned char back[8] = {};
    CHECK(unpack_bytes(l, 8, 1, back, 0, out, 8) == 8);
    CHECK(std::equal(back, back + 8, src));
}

TEST_CASE("packing past the end does nothing") {
    Layout l = run(0, 4);
    index(l);
    unsigned char buf[8] = {}, out[8] = {};
    CHECK(pack_bytes(l, 4, 2, buf, 8, out, 8) == 0);
    CHECK(pack_bytes(l, 4, 2, buf, 6, out, 8) == 2);
    CHECK(pack_bytes(l, 4, 0, buf, 0, out, 8) == 0);
}
