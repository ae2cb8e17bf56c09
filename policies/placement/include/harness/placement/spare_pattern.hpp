// Spare patterns qD(r,s): on a q-dimensional host grid, the last s layers of
// the first r dimensions are reserved as spare hosts (2D(1,1): the last
// column; 2D(2,1): the last column and the last row; 2D(2,2): two columns
// and two rows). The remaining block, (extent - s) along the first r
// dimensions and the full extent along the others, is where the job's ranks
// start, one per host, in the same row-major order.
#pragma once

#include "host_grid.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace harness::placement {

struct SparePattern {
    int q = 2;  // dimensions of the grid the pattern is for
    int r = 1;  // sides (dimensions) holding spares, 0 <= r <= q
    int s = 1;  // thickness of each side, s >= 1

    // Parses "2D(2,1)" (case-insensitive "d"). Throws std::invalid_argument.
    static SparePattern parse(std::string_view text);
    std::string describe() const;  // "2D(2,1)"

    // Throws std::invalid_argument when the pattern does not fit the grid:
    // q differs from the grid's dimensions, r > q, or s >= an extent it cuts.
    void check(const HostGrid &grid) const;

    bool is_spare(const HostGrid &grid, int host) const;
    // Extents of the block the ranks start on.
    std::vector<int> working_extents(const HostGrid &grid) const;
    int spare_count(const HostGrid &grid) const;
    // Spare hosts / all hosts, counted on the grid.
    double spare_ratio(const HostGrid &grid) const;
    // The paper's closed form for N hosts on a cube of side N^(1/q):
    // R = 1 - (N^(1/q) - s)^r * (N^(1/q))^(q-r) / N (ignores flooring).
    double spare_ratio_formula(double hosts) const;
};

}  // namespace harness::placement
