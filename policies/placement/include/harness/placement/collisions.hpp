// Message collisions of a stencil under dimension-order routing: every rank
// sends one message to each of its 2q logical neighbours (5-point stencil in
// 2D, 7-point in 3D) at the same time; a message travels dimension 0 first,
// then 1, …, and on a torus the shorter way around (ties go the positive
// way). The count of a directed link is the number of messages crossing it;
// the maximum over all links is the paper's C_max (1: no collision).
#pragma once

#include "host_grid.hpp"

#include <cstdint>
#include <vector>

namespace harness::placement {

class CollisionCounter {
public:
    explicit CollisionCounter(const HostGrid &grid);

    // C_max for ranks laid out as `logical_extents` (row-major, dimension 0
    // fastest) on the hosts `rank_to_host`. A periodic stencil also links
    // the first and last rank of each logical line. 0 when no message
    // crosses a link.
    int max_collisions(const std::vector<int> &logical_extents, const std::vector<int> &rank_to_host,
                       bool periodic = false);

    // The count of the link leaving `host` along `dim` in direction +1 or -1
    // after the last max_collisions call.
    int link_count(int host, int dim, int direction) const;

private:
    void route(int from, int to);

    HostGrid grid_;
    std::vector<std::uint32_t> links_;  // host * 2q + 2 * dim + (direction < 0)
};

}  // namespace harness::placement
