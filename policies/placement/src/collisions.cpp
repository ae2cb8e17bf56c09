// Counting stencil messages per directed link under dimension-order routing.
#include <harness/placement/collisions.hpp>

#include <algorithm>

namespace harness::placement {

CollisionCounter::CollisionCounter(const HostGrid &grid)
    : grid_(grid), links_(static_cast<std::size_t>(grid.size()) * 2 * grid.dims(), 0) {}

void CollisionCounter::route(int from, int to) {
    const int q = grid_.dims();
    int at = from;
    for (int d = 0; d < q; ++d) {
        const int extent = grid_.extent(d);
        int c = grid_.coord(at, d);
        const int target = grid_.coord(to, d);
        if (c == target) continue;
        int step = target > c ? 1 : -1;
        int length = std::abs(target - c);
        if (grid_.torus() && extent - length < length) {
            step = -step;
            length = extent - length;
        } else if (grid_.torus() && extent - length == length) {
            step = 1;  // equal either way: the positive direction
        }
        for (int i = 0; i < length; ++i) {
            ++links_[static_cast<std::size_t>(at) * 2 * q + 2 * d + (step < 0)];
            const int next = (c + step + extent) % extent;
            at += (next - c) * grid_.stride(d);
            c = next;
        }
    }
}

int CollisionCounter::max_collisions(const std::vector<int> &logical_extents, const std::vector<int> &rank_to_host,
                                     bool periodic) {
    std::fill(links_.begin(), links_.end(), 0);
    const int q = static_cast<int>(logical_extents.size());
    std::vector<int> stride(q, 1);
    for (int d = 1; d < q; ++d) stride[d] = stride[d - 1] * logical_extents[d - 1];
    const int ranks = static_cast<int>(rank_to_host.size());
    for (int rank = 0; rank < ranks; ++rank) {
        for (int d = 0; d < q; ++d) {
            const int extent = logical_extents[d];
            const int c = (rank / stride[d]) % extent;
            for (int step : {-1, 1}) {
                int n = c + step;
                if (n < 0 || n >= extent) {
                    if (!periodic || extent < 2) continue;
                    n = (n + extent) % extent;
                }
                if (n == c) continue;
                route(rank_to_host[rank], rank_to_host[rank + (n - c) * stride[d]]);
            }
        }
    }
    std::uint32_t worst = 0;
    for (std::uint32_t count : links_) worst = std::max(worst, count);
    return static_cast<int>(worst);
}

int CollisionCounter::link_count(int host, int dim, int direction) const {
    return static_cast<int>(links_[static_cast<std::size_t>(host) * 2 * grid_.dims() + 2 * dim + (direction < 0)]);
}

}  // namespace harness::placement
