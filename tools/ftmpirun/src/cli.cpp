#include "cli.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <set>

namespace harness::ftmpirun {

namespace {

// The options, declared once. Per-context ones write into ctx (-n, -x,
// --wdir given in a later MPMD context apply to that context), the others
// into o.
void declare_options(CLI::App &app, Options &o, AppContext &ctx) {
    app.add_option("-n,--np", ctx.np, "number of ranks of this program (also -np)");
    app.add_option("-H,--host", o.host_list, "daemons to use: ID|HOST:PORT|HOST[:SLOTS],… (also -host)");
    app.add_option("--hostfile", o.hostfile, "file with one daemon per line: NAME [slots=N] (also -hostfile)");
    app.add_option("--rankfile", o.rankfile,
                   "file placing each rank: `rank N=HOST slot=CPUS` (CPUS: 2, 0-3, 1,5); the rank is bound to those "
                   "CPUs");
    app.add_option("--map-by", o.map_by,
                   "placement: slot (fill each host's slots in turn, the default), node (round robin over the "
                   "hosts), ppr:N:node (N ranks per host)");
    app.add_option(
        "--bind-to", o.bind_to,
        "auto (the default: core when a host runs no more ranks than it has CPUs, else none), core (each rank bound to "
        "one core of its host) or none");
    // One value per -x: a vector option would otherwise swallow the program
    // that follows it as a second value.
    app.add_option("-x", ctx.exports, "export VAR (its value here) or VAR=value to the ranks (repeatable)")
        ->allow_extra_args(false);
    app.add_flag("--tag-output", o.tag_output, "prefix each output line with [job,rank]<stdout|stderr>:");
    app.add_flag("--timestamp-output", o.timestamp_output, "prefix each output line with the time it arrived");
    app.add_option("--output-buffering", o.output_buffering,
                   "ranks' stdout buffering: line (the default: nothing is lost when a rank is killed), full, none "
                   "(FTMPI_OUTPUT_BUFFERING)");
    app.add_option("--timeout", o.timeout_s, "kill the job after S seconds (exit status 124)")
        ->check(CLI::PositiveNumber);
    app.add_flag("--oversubscribe", o.oversubscribe, "allow more ranks than slots");
    app.add_option("--universe-size,--usize", o.universe_size,
                   "MPI_UNIVERSE_SIZE: how many processes the program may count on in all, spawned ones included "
                   "(default: the slots of the job's hosts, at least -np; MPICH's -usize)")
        ->check(CLI::PositiveNumber);
    app.add_option("--wdir", ctx.wdir, "working directory of the ranks (default: this one)");
    app.add_option("--hcore", o.hcore, "HOST:PORT of a daemon of the VM (env HARNESS_HCORE)");
    app.add_option("--root", o.root, "HARNESS root whose local daemon to use (env HARNESS_ROOT, default ~/.harness)");
    app.add_option("--key", o.key, "VM key file (env HARNESS_KEY, default <root>/vm.key)");
    app.add_option("--comm-mode", o.comm_mode,
                   "what a failure does to communicators: ulfm (default), abort, blank, shrink, rebuild, "
                   "rebuild-append (FTMPI_COMM_MODE)");
    app.add_option("--with-ft", o.with_ft, "Open MPI's spelling: ulfm or mpi (= --comm-mode ulfm), no (= abort)");
    app.add_option("--msg-mode", o.msg_mode, "messages after a failure: cont (default) or nop (FTMPI_MSG_MODE)");
    app.add_option("--initial-errhandler", o.initial_errhandler,
                   "error handler of MPI_COMM_WORLD and MPI_COMM_SELF at start: mpi_errors_are_fatal (default), "
                   "mpi_errors_abort, mpi_errors_return (MPI_INFO_ENV key mpi_initial_errhandler)");
    app.add_flag("--strict-collectives", o.strict_collectives,
                 "collectives agree on success at their end: right result everywhere or error everywhere "
                 "(FTMPI_COLL_STRICT=1)");
    app.add_flag("--ordered-notifier", o.ordered_notifier,
                 "every rank sees failures in the same order (FTMPI_NOTIFIER=ordered)");
    app.add_option("--grid", o.grid,
                   "the job's logical process grid, e.g. 4x4 (row-major, first dimension fastest; for --spares and "
                   "sliding substitution)");
    app.add_option("--spares", o.spares,
                   "reserve spare hosts in pattern qD(r,s), e.g. 2D(2,1): the host grid is --grid plus s layers on "
                   "its first r dimensions (REBUILD modes)");
    app.add_option("--ft-policy", o.ft_policy,
                   "JSON recovery policy: detectors, protocols and placement plugins (REBUILD modes; "
                   "docs/policies.md)");
    app.add_option("--standby", o.standby, "start N hot standby processes for the PROMOTE protocol (REBUILD modes)")
        ->check(CLI::Range(0, 1024));
    // Everything from the first argument that is not an option on is the
    // program and its own arguments, left unparsed.
    app.prefix_command();
}

std::string program_name(const char *argv0) {
    std::string name = argv0 ? argv0 : "ftmpirun";
    auto slash = name.rfind('/');
    return slash == std::string::npos ? name : name.substr(slash + 1);
}

// mpirun spells long options with one dash too ("-np", "-host", "-map-by");
// CLI11 wants two. Only the options before the program are rewritten, and
// an option's value is never taken for the program.
std::vector<std::string> normalized(const std::vector<std::string> &args, const CLI::App &app) {
    std::set<std::string> longs, with_value;
    for (const CLI::Option *opt : app.get_options()) {
        bool takes_value = opt->get_items_expected_min() > 0;
        for (const auto &l : opt->get_lnames()) {
            longs.insert(l);
            if (takes_value) with_value.insert("--" + l);
        }
        for (const auto &s : opt->get_snames())
            if (takes_value) with_value.insert("-" + s);
    }
    std::vector<std::string> out;
    bool program_seen = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string a = args[i];
        if (!program_seen) {
            if (a.size() > 2 && a[0] == '-' && a[1] != '-' && longs.count(a.substr(1))) a = "-" + a;
            if (a == "--")
                program_seen = true;
            else if (a.empty() || a[0] != '-')
                program_seen = true;
            else if (with_value.count(a) && i + 1 < args.size()) {
                out.push_back(a);
                a = args[++i];
            }
        }
        out.push_back(a);
    }
    return out;
}

}  // namespace

