#include "stats.hpp"

#include <algorithm>
#include <cmath>

namespace hbench {

Summary summarize(std::vector<double> &samples_us) {
    Summary s;
    s.calls = samples_us.size();
    if (samples_us.empty()) return s;
    std::sort(samples_us.begin(), samples_us.end());
    auto at = [&](double q) {
        // Nearest rank: the smallest sample with at least q of them at or below it.
        auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(samples_us.size())));
        return samples_us[std::clamp<std::size_t>(rank, 1, samples_us.size()) - 1];
    };
    std::size_t n = samples_us.size();
    s.median_us = n % 2 ? samples_us[n / 2] : (samples_us[n / 2 - 1] + samples_us[n / 2]) / 2;
    s.p99_us = at(0.99);
    return s;
}

Plan Plan::for_calls(int calls) {
    Plan p;
    p.calls = std::max(calls, 1);
    p.warmup = std::clamp(p.calls / 10, 5, 200);
    p.fork_calls = std::min(p.calls, 300);
    p.fork_warmup = std::clamp(p.fork_calls / 10, 2, 20);
    return p;
}

}  // namespace hbench
