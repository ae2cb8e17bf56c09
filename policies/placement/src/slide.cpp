// kD sliding (k >= 1): shifting the ranks of a slab by one host along a dimension.
#include <harness/placement/placement.hpp>

#include <algorithm>
#include <bit>
#include <numeric>

namespace harness::placement {

// Shifts the line along `dim` that starts at host `start` (the slab's
// section), in direction `step`: the rank there moves to the next usable host, whose rank moves
// on in turn, until one lands on a free host. Appends the moves in pipeline
// order; false when the line has no free host left. `failed_host` counts as
// failed (the plan is made before the failure is recorded).
bool Placement::shift_line(int start, int dim, int step, int failed_host, std::vector<Move> &moves) const {
    if (start != failed_host && host_to_rank_[start] < 0) return true;  // nothing to vacate here
    const int stride = grid_.stride(dim);
    const int position = grid_.coord(start, dim);
    std::vector<Move> line;
    int carried = host_to_rank_[start];
    int from = start;
    for (int p = position + step; p >= 0 && p < grid_.extent(dim); p += step) {
        const int h = start + (p - position) * stride;
        if (failed_[h] || h == failed_host) continue;
        line.push_back(Move{carried, from, h});
        if (host_to_rank_[h] < 0) {
            moves.insert(moves.end(), line.rbegin(), line.rend());
            return true;
        }
        carried = host_to_rank_[h];
        from = h;
    }
    return false;
}

// Every line along `dim` through the slab spanned by `span` around `host`.
bool Placement::plan_slab(int host, int dim, int step, const std::vector<int> &span, std::vector<Move> &moves) const {
    Coords c = grid_.coords(host);
    for (int d : span) c[d] = 0;
    while (true) {
        if (!shift_line(grid_.host(c), dim, step, host, moves)) return false;
        // Next combination of the spanned coordinates (an odometer).
        std::size_t i = 0;
        for (; i < span.size(); ++i) {
            if (++c[span[i]] < grid_.extent(span[i])) break;
            c[span[i]] = 0;
        }
        if (i == span.size()) return true;
    }
}

Outcome Placement::plan_slide(int host, int degree) const {
    std::vector<int> order(grid_.dims());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return slides_[a] > slides_[b]; });
    for (int dim : order) {
        std::vector<int> others;
        for (int d = 0; d < grid_.dims(); ++d)
            if (d != dim) others.push_back(d);
        // Towards the spares first; each set of degree-1 other dimensions, as bit masks over `others`.
        for (int step : {+1, -1}) {
            for (unsigned mask = 0; mask < (1u << others.size()); ++mask) {
                if (std::popcount(mask) != degree - 1) continue;
                Substitution s;
                s.degree = degree;
                s.dim = dim;
                s.step = step;
                for (std::size_t i = 0; i < others.size(); ++i)
                    if (mask & (1u << i)) s.span.push_back(others[i]);
                if (plan_slab(host, dim, step, s.span, s.moves)) return s;
            }
        }
    }
    return Refusal{std::to_string(degree) + "D sliding: no slab through host " + std::to_string(host) +
                   " has a free host left in every line, either way"};
}

}  // namespace harness::placement
