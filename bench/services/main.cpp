// services_bench — vm/events and vm/naming on three real daemons with the
// real DRD:
//   * event delivery latency, publish → every subscriber has it, with 1, 4
//     and 16 subscribers long-polling through the three daemons in turn;
//   * failover time after kill -9 of the host of the active events/naming
//     instances: from the kill to the first publish (allocate) that succeeds
//     through a survivor — failure detection (the heartbeat timeout) plus
//     takeover plus the DRD's own recovery when the host was its leader.
// Prints medians and spread (min, p10, p90, max).
//
//   services_bench [--rounds N] [--failovers K] [--heartbeat-timeout-ms T]
#include "vm_services_fixture.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace harness;
using namespace harness::services_test;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

struct Stats {
    double min, p10, median, p90, max;
    std::size_t n;
};

Stats stats_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    auto at = [&](double q) { return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5)]; };
    return Stats{v.front(), at(0.1), at(0.5), at(0.9), v.back(), v.size()};
}

void print_row(const std::string &what, const Stats &s, const char *unit) {
    std::printf("%-34s %6zu %10.1f %10.1f %10.1f %10.1f %10.1f  %s\n", what.c_str(), s.n, s.median, s.min, s.p10, s.p90,
                s.max, unit);
}

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

// One round = one publish; latency = until the last subscriber has it.
// acks: the publish's own latency (until committed and acknowledged).
std::vector<double> delivery_latency(ServiceVm &vm, std::size_t subscribers, int rounds, std::vector<double> &acks) {
    const std::string topic = "bench/fanout" + std::to_string(subscribers);
    std::mutex mutex;
    std::condition_variable progress;
    std::vector<std::int64_t> received_at(static_cast<std::size_t>(rounds) * subscribers, 0);
    std::vector<std::int64_t> seen(subscribers, 0);
    std::atomic<bool> stop{false};
    std::atomic<std::size_t> ready{0};
    std::int64_t base = 0;
    {
        ServiceClient c(vm[0], vm.key_file());
        auto existing = c.fetch(topic, 0, 0, 1);
        base = existing && !existing->empty() ? existing->back().seq : 0;
    }
    std::vector<std::thread> threads;
    for (std::size_t s = 0; s < subscribers; ++s) {
        threads.emplace_back([&, s] {
            ServiceClient c(vm[s % vm.size()], vm.key_file());
            std::int64_t last = base;
            (void)c.fetch(topic, last, 0, 1);  // connect before the first round
            ++ready;
            while (!stop) {
                auto batch = c.fetch(topic, last, 200, 1000);
                if (!batch) continue;
                auto t = now_ns();
                std::lock_guard lock(mutex);
                for (auto &e : *batch) {
                    last = e.seq;
                    std::int64_t round = e.seq - base - 1;
                    if (round >= 0 && round < rounds)
                        received_at[static_cast<std::size_t>(round) * subscribers + s] = t;
                }
                seen[s] = last;
                progress.notify_all();
            }
        });
    }
    while (ready < subscribers) std::this_thread::sleep_for(1ms);
    ServiceClient publisher(vm[0], vm.key_file());
    std::vector<double> latencies;
    for (int r = 0; r < rounds; ++r) {
        std::int64_t sent = now_ns();
        auto seq = publisher.publish(topic, Bytes(16, 0));
        acks.push_back(static_cast<double>(now_ns() - sent) / 1000.0);
        if (!seq) {
            std::fprintf(stderr, "publish failed: %s\n", seq.error().describe().c_str());
            break;
        }
        std::unique_lock lock(mutex);
        bool all = progress.wait_for(lock, 10s, [&] {
            return std::all_of(seen.begin(), seen.end(), [&](std::int64_t v) { return v >= *seq; });
        });
        if (!all) {
            std::fprintf(stderr, "round %d: not every subscriber got seq %lld within 10 s\n", r,
                         static_cast<long long>(*seq));
            break;
        }
        std::int64_t last = 0;
        for (std::size_t s = 0; s < subscribers; ++s)
            last = std::max(last, received_at[static_cast<std::size_t>(r) * subscribers + s]);
        latencies.push_back(static_cast<double>(last - sent) / 1000.0);
    }
    stop = true;
    for (auto &t : threads) t.join();
    return latencies;
}

