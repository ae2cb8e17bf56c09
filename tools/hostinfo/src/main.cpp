// hostinfo — the state of the HARNESS virtual machine (the seed paper's
// HOSTINFO): members and their liveness, services and where they run, the
// DRD's voters and standbys, and the plugins loaded on each daemon. Once, or
// refreshed in place with --watch; --json prints one JSON document.
#include "render.hpp"

#include <harness/vmview/vm_state.hpp>

#include <CLI/CLI.hpp>

#include <atomic>
#include <csignal>
#include <iostream>
#include <thread>

namespace {

std::atomic<bool> interrupted{false};

void on_signal(int) {
    interrupted = true;
}

}  // namespace

int main(int argc, char **argv) {
    using namespace harness;
    CLI::App app{"hostinfo — the state of the HARNESS virtual machine: members, services, DRD voters and "
                 "standbys, plugins per daemon."};
    std::string root, key, hcore;
    long timeout_ms = 5000, interval_ms = 1000;
    bool json = false, watch = false;
    app.add_option("--root", root, "HARNESS root directory (env HARNESS_ROOT, default ~/.harness)");
    app.add_option("--key", key, "VM key file (env HARNESS_KEY, default <root>/vm.key)");
    app.add_option("--hcore", hcore,
                   "daemon to ask, HOST:PORT (env HARNESS_HCORE, default the local "
                   "daemon's Unix socket <root>/var/hcored.sock)");
    app.add_option("--timeout", timeout_ms, "deadline of each request, in milliseconds")
        ->check(CLI::Range(1L, 3600000L));
    app.add_flag("--json", json, "print one JSON document on stdout");
    app.add_flag("--watch", watch, "refresh in place until interrupted (Ctrl-C)");
    app.add_option("--interval", interval_ms, "--watch refresh period, in milliseconds")
        ->check(CLI::Range(50L, 3600000L));
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::ParseError &e) {
        std::cerr << "hostinfo: " << e.what() << " (try --help)" << std::endl;
        return 2;
    }
    if (json && watch) {
        std::cerr << "hostinfo: --json gives one document; it does not combine with --watch" << std::endl;
        return 2;
    }

    auto parsed = hlib::ConnectOptions::from_command_line(root, key, hcore, std::chrono::milliseconds(timeout_ms));
    if (!parsed) {
        std::cerr << "hostinfo: " << parsed.error().message << std::endl;
        return 2;
    }
    const hlib::ConnectOptions options = *parsed;
    auto vm = hlib::VirtualMachine::connect(options);
    if (!vm) {
        std::cerr << "hostinfo: cannot reach a daemon: " << vm.error().describe() << std::endl;
        return 1;
    }

    if (!watch) {
        auto st = hostinfo::gather(*vm, options.timeout);
        if (!st) {
            std::cerr << "hostinfo: " << st.error().describe() << std::endl;
            return 1;
        }
        if (json)
            std::cout << hostinfo::to_json(*st).dump(2) << std::endl;
        else
            hostinfo::print_text(*st, std::cout);
        return 0;
    }

    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    while (!interrupted) {
        auto st = hostinfo::gather(*vm, options.timeout);
        std::cout << "\x1b[H\x1b[2J";  // home and clear: the table redraws in place
        if (st)
            hostinfo::print_text(*st, std::cout);
        else
            std::cout << "hostinfo: " << st.error().describe() << "\n";
        std::cout << "(refreshing every " << interval_ms << " ms; Ctrl-C ends)" << std::endl;
        for (long waited = 0; waited < interval_ms && !interrupted; waited += 50)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return 0;
}
