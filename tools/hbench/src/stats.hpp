// stats.hpp — per-call timing samples and their summary (median, p99).
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

namespace hbench {

using Clock = std::chrono::steady_clock;

struct Summary {
    double median_us = 0;
    double p99_us = 0;
    std::size_t calls = 0;  // samples behind the figures (0: not measured)
};

// Summarises samples given in microseconds (the vector is sorted in place).
Summary summarize(std::vector<double> &samples_us);

inline double micros(Clock::duration d) {
    return std::chrono::duration<double, std::micro>(d).count();
}

// How many calls of each kind a run makes.
struct Plan {
    int calls = 2000;      // timed calls per method
    int warmup = 200;      // untimed calls before them
    int fork_calls = 300;  // timed calls for the fork-per-call method
    int fork_warmup = 20;
    int direct_batch = 1000;  // native calls per timing sample of the in-process methods

    static Plan for_calls(int calls);
};

}  // namespace hbench
