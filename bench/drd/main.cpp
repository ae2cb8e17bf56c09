// drd_bench — vm/drd latencies on a VM of three local hcored daemons.
//
//   drd_bench [--ops N] [--failovers K]
//
// For each of: put on the leader's daemon, put on a follower's daemon
// (forwarded to the leader over Hlib), linearizable get on the leader's and
// on a follower's daemon, and a local (non-linearizable) get, it times N
// calls from one client and prints the median, p10, p90 and p99 in µs.
// Then K times: kill -9 the leader's daemon while a client on a survivor
// writes in a loop, and report the time from the kill to the first write
// that succeeds (election + forwarding to the new leader), median and range;
// the killed daemon is restarted on its root between rounds.
#include "drd_vm.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace harness;
using namespace harness::drd::test;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

struct Stats {
    double median = 0, p10 = 0, p90 = 0, p99 = 0;
    std::size_t n = 0, failed = 0;
};

double percentile(std::vector<double> &v, double p) {
    if (v.empty()) return 0;
    std::size_t i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
}

Stats summarize(std::vector<double> v, std::size_t failed) {
    std::sort(v.begin(), v.end());
    Stats s;
    s.n = v.size();
    s.failed = failed;
    s.median = percentile(v, 0.5);
    s.p10 = percentile(v, 0.1);
    s.p90 = percentile(v, 0.9);
    s.p99 = percentile(v, 0.99);
    return s;
}

// Times ops calls of call(i) in µs; a failed call is counted, not timed.
Stats measure(int ops, const std::function<bool(int)> &call) {
    for (int i = 0; i < std::min(ops / 10 + 1, 20); ++i) (void)call(-1 - i);  // warm-up: connections, caches
    std::vector<double> us;
    std::size_t failed = 0;
    for (int i = 0; i < ops; ++i) {
        auto t0 = Clock::now();
        bool ok = call(i);
        auto dt = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
        if (ok)
            us.push_back(dt);
        else
            ++failed;
    }
    return summarize(std::move(us), failed);
}

void row(const char *name, const Stats &s) {
    std::printf("| %-28s | %8.0f | %8.0f | %8.0f | %8.0f | %5zu | %3zu |\n", name, s.median, s.p10, s.p90, s.p99, s.n,
                s.failed);
}

}  // namespace

int main(int argc, char **argv) {
    int ops = 300;
    int failovers = 3;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--ops") && i + 1 < argc)
            ops = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--failovers") && i + 1 < argc)
            failovers = std::atoi(argv[++i]);
        else {
            std::fprintf(stderr, "usage: drd_bench [--ops N] [--failovers K]\n");
            return 2;
        }
    }
    try {
        DrdVm vm;
        for (int i = 0; i < 3; ++i) vm.start_daemon();
        if (!vm.wait_formed(3, 0, 30s)) {
            std::fprintf(stderr, "drd_bench: the three daemons did not form a cluster\n");
            return 1;
        }
        auto leader = vm.leader(0);
        if (!leader) return 1;
        std::size_t follower = (*leader + 1) % 3;
        auto on_leader = vm.client(*leader);
        auto on_follower = vm.client(follower);
        std::string value(64, 'x');

        std::printf("vm/drd on 3 local daemons, %d calls each (µs per call, one client, Hlib over TCP)\n\n", ops);
        std::printf("| %-28s | %8s | %8s | %8s | %8s | %5s | %3s |\n", "operation", "median", "p10", "p90", "p99", "n",
                    "err");
        std::printf("|%s|%s|%s|%s|%s|%s|%s|\n", std::string(30, '-').c_str(), std::string(10, '-').c_str(),
                    std::string(10, '-').c_str(), std::string(10, '-').c_str(), std::string(10, '-').c_str(),
                    std::string(7, '-').c_str(), std::string(5, '-').c_str());
        row("put via leader's daemon",
            measure(ops, [&](int i) { return on_leader.put("bench/l" + std::to_string(i), value).ok(); }));
        row("put via follower (forwarded)",
            measure(ops, [&](int i) { return on_follower.put("bench/f" + std::to_string(i), value).ok(); }));
        row("linearizable get, leader",
            measure(ops, [&](int i) { return on_leader.get("bench/l" + std::to_string(std::abs(i)), true).ok(); }));
        row("linearizable get, follower",
            measure(ops, [&](int i) { return on_follower.get("bench/l" + std::to_string(std::abs(i)), true).ok(); }));
        row("local get (not linearizable)",
            measure(ops, [&](int i) { return on_follower.get("bench/l" + std::to_string(std::abs(i)), false).ok(); }));
        row("put, replication=local", measure(ops, [&](int i) {
                return on_follower.put("bench/local" + std::to_string(i), value, "local").ok();
            }));

        std::vector<double> failover_ms;
        for (int round = 0; round < failovers; ++round) {
            auto l = vm.leader(follower);
            if (!l) break;
            std::size_t survivor = (*l + 1) % vm.size();
            while (!vm.daemon(survivor).running() || survivor == *l) survivor = (survivor + 1) % vm.size();
            auto c = vm.client(survivor);
            if (!c.put("bench/warm", "x").ok()) break;
            auto root = vm.keep_root(*l);
            auto t0 = Clock::now();
            vm.kill(*l);
            bool ok = false;
            while (!ok && Clock::now() - t0 < 20s) ok = c.put("bench/failover", std::to_string(round)).ok();
            if (!ok) break;
            failover_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            follower = survivor;
            vm.start_daemon(root);
            if (!vm.wait_formed(3, 0, 30s)) break;
        }
        std::sort(failover_ms.begin(), failover_ms.end());
        std::printf(
            "\nfailover after kill -9 of the leader (kill → first acknowledged write on a survivor), %zu rounds:\n",
            failover_ms.size());
        if (!failover_ms.empty())
            std::printf("  median %.0f ms, min %.0f ms, max %.0f ms\n", percentile(failover_ms, 0.5),
                        failover_ms.front(), failover_ms.back());
        double load[3] = {0, 0, 0};
        if (getloadavg(load, 3) > 0)
            std::printf("load average during the run: %.2f %.2f %.2f\n", load[0], load[1], load[2]);
        return failover_ms.size() == static_cast<std::size_t>(failovers) ? 0 : 1;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "drd_bench: %s\n", e.what());
        return 1;
    }
}
