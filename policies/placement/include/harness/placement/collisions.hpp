// Message collisions of a stencil under dimension-order routing: every rank
// sends one message to each of its 2q logical neighbours (5-point stencil in
// 2D, 7-point in 3D) at the same time; a message travels dimension 0 first,
// then 1, …, and on a torus the shorter way around (ties go the positive
// way). The count of a directed link is the number of messages crossing it;
// the maximum over all links is the paper's C_max (1: no collision).
#pragma once

#include "host_grid.hpp"
#include "placement.hpp"

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

    // After a substitution was applied to the map last counted (by
    // max_collisions or update): routes again only the messages to and from
    // the moved ranks, and returns the new C_max. The same as a full count,
    // in time proportional to the moved ranks' messages.
    int update(const std::vector<Move> &moves, const std::vector<int> &rank_to_host);

    // The count of the link leaving `host` along `dim` in direction +1 or -1
    // after the last count.
    int link_count(int host, int dim, int direction) const;

private:
    void route(int from, int to, int delta);
    void add(std::size_t link, int delta);
    // Calls f(neighbour) for each logical neighbour of `rank` (the stencil's messages).
    template <typename F>
    void for_each_neighbour(int rank, F &&f) const;

    HostGrid grid_;
    std::vector<std::uint32_t> links_;  // host * 2q + 2 * dim + (direction < 0)
    // How many links carry each count, so the maximum follows additions and removals.
    std::vector<std::uint32_t> histogram_;
    std::uint32_t max_ = 0;
    std::vector<int> logical_;
    std::vector<int> logical_stride_;
    bool periodic_ = false;
    std::vector<int> old_host_;  // scratch for update: a moved rank's previous host, -1 otherwise
};

}  // namespace harness::placement
