// Counting stencil messages per directed link under dimension-order routing.
#include <harness/placement/collisions.hpp>

#include <algorithm>
#include <cstdlib>

namespace harness::placement {

CollisionCounter::CollisionCounter(const HostGrid &grid)
    : grid_(grid), links_(static_cast<std::size_t>(grid.size()) * 2 * grid.dims(), 0) {}

void CollisionCounter::add(std::size_t link, int delta) {
    std::uint32_t &count = links_[link];
    --histogram_[count];
    count = static_cast<std::uint32_t>(static_cast<int>(count) + delta);
    if (count >= histogram_.size()) histogram_.resize(count + 1, 0);
    ++histogram_[count];
    if (count > max_) max_ = count;
    while (max_ > 0 && histogram_[max_] == 0) --max_;
}

void CollisionCounter::route(int from, int to, int delta) {
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
            add(static_cast<std::size_t>(at) * 2 * q + 2 * d + (step < 0), delta);
            const int next = (c + step + extent) % extent;
            at += (next - c) * grid_.stride(d);
            c = next;
        }
    }
}

template <typename F>
void CollisionCounter::for_each_neighbour(int rank, F &&f) const {
    const int q = static_cast<int>(logical_.size());
    for (int d = 0; d < q; ++d) {
        const int extent = logical_[d];
        const int c = (rank / logical_stride_[d]) % extent;
        for (int step : {-1, 1}) {
            int n = c + step;
            if (n < 0 || n >= extent) {
                if (!periodic_) continue;
                n = (n + extent) % extent;
            }
            if (n == c) continue;
            f(rank + (n - c) * logical_stride_[d]);
        }
    }
}

int CollisionCounter::max_collisions(const std::vector<int> &logical_extents, const std::vector<int> &rank_to_host,
                                     bool periodic) {
    logical_ = logical_extents;
    periodic_ = periodic;
    logical_stride_.assign(logical_.size(), 1);
    for (std::size_t d = 1; d < logical_.size(); ++d) logical_stride_[d] = logical_stride_[d - 1] * logical_[d - 1];
    std::fill(links_.begin(), links_.end(), 0);
    histogram_.assign(1, static_cast<std::uint32_t>(links_.size()));
    max_ = 0;
    const int ranks = static_cast<int>(rank_to_host.size());
    for (int rank = 0; rank < ranks; ++rank)
        for_each_neighbour(rank, [&](int n) { route(rank_to_host[rank], rank_to_host[n], +1); });
    return static_cast<int>(max_);
}

int CollisionCounter::update(const std::vector<Move> &moves, const std::vector<int> &rank_to_host) {
    old_host_.resize(rank_to_host.size(), -1);
    for (const Move &m : moves) old_host_[m.rank] = m.from;
    auto before = [&](int rank) { return old_host_[rank] >= 0 ? old_host_[rank] : rank_to_host[rank]; };
    // Each message touching a moved rank once: a message between two moved
    // ranks is handled from its sender's side only.
    for (const Move &m : moves) {
        const int r = m.rank;
        for_each_neighbour(r, [&](int n) {
            route(before(r), before(n), -1);
            route(rank_to_host[r], rank_to_host[n], +1);
            if (old_host_[n] < 0) {
                route(before(n), before(r), -1);
                route(rank_to_host[n], rank_to_host[r], +1);
            }
        });
    }
    for (const Move &m : moves) old_host_[m.rank] = -1;
    return static_cast<int>(max_);
}

int CollisionCounter::link_count(int host, int dim, int direction) const {
    return static_cast<int>(links_[static_cast<std::size_t>(host) * 2 * grid_.dims() + 2 * dim + (direction < 0)]);
}

}  // namespace harness::placement