std::string comm_mode_for_with_ft(const std::string &with_ft) {
    // Open MPI 5: "mpi" is a synonym of "ulfm" (ULFM's own test suite runs
    // its fault-tolerance tests with --with-ft mpi); "no" turns it off.
    if (with_ft == "ulfm" || with_ft == "mpi") return "ulfm";
    if (with_ft == "no") return "abort";
    return {};
}

std::variant<Options, int> parse_command_line(int argc, char **argv) {
    const std::string me = program_name(argc > 0 ? argv[0] : nullptr);
    // MPMD: contexts separated by a lone ":".
    std::vector<std::vector<std::string>> contexts(1);
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == ":")
            contexts.emplace_back();
        else
            contexts.back().push_back(argv[i]);
    }
    Options o;
    for (std::size_t k = 0; k < contexts.size(); ++k) {
        AppContext ctx;
        CLI::App app{me + " — run an FT-MPI job through the HARNESS virtual machine (also mpirun, mpiexec)\n  " + me +
                     " [options] -n N program [args] [: -n N [-x VAR] program2 [args]]…"};
        app.footer("Exit status: 0 when every rank exits 0 (in a fault-tolerant comm mode: every rank that was not "
                   "killed or lost); otherwise the status of the rank that ended the job or exited non-zero, or "
                   "128+N when signal N killed it; 124 after --timeout; 127 when the program cannot be started; 1 "
                   "for " +
                   me + "'s own errors (no VM, too few slots, bad options).");
        declare_options(app, o, ctx);
        auto args = normalized(contexts[k], app);
        std::reverse(args.begin(), args.end());
        try {
            app.parse(args);
        } catch (const CLI::ParseError &e) {
            int code = app.exit(e);
            return code == 0 ? 0 : 1;
        }
        // prefix_command leaves the program's own arguments unparsed.
        ctx.program = app.remaining();
        if (!ctx.program.empty() && ctx.program[0].size() > 1 && ctx.program[0][0] == '-' && ctx.program[0] != "--") {
            std::cerr << me << ": unsupported option " << ctx.program[0] << " (" << me
                      << " --help lists the options it has)\n";
            return 1;
        }
        if (!ctx.program.empty() && ctx.program[0] == "--") ctx.program.erase(ctx.program.begin());
        const std::string which = contexts.size() > 1 ? " (program " + std::to_string(k + 1) + ")" : "";
        if (ctx.program.empty()) {
            std::cerr << me << ": no program given" << which << " (" << me << " -n N program args…)\n";
            return 1;
        }
        if (ctx.np < 1) {
            std::cerr << me << ": -n N (N ≥ 1) is required" << which << "\n";
            return 1;
        }
        o.apps.push_back(std::move(ctx));
    }
    return o;
}

}  // namespace harness::ftmpirun
