// cominfo — an MPI job's communicators and processes, coloured by state (the
// seed paper's COMINFO), and its failure/recovery timeline. The ranks of a
// job run through the VM keep their records in the DRD
// (ftmpi/<job>/cominfo/<rank>); cominfo reads and merges them through one
// daemon. Once, or redrawn as the records change with --watch; --json
// prints one JSON document (docs/cominfo.md).
#include "render.hpp"

#include <harness/vmview/drd_watch.hpp>
#include <harness/vmview/job_history.hpp>
#include <harness/vmview/job_records.hpp>
#include <harness/vmview/job_view.hpp>

#include <CLI/CLI.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <thread>

#include <unistd.h>

namespace {

using namespace harness;

std::atomic<bool> interrupted{false};

void on_signal(int) {
    interrupted = true;
}

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

int main(int argc, char **argv) {
    CLI::App app{"cominfo — an MPI job's communicators and processes as its ranks report them, coloured by state, "
                 "and its failure/recovery timeline (--history)."};
    std::string root, key, hcore, job;
    long timeout_ms = 5000, interval_ms = 1000;
    bool json = false, watch = false, history = false, no_color = false;
    app.add_option("--root", root, "HARNESS root directory (env HARNESS_ROOT, default ~/.harness)");
    app.add_option("--key", key, "VM key file (env HARNESS_KEY, default <root>/vm.key)");
    app.add_option("--hcore", hcore,
                   "daemon to ask, HOST:PORT (env HARNESS_HCORE, default the local "
                   "daemon's Unix socket <root>/var/hcored.sock)");
    app.add_option("--job", job, "the job to show (default: the most recently started job that reported)");
    app.add_option("--timeout", timeout_ms, "deadline of each request, in milliseconds")
        ->check(CLI::Range(1L, 3600000L));
    app.add_flag("--json", json, "print one JSON document on stdout");
    app.add_flag("--history", history, "the job's failure and recovery timeline, with durations");
    app.add_flag("--watch", watch, "redraw in place as the ranks report, until interrupted (Ctrl-C)");
    app.add_option("--interval", interval_ms, "--watch: redraw at least this often, in milliseconds")
        ->check(CLI::Range(50L, 3600000L));
    app.add_flag("--no-color", no_color, "no colours (they are used only when stdout is a terminal; env NO_COLOR)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::ParseError &e) {
        std::cerr << "cominfo: " << e.what() << " (try --help)" << std::endl;
        return 2;
    }
    if (json && watch) {
        std::cerr << "cominfo: --json gives one document; it does not combine with --watch" << std::endl;
        return 2;
    }
    if (history && watch) {
        std::cerr << "cominfo: --history prints the timeline once; it does not combine with --watch" << std::endl;
        return 2;
    }
    if (!job.empty() && (job.find('/') != std::string::npos || job.size() > 64)) {
        std::cerr << "cominfo: --job: not a job id: " << job << std::endl;
        return 2;
    }
    const char *no_color_env = std::getenv("NO_COLOR");
    const bool colour = !no_color && !json && ::isatty(STDOUT_FILENO) && !(no_color_env && *no_color_env);

    auto parsed = hlib::ConnectOptions::from_command_line(root, key, hcore, std::chrono::milliseconds(timeout_ms));
    if (!parsed) {
        std::cerr << "cominfo: " << parsed.error().message << std::endl;
        return 2;
    }
    const hlib::ConnectOptions options = *parsed;
    auto vm = hlib::VirtualMachine::connect(options);
    if (!vm) {
        std::cerr << "cominfo: cannot reach a daemon: " << vm.error().describe() << std::endl;
        return 1;
    }

    auto read = [&]() -> Result<cominfo::JobRecords> {
        auto jobs = cominfo::read_jobs(*vm, job, options.timeout);
        if (!jobs) return jobs.error();
        return cominfo::pick_job(std::move(*jobs), job);
    };

    if (!watch) {
        auto records = read();
        if (!records) {
            std::cerr << "cominfo: " << records.error().describe() << std::endl;
            return 1;
        }
        if (history) {
            auto h = cominfo::job_history(*records);
            if (json)
                std::cout << h.dump(2) << std::endl;
            else
                cominfo::print_history(h, std::cout);
        } else {
            auto view = cominfo::job_view(*records);
            if (json)
                std::cout << view.dump(2) << std::endl;
            else
                cominfo::print_view(view, colour, now_ms(), std::cout);
        }
        return 0;
    }

    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    const std::string prefix = job.empty() ? std::string("ftmpi/") : "ftmpi/" + job + "/cominfo/";
    std::int64_t index = vmview::watch_position(*vm, prefix);  // changes from now on redraw
    while (!interrupted) {
        auto records = read();
        std::cout << "\x1b[H\x1b[2J";  // home and clear: the table redraws in place
        if (records)
            cominfo::print_view(cominfo::job_view(*records), colour, now_ms(), std::cout);
        else
            std::cout << "cominfo: " << records.error().describe() << "\n";
        std::cout << "(redrawn as the ranks report, at least every " << interval_ms << " ms; Ctrl-C ends)" << std::endl;
        // Short watches, so Ctrl-C ends the loop quickly.
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(interval_ms);
        const std::int64_t before = index;
        while (!interrupted && std::chrono::steady_clock::now() < until && index == before) {
            if (!vmview::wait_for_change(*vm, prefix, &index, std::chrono::milliseconds(std::min(interval_ms, 250L))))
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    }
    return 0;
}
