// The collision study of the sliding methods: for 1 … F failed hosts, the
// best, average and worst C_max of the stencil over failure sequences, how
// many sequences a method could not handle, and which degree of a hybrid
// handled each failure. A sequence fails, one after the other, hosts that
// hold a rank at that moment (a spare failing changes no collision count);
// with spares_fail off, only hosts of the working block fail, never a spare
// that took over a rank (the paper's statements on 1D sliding assume so).
// Small cases are searched exhaustively (every ordered sequence), large
// ones by random sampling.
#pragma once

#include "host_grid.hpp"
#include "method.hpp"
#include "spare_pattern.hpp"

#include <cstdint>
#include <limits>
#include <vector>

namespace harness::placement {

struct SimulationSpec {
    HostGrid grid{{4, 4}, false};
    SparePattern pattern;
    Method method;
    int failures = 1;                   // the longest sequence
    bool periodic = false;              // periodic stencil (wrap-around neighbours)
    bool spares_fail = true;            // a spare that took over a rank can fail too
    long samples = 0;                   // random sequences; 0: exhaustive when it fits exhaustive_limit, else 10000
    long exhaustive_limit = 2'000'000;  // most sequences an exhaustive search may visit
    std::uint64_t seed = 1;
};

struct FailureStats {
    long handled = 0;  // sequences whose first F failures were all handled
    long refused = 0;  // sequences whose F-th failure no degree could handle
    int best = std::numeric_limits<int>::max();
    int worst = 0;
    double sum = 0;
    std::vector<long> selected;  // per entry of the method's degrees: how often it handled the F-th failure

    double average() const { return handled ? sum / handled : 0.0; }
};

struct SimulationResult {
    bool exhaustive = false;
    long sequences = 0;                      // searched or sampled
    int failure_free = 0;                    // C_max before any failure
    std::vector<FailureStats> per_failures;  // index F-1
};

// Ordered failure sequences of length `failures` on `ranks` rank-holding
// hosts (ranks^failures), saturated at the largest long.
long exhaustive_sequences(int ranks, int failures);

// Throws std::invalid_argument when the pattern or method does not fit the grid.
SimulationResult simulate(const SimulationSpec &spec);

}  // namespace harness::placement
