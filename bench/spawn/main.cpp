// spawn_bench: time to start /bin/true and see it exit, through a real
// daemon's vm/spawn_notify (spawn call, then the `wait` long poll reporting
// its exit) against posix_spawn + waitpid in this process, in the same run.
//
//   build/bench/spawn/spawn_bench [--iterations N]
//
// Prints, per method, the median and the 10th/90th percentiles in
// microseconds, and the ratio of the medians.
#include "daemon_fixture.hpp"
#include "spawn_client.hpp"

#include <harness/common/crypto.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <vector>

extern char **environ;

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

struct Stats {
    double p10, median, p90;
};

Stats stats_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    auto at = [&](double q) { return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))]; };
    return {at(0.1), at(0.5), at(0.9)};
}

double micros(Clock::duration d) {
    return std::chrono::duration<double, std::micro>(d).count();
}

std::vector<double> bench_posix_spawn(int n) {
    std::vector<double> out;
    char arg0[] = "/bin/true";
    char *argv[] = {arg0, nullptr};
    for (int i = 0; i < n; ++i) {
        auto t0 = Clock::now();
        pid_t pid;
        if (posix_spawn(&pid, "/bin/true", nullptr, nullptr, argv, environ) != 0) {
            std::perror("posix_spawn");
            std::exit(1);
        }
        int status;
        waitpid(pid, &status, 0);
        out.push_back(micros(Clock::now() - t0));
    }
    return out;
}

std::vector<double> bench_spawn_notify(harness::spawn_client::SpawnClient &c, int n) {
    std::vector<double> out;
    std::int64_t after = 0;
    // Start after every event already there.
    if (auto w = c.wait(0, 0ms)) after = w->next_event;
    for (int i = 0; i < n; ++i) {
        auto t0 = Clock::now();
        auto s = c.spawn({{"/bin/true"}, {}, "", "", ""});
        if (!s) {
            std::fprintf(stderr, "spawn: %s\n", s.error().describe().c_str());
            std::exit(1);
        }
        bool seen = false;
        while (!seen) {
            auto w = c.wait(after, 5000ms);
            if (!w) {
                std::fprintf(stderr, "wait: %s\n", w.error().describe().c_str());
                std::exit(1);
            }
            for (const auto &e : w->events) seen = seen || e.handle == s->handle;
            after = w->next_event;
        }
        out.push_back(micros(Clock::now() - t0));
    }
    return out;
}

}  // namespace

int main(int argc, char **argv) {
    int n = 300;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--iterations") == 0) n = std::max(5, std::atoi(argv[i + 1]));
    harness::test::DaemonOptions o;
    o.services = "vm/spawn_notify";
    auto d = harness::test::Daemon::start(o);
    auto key = harness::load_key(d->key_file());
    if (!key) {
        std::fprintf(stderr, "key: %s\n", key.error().describe().c_str());
        return 1;
    }
    harness::spawn_client::Address where;
    where.unix_socket = d->unix_socket();
    auto c = harness::spawn_client::SpawnClient::open(where, *key, 5s);
    if (!c) {
        std::fprintf(stderr, "connect: %s\n", c.error().describe().c_str());
        return 1;
    }
    // Warm up both paths, then interleave rounds so load changes hit both.
    bench_posix_spawn(10);
    bench_spawn_notify(*c, 10);
    std::vector<double> plain, through;
    for (int round = 0; round < 5; ++round) {
        auto a = bench_posix_spawn(n / 5);
        auto b = bench_spawn_notify(*c, n / 5);
        plain.insert(plain.end(), a.begin(), a.end());
        through.insert(through.end(), b.begin(), b.end());
    }
    Stats p = stats_of(plain), s = stats_of(through);
    std::printf("spawn of /bin/true until its exit is seen, %zu runs each (microseconds)\n", plain.size());
    std::printf("%-34s %10s %10s %10s\n", "method", "p10", "median", "p90");
    std::printf("%-34s %10.1f %10.1f %10.1f\n", "posix_spawn + waitpid (in-process)", p.p10, p.median, p.p90);
    std::printf("%-34s %10.1f %10.1f %10.1f\n", "vm/spawn_notify spawn + wait (unix)", s.p10, s.median, s.p90);
    std::printf("ratio of medians: %.2fx\n", s.median / p.median);
    return 0;
}
