// The rank-to-host map, failures and the 0D substitution (slides are in slide.cpp).
#include <harness/placement/placement.hpp>

#include <algorithm>
#include <stdexcept>

namespace harness::placement {

Placement::Placement(HostGrid grid, const SparePattern &pattern) : grid_(std::move(grid)) {
    pattern.check(grid_);
    logical_ = pattern.working_extents(grid_);
    host_to_rank_.assign(grid_.size(), -1);
    failed_.assign(grid_.size(), 0);
    slides_.assign(grid_.dims(), 0);
    for (int host = 0; host < grid_.size(); ++host) {
        if (pattern.is_spare(grid_, host)) continue;
        host_to_rank_[host] = static_cast<int>(rank_to_host_.size());
        rank_to_host_.push_back(host);  // row-major on both sides, so ranks come in order
    }
}

Placement::Placement(HostGrid grid, std::vector<int> logical_extents, std::vector<int> rank_to_host,
                     const std::vector<int> &failed_hosts, std::vector<int> slides)
    : grid_(std::move(grid)), logical_(std::move(logical_extents)), rank_to_host_(std::move(rank_to_host)),
      slides_(std::move(slides)) {
    if (static_cast<int>(logical_.size()) != grid_.dims())
        throw std::invalid_argument("the logical grid and the host grid have different dimensions");
    long ranks = 1;
    for (int e : logical_) {
        if (e < 1) throw std::invalid_argument("a logical grid's extents are at least 1");
        ranks *= e;
    }
    if (ranks != static_cast<long>(rank_to_host_.size()))
        throw std::invalid_argument("the map has " + std::to_string(rank_to_host_.size()) +
                                    " ranks, the logical grid " + std::to_string(ranks));
    host_to_rank_.assign(grid_.size(), -1);
    failed_.assign(grid_.size(), 0);
    if (slides_.empty()) slides_.assign(grid_.dims(), 0);
    if (static_cast<int>(slides_.size()) != grid_.dims() ||
        std::any_of(slides_.begin(), slides_.end(), [](int n) { return n < 0; }))
        throw std::invalid_argument("slides: one count of at least 0 per dimension");
    for (int host : failed_hosts) {
        if (host < 0 || host >= grid_.size()) throw std::invalid_argument("failed host outside the grid");
        failed_[host] = 1;
    }
    for (int rank = 0; rank < static_cast<int>(rank_to_host_.size()); ++rank) {
        const int host = rank_to_host_[rank];
        if (host < 0 || host >= grid_.size()) throw std::invalid_argument("rank placed outside the grid");
        if (failed_[host]) throw std::invalid_argument("rank placed on a failed host");
        if (host_to_rank_[host] >= 0) throw std::invalid_argument("two ranks placed on one host");
        host_to_rank_[host] = rank;
    }
}

int Placement::failed_count() const {
    int n = 0;
    for (char f : failed_) n += f != 0;
    return n;
}

Outcome Placement::plan(int host, int degree) const {
    if (host < 0 || host >= grid_.size()) throw std::invalid_argument("host outside the grid");
    if (degree < 0 || degree > grid_.dims())
        return Refusal{std::to_string(degree) + "D sliding: the grid has " + std::to_string(grid_.dims()) +
                       " dimensions"};
    if (host_to_rank_[host] < 0) return Substitution{};
    return degree == 0 ? plan_0d(host) : plan_slide(host, degree);
}

Outcome Placement::plan(int host, int degree, const std::vector<int> &avoid) const {
    if (avoid.empty()) return plan(host, degree);
    auto avoided = [&](int h) { return std::find(avoid.begin(), avoid.end(), h) != avoid.end(); };
    // The avoided free hosts count as lost for this plan only: no method
    // takes them as spares.
    Placement scratch = *this;
    for (int h : avoid)
        if (h >= 0 && h < grid_.size() && h != host && scratch.free(h)) scratch.failed_[h] = 1;
    Outcome outcome = scratch.plan(host, degree);
    if (auto *s = std::get_if<Substitution>(&outcome))
        for (const Move &m : s->moves)
            if (avoided(m.to))
                return Refusal{std::to_string(degree) + "D sliding: it would move rank " + std::to_string(m.rank) +
                               " onto avoided host " + std::to_string(m.to)};
    return outcome;
}

Outcome Placement::plan_0d(int host) const {
    int best = -1;
    int best_distance = 0;
    for (int h = 0; h < grid_.size(); ++h) {
        if (!free(h)) continue;
        const int distance = grid_.distance(host, h);
        if (best < 0 || distance < best_distance) {
            best = h;
            best_distance = distance;
        }
    }
    if (best < 0) return Refusal{"0D sliding: no free host left"};
    Substitution s;
    s.degree = 0;
    s.moves.push_back(Move{host_to_rank_[host], host, best});
    return s;
}

Outcome Placement::fail(int host, const Method &method) {
    return fail(host, method, {});
}

Outcome Placement::fail(int host, const Method &method, const std::vector<int> &avoid) {
    if (host < 0 || host >= grid_.size()) throw std::invalid_argument("host outside the grid");
    if (failed_[host]) throw std::invalid_argument("host " + std::to_string(host) + " has already failed");
    std::string reasons;
    for (int degree : method.degrees) {
        // (A plan with avoided hosts is valid here too: they only lost
        // their place as spares, and no move goes onto one.)
        Outcome outcome = plan(host, degree, avoid);
        if (auto *s = std::get_if<Substitution>(&outcome)) {
            apply(host, *s);
            return outcome;
        }
        reasons += (reasons.empty() ? "" : "; ") + std::get<Refusal>(outcome).reason;
    }
    return Refusal{reasons.empty() ? "no method given" : reasons};
}

void Placement::apply(int host, const Substitution &substitution) {
    failed_[host] = 1;
    host_to_rank_[host] = -1;
    // Pipeline order: each move's destination is free when it is applied.
    for (const Move &m : substitution.moves) {
        if (host_to_rank_[m.from] == m.rank) host_to_rank_[m.from] = -1;
        host_to_rank_[m.to] = m.rank;
        rank_to_host_[m.rank] = m.to;
    }
    if (substitution.dim >= 0) ++slides_[substitution.dim];
}

}  // namespace harness::placement
