// plugin_fetch_bench — time to first use of a 1 MiB plugin:
//   lib     resolve from <root>/lib, dlopen, call
//   cache   resolve from a valid cache entry, dlopen, call
//   http    fetch index + signature + .so + manifest from nginx on loopback,
//           verify (GPGME, SHA-256), write the cache atomically, dlopen, call
// and the verification's share of the http case (GPGME verify of the index
// plus SHA-256 of both files, timed separately on the same bytes).
//
//   plugin_fetch_bench [--iterations N] [--json]
#include "support/fetch_fixture.hpp"

#include <harness/common/loader.hpp>
#include <harness/fetch/repo_keys.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

using namespace fetchtest;
using Clock = std::chrono::steady_clock;

namespace {

const harness::ComponentName big{"fetchbench", "big"};

struct Stats {
    double median = 0, min = 0, max = 0, p10 = 0, p90 = 0;
};

Stats stats_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    auto at = [&](double q) { return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5)]; };
    return {at(0.5), v.front(), v.back(), at(0.1), at(0.9)};
}

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

[[noreturn]] void fail(const std::string &what) {
    std::cerr << "plugin_fetch_bench: " << what << "\n";
    std::exit(1);
}

// Resolve, dlopen, call checksum: the time until the plugin's first answer.
double first_use(const harness::Resolver &resolver, harness::PluginOrigin expected) {
    auto t0 = Clock::now();
    auto where = resolver.resolve(big);
    if (!where) fail("resolve: " + where.error().describe());
    auto lib = harness::LoadedLibrary::open(*where);
    if (!lib) fail("open: " + lib.error().describe());
    const harness_function *fn = (*lib)->find_function("checksum");
    harness_value result{};
    if (!fn || fn->automatic(nullptr, nullptr, 0, &result) != HARNESS_OK) fail("checksum call failed");
    double ms = ms_since(t0);
    if (where->origin != expected)
        fail(std::string("expected origin ") + harness::origin_name(expected) + ", got " +
             harness::origin_name(where->origin));
    return ms;
}

std::vector<double> repeat(int n, const std::function<void()> &setup, const std::function<double()> &run) {
    std::vector<double> out;
    for (int i = 0; i < n; ++i) {
        setup();
        out.push_back(run());
    }
    return out;
}

}  // namespace

int main(int argc, char **argv) {
    int iterations = 30;
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--iterations") && i + 1 < argc)
            iterations = std::max(3, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--json"))
            json = true;
        else {
            std::cerr << "usage: plugin_fetch_bench [--iterations N] [--json]\n";
            return 2;
        }
    }

    FetchWorld w;
    w.log.set_level(harness::LogLevel::warning);
    fs::path built = fs::path(BENCH_PLUGIN_DIR) / "fetchbench";
    auto published = harness::publish::publish(w.default_options(), {{built / "big.so", built / "big.json"}});
    if (!published) fail("publish: " + published.error().describe());
    make_world_readable(w.www());
    auto so_size = fs::file_size(built / "big.so");

    // lib/: a separate root with the plugin installed by hand.
    fs::path lib_root = w.tmp.path() / "libroot";
    fs::create_directories(lib_root / "lib" / "fetchbench");
    fs::copy_file(built / "big.so", lib_root / "lib" / "fetchbench" / "big.so");
    fs::copy_file(built / "big.json", lib_root / "lib" / "fetchbench" / "big.json");
    harness::Resolver lib_resolver(lib_root);
    auto lib_ms = repeat(
        iterations, [] {}, [&] { return first_use(lib_resolver, harness::PluginOrigin::lib); });

    auto fetcher = harness::make_http_fetcher(w.config());
    if (!fetcher) fail("fetcher: " + fetcher.error().describe());
    harness::Resolver http_resolver(w.root(), *fetcher);
    auto http_ms = repeat(
        iterations, [&] { fs::remove_all(w.cache_lib() / "fetchbench"); },
        [&] { return first_use(http_resolver, harness::PluginOrigin::fetched); });
    auto cache_ms = repeat(
        iterations, [] {}, [&] { return first_use(http_resolver, harness::PluginOrigin::cache); });

    // Verification alone, on the bytes the fetcher verified.
    auto index = read_text(w.www() / "index.json");
    auto sig = read_text(w.www() / "index.json.sig");
    auto so = read_text(built / "big.so");
    auto manifest = read_text(built / "big.json");
    std::vector<double> gpg_ms, hash_ms;
    for (int i = 0; i < iterations; ++i) {
        auto t0 = Clock::now();
        auto ok = harness::repo::verify_detached(w.daemon_gpg.path(), index, sig, {w.signer});
        gpg_ms.push_back(ms_since(t0));
        if (!ok) fail("verify: " + ok.error().describe());
        t0 = Clock::now();
        auto h1 = harness::repo::sha256_hex(so);
        auto h2 = harness::repo::sha256_hex(manifest);
        hash_ms.push_back(ms_since(t0));
        if (h1.empty() || h2.empty()) fail("hash");
    }
    std::vector<double> verify_ms;
    for (int i = 0; i < iterations; ++i) verify_ms.push_back(gpg_ms[i] + hash_ms[i]);

    struct Row {
        const char *name;
        Stats s;
    };
    std::vector<Row> rows = {{"lib", stats_of(lib_ms)},
                             {"cache", stats_of(cache_ms)},
                             {"http", stats_of(http_ms)},
                             {"verify_gpgme", stats_of(gpg_ms)},
                             {"verify_sha256", stats_of(hash_ms)},
                             {"verify_total", stats_of(verify_ms)}};
    double share = rows[5].s.median / rows[2].s.median;

    if (json) {
        std::printf("{\"plugin_bytes\":%llu,\"iterations\":%d,\"unit\":\"ms\",\"cases\":{",
                    static_cast<unsigned long long>(so_size), iterations);
        for (std::size_t i = 0; i < rows.size(); ++i)
            std::printf("%s\"%s\":{\"median\":%.3f,\"min\":%.3f,\"p10\":%.3f,\"p90\":%.3f,\"max\":%.3f}", i ? "," : "",
                        rows[i].name, rows[i].s.median, rows[i].s.min, rows[i].s.p10, rows[i].s.p90, rows[i].s.max);
        std::printf("},\"verification_share_of_http\":%.4f}\n", share);
        return 0;
    }
    std::printf("time to first use of a %llu-byte plugin, %d runs each (ms)\n",
                static_cast<unsigned long long>(so_size), iterations);
    std::printf("%-14s %9s %9s %9s %9s %9s\n", "case", "median", "min", "p10", "p90", "max");
    for (const auto &r : rows)
        std::printf("%-14s %9.3f %9.3f %9.3f %9.3f %9.3f\n", r.name, r.s.median, r.s.min, r.s.p10, r.s.p90, r.s.max);
    std::printf("verification (GPGME + SHA-256) share of the http median: %.1f %%\n", 100.0 * share);
    return 0;
}