// Kills the host of the active events instance; returns ms until a publish
// and an allocate through a survivor succeed.
std::pair<double, double> failover_once(std::chrono::milliseconds heartbeat_timeout) {
    ServiceVm vm(3, 50ms, heartbeat_timeout);
    auto formed = Clock::now();
    if (!vm.wait_for_drd_voters(3, 60s)) {
        std::fprintf(stderr, "failover: the DRD never had 3 voters\n");
        return {-1, -1};
    }
    std::fprintf(stderr, "failover: DRD has 3 voters %.0f ms after the VM formed\n",
                 std::chrono::duration<double, std::milli>(Clock::now() - formed).count());
    ServiceClient probe(vm[1], vm.key_file());
    // Warm up both services and learn where they run.
    auto warm = probe.publish("bench/failover", Bytes(8, 0));
    auto warm_id = probe.allocate("job", 1);
    auto where = probe.events_where();
    if (!warm || !warm_id || !where) {
        std::fprintf(stderr, "failover: services not ready: %s\n",
                     (!warm          ? warm.error()
                          : !warm_id ? warm_id.error()
                                     : where.error())
                         .describe()
                         .c_str());
        return {-1, -1};
    }
    std::size_t victim = vm.index_of(*where);
    std::size_t survivor = (victim + 1) % vm.size();
    std::fprintf(stderr, "failover: killing daemon %zu (%s), asking through daemon %zu (%s)\n", victim, where->c_str(),
                 survivor, vm[survivor].id().c_str());
    auto killed = Clock::now();
    vm.kill_hard(victim);
    double events_ms = -1, naming_ms = -1;
    std::thread naming([&] {
        ServiceClient c(vm[survivor], vm.key_file());
        while (Clock::now() - killed < 60s)
            if (c.allocate("job", 1, 20s)) {
                naming_ms = std::chrono::duration<double, std::milli>(Clock::now() - killed).count();
                return;
            }
    });
    ServiceClient c(vm[survivor], vm.key_file());
    while (Clock::now() - killed < 60s) {
        auto r = c.publish("bench/failover", Bytes(8, 0), 20s);
        if (r) {
            events_ms = std::chrono::duration<double, std::milli>(Clock::now() - killed).count();
            break;
        }
        std::fprintf(stderr, "failover: publish: %s\n", r.error().describe().c_str());
    }
    naming.join();
    return {events_ms, naming_ms};
}

}  // namespace

int main(int argc, char **argv) {
    int rounds = 200, failovers = 5;
    long heartbeat_timeout = 600;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--rounds" && i + 1 < argc)
            rounds = std::max(1, std::atoi(argv[++i]));
        else if (a == "--failovers" && i + 1 < argc)
            failovers = std::max(0, std::atoi(argv[++i]));
        else if (a == "--heartbeat-timeout-ms" && i + 1 < argc)
            heartbeat_timeout = std::max(100L, std::atol(argv[++i]));
        else {
            std::fprintf(stderr, "usage: services_bench [--rounds N] [--failovers K] [--heartbeat-timeout-ms T]\n");
            return a == "--help" ? 0 : 2;
        }
    }
    try {
        std::printf("%-34s %6s %10s %10s %10s %10s %10s\n", "measurement", "n", "median", "min", "p10", "p90", "max");
        {
            ServiceVm vm(3);
            std::vector<double> acks;
            for (std::size_t subs : {1u, 4u, 16u}) {
                auto lat = delivery_latency(vm, subs, rounds, acks);
                if (lat.empty()) return 1;
                print_row("delivery, " + std::to_string(subs) + " subscriber(s)", stats_of(lat), "us");
            }
            print_row("publish → acknowledged (all runs)", stats_of(acks), "us");
        }
        std::vector<double> ev, nm;
        for (int k = 0; k < failovers; ++k) {
            auto [e, n] = failover_once(std::chrono::milliseconds(heartbeat_timeout));
            std::fprintf(stderr, "failover %d: events %.1f ms, naming %.1f ms\n", k + 1, e, n);
            if (e >= 0) ev.push_back(e);
            if (n >= 0) nm.push_back(n);
        }
        if (!ev.empty()) print_row("failover events (kill -9 → publish)", stats_of(ev), "ms");
        if (!nm.empty()) print_row("failover naming (kill -9 → allocate)", stats_of(nm), "ms");
        std::printf("(3 daemons on loopback, heartbeat 50 ms, heartbeat timeout %ld ms)\n", heartbeat_timeout);
        return ev.size() == static_cast<std::size_t>(failovers) && nm.size() == static_cast<std::size_t>(failovers) ? 0
                                                                                                                    : 1;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "services_bench: %s\n", e.what());
        return 1;
    }
}
