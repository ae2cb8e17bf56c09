// Exhaustive search and random sampling of failure sequences.
#include <harness/placement/collisions.hpp>
#include <harness/placement/placement.hpp>
#include <harness/placement/simulation.hpp>

#include <algorithm>
#include <random>
#include <stdexcept>

namespace harness::placement {

namespace {

struct Run {
    const SimulationSpec &spec;
    CollisionCounter counter;
    SimulationResult result;

    // Records the outcome of the `depth`-th failure (1-based) of a sequence
    // and brings the counter up to the new map; false when it was refused.
    bool record(int depth, const Placement &placement, const Outcome &outcome) {
        FailureStats &stats = result.per_failures[depth - 1];
        const auto *s = std::get_if<Substitution>(&outcome);
        if (!s) {
            ++stats.refused;
            return false;
        }
        const int c = counter.update(s->moves, placement.rank_to_host());
        ++stats.handled;
        stats.best = std::min(stats.best, c);
        stats.worst = std::max(stats.worst, c);
        stats.sum += c;
        const auto &degrees = spec.method.degrees;
        const auto at = std::find(degrees.begin(), degrees.end(), s->degree);
        if (at != degrees.end()) ++stats.selected[at - degrees.begin()];
        return true;
    }

    // Takes a substitution back out of the counter (the search goes back up).
    void undo(const Placement &parent, const Outcome &outcome) {
        std::vector<Move> back = std::get<Substitution>(outcome).moves;
        for (Move &m : back) std::swap(m.from, m.to);
        counter.update(back, parent.rank_to_host());
    }

    // Whether the host of `rank` may fail next.
    bool may_fail(const Placement &placement, int rank) const {
        return spec.spares_fail || !spec.pattern.is_spare(spec.grid, placement.host_of(rank));
    }

    // Depth-first over every ordered sequence; levels[depth] is the map after
    // `depth` failures, overwritten in place (no allocation per sequence).
    void search(std::vector<Placement> &levels, int depth) {
        if (depth > spec.failures) {
            ++result.sequences;
            return;
        }
        const Placement &placement = levels[depth - 1];
        for (int rank = 0; rank < placement.ranks(); ++rank) {
            if (!may_fail(placement, rank)) continue;
            Placement &next = levels[depth];
            next = placement;
            const Outcome outcome = next.fail(placement.host_of(rank), spec.method);
            if (record(depth, next, outcome)) {
                search(levels, depth + 1);
                undo(placement, outcome);
            } else {
                ++result.sequences;
            }
        }
    }

    void sample(const Placement &start, long samples) {
        std::mt19937_64 random(spec.seed);
        std::uniform_int_distribution<int> pick(0, start.ranks() - 1);
        Placement placement = start;
        for (long i = 0; i < samples; ++i) {
            placement = start;  // reuses the vectors' storage
            counter.max_collisions(start.logical_extents(), start.rank_to_host(), spec.periodic);
            for (int depth = 1; depth <= spec.failures; ++depth) {
                int rank = pick(random);
                // Ranks on spares are few: redraw until one may fail (a bounded number of times).
                for (int tries = 0; !may_fail(placement, rank) && tries < 1000; ++tries) rank = pick(random);
                if (!may_fail(placement, rank)) break;
                const Outcome outcome = placement.fail(placement.host_of(rank), spec.method);
                if (!record(depth, placement, outcome)) break;
            }
            ++result.sequences;
        }
    }
};

}  // namespace

long exhaustive_sequences(int ranks, int failures) {
    long total = 1;
    for (int i = 0; i < failures; ++i) {
        if (total > std::numeric_limits<long>::max() / std::max(ranks, 1)) return std::numeric_limits<long>::max();
        total *= ranks;
    }
    return total;
}

SimulationResult simulate(const SimulationSpec &spec) {
    if (spec.failures < 1) throw std::invalid_argument("the number of failures is at least 1");
    for (int degree : spec.method.degrees)
        if (degree > spec.grid.dims())
            throw std::invalid_argument(std::to_string(degree) + "D sliding needs a grid of that many dimensions");
    const Placement start(spec.grid, spec.pattern);
    Run run{spec, CollisionCounter(spec.grid), {}};
    run.result.per_failures.resize(spec.failures);
    for (FailureStats &stats : run.result.per_failures) stats.selected.assign(spec.method.degrees.size(), 0);
    run.result.failure_free = run.counter.max_collisions(start.logical_extents(), start.rank_to_host(), spec.periodic);
    const bool exhaustive =
        spec.samples == 0 && exhaustive_sequences(start.ranks(), spec.failures) <= spec.exhaustive_limit;
    run.result.exhaustive = exhaustive;
    if (exhaustive) {
        std::vector<Placement> levels(spec.failures + 1, start);
        run.search(levels, 1);
    } else
        run.sample(start, spec.samples ? spec.samples : 10000);
    return run.result;
}

}  // namespace harness::placement
