// hbench — Table 2 of the seed paper on this machine: the cost of one call by
// each invocation method (direct, local daemon over Unix socket and TCP, new
// thread, forked process, forked service, remote daemon over TCP and UDP),
// next to the raw loopback round trips of the same message sizes measured in
// the same run. Without --hcore it starts a private two-daemon VM and stops it
// afterwards. See ../README.md (tools/hbench/README.md).
#include "call_size.hpp"
#include "daemons.hpp"
#include "methods.hpp"
#include "raw_roundtrip.hpp"
#include "report.hpp"

#include <harness/hlib/hlib.hpp>

#include <CLI/CLI.hpp>

#include <csignal>
#include <iostream>
#include <memory>

#ifndef HBENCH_HCORED_PATH
#define HBENCH_HCORED_PATH ""
#endif
#ifndef HBENCH_PLUGINS_DIR
#define HBENCH_PLUGINS_DIR ""
#endif

namespace fs = std::filesystem;

int main(int argc, char **argv) {
    CLI::App app{"hbench: invocation latency of every HARNESS method against the raw loopback round trips "
                 "(Table 2 of the seed paper)"};
    int calls = 2000;
    bool json = false;
    std::string hcore, root, key;
    std::string hcored = HBENCH_HCORED_PATH, plugins = HBENCH_PLUGINS_DIR;
    hbench::Targets targets;
    app.add_option("--calls", calls, "Timed calls per method (fork: at most 300; warm-up: a tenth, at most 200)")
        ->check(CLI::Range(1, 10000000))
        ->capture_default_str();
    app.add_flag("--json", json, "Print one JSON document on stdout instead of the table");
    app.add_option("--hcore", hcore,
                   "Measure the existing VM of the daemon at HOST:PORT (remote = another member) instead of "
                   "starting two daemons");
    app.add_option("--root", root,
                   "With --hcore: the local daemon's root (its Unix socket, key, plugins) "
                   "[default: $HARNESS_ROOT or ~/.harness]");
    app.add_option("--key", key, "With --hcore: the VM key file [default: $HARNESS_KEY or <root>/vm.key]");
    app.add_option("--hcored", hcored, "The hcored binary to start")->capture_default_str();
    app.add_option("--plugins", plugins, "Built plugins to install into the daemons' roots (a root's lib/)")
        ->capture_default_str();
    app.add_option("--only", targets.only, "Run only these methods (e.g. remote_udp), for investigating one")
        ->delimiter(',')
        ->check(CLI::IsMember({"local_direct", "local_unix", "local_tcp", "local_thread", "local_fork", "local_service",
                               "remote_tcp", "remote_udp"}));
    CLI11_PARSE(app, argc, argv);

    std::signal(SIGPIPE, SIG_IGN);
    hbench::Report report;
    report.plan = hbench::Plan::for_calls(calls);
    report.load_before = hbench::load_average();
    report.stream = hbench::call_size_stream();
    report.datagram = hbench::call_size_datagram();

    std::unique_ptr<hbench::LocalVm> vm;
    try {
        if (hcore.empty()) {
            if (!root.empty() || !key.empty()) throw std::runtime_error("--root and --key go with --hcore");
            vm = std::make_unique<hbench::LocalVm>(hcored, plugins);
            targets.root = vm->local().root;
            targets.key_file = vm->key_file();
            targets.local_tcp = vm->local().tcp;
            targets.direct_roots = {vm->local().root};
            report.daemons = "started " + vm->local().tcp.to_string() + " (" + vm->local().id + ") and " +
                vm->remote().tcp.to_string() + " (" + vm->remote().id + ")";
        } else {
            auto at = harness::parse_endpoint(hcore);
            if (!at) throw std::runtime_error("--hcore: " + at.error().message);
            harness::hlib::ConnectOptions o;
            o.root = root;
            o.key_file = key;
            o = o.resolved();
            targets.root = o.root;
            targets.key_file = o.key_file;
            targets.local_tcp = *at;
            targets.local_unix = fs::exists(o.root / "var" / "hcored.sock");
            targets.direct_roots = {o.root};
            if (!plugins.empty()) targets.direct_roots.push_back(fs::path(plugins).parent_path());
            report.daemons = "existing VM at " + hcore;
        }
        report.raw = hbench::measure_raw(report.stream, report.datagram, report.plan.calls, report.plan.warmup);
        report.plain_call = hbench::measure_plain_call(report.plan);
        report.methods = hbench::run_methods(targets, report.plan);
    } catch (const std::exception &e) {
        std::cerr << "hbench: " << e.what() << "\n";
        return 1;
    }
    if (vm) vm->stop();

    if (json)
        hbench::print_json(std::cout, report);
    else
        hbench::print_table(std::cout, report);
    for (const auto &m : report.methods)
        if (!m.error.empty()) {
            std::cerr << "hbench: " << m.name << " not measured: " << m.error << "\n";
            return 2;
        }
    return 0;
}
