// ftmpirun — run an FT-MPI job through the HARNESS virtual machine.
//
//   ftmpirun -np N [--host h1:slots,h2 | --hostfile F] [-x VAR[=value]]…
//            [--tag-output] [--timeout S] [--oversubscribe] [--wdir DIR]
//            [--hcore HOST:PORT] [--root DIR] [--key FILE]
//            [--comm-mode ulfm|abort|blank|shrink|rebuild|rebuild-append]
//            [--msg-mode cont|nop] [--strict-collectives] [--ordered-notifier]
//            program args…
//
// It reaches the VM through --hcore (or $HARNESS_HCORE) or the local daemon of
// --root; with neither reachable it starts a private hcored for the job and
// stops it afterwards. The job id comes from vm/naming. Ranks are placed by
// slot over the VM's daemons (hosts.hpp) and started through each daemon's
// vm/spawn_notify (job.cpp). Exit status: README.md.
#include "hosts.hpp"
#include "job.hpp"
#include "private_daemon.hpp"

#include <harness/crypto.hpp>
#include <harness/hlib.hpp>
#include <harness/pack.hpp>

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

namespace {

using namespace harness;
using namespace harness::ftmpirun;
using namespace std::chrono_literals;

struct Options {
    int np = 0;
    std::string host_list;
    std::string hostfile;
    std::vector<std::string> exports;
    bool tag_output = false;
    double timeout_s = 0;
    bool oversubscribe = false;
    std::string wdir;
    std::string hcore;
    std::string root;
    std::string key;
    std::string comm_mode = "ulfm";
    std::string msg_mode = "cont";
    bool strict_collectives = false;
    bool ordered_notifier = false;
    std::vector<std::string> program;
};

int fail(const std::string &message, int status = 1)
{
    std::cerr << "ftmpirun: " << message << "\n";
    return status;
}

// mpirun spells some options with one dash ("-np", "-host", "-hostfile");
// CLI11 wants two. Only options before the program are rewritten.
std::vector<std::string> normalized_args(int argc, char **argv)
{
    static const std::vector<std::string> one_dash{"-np", "-host", "-hostfile", "-wdir", "-timeout"};
    static const std::vector<std::string> with_value{"--np", "-n", "--host", "-H", "--hostfile", "-x", "--timeout",
                                                     "--wdir", "--hcore", "--root", "--key",
                                                     "--comm-mode", "--msg-mode"};
    std::vector<std::string> out;
    bool program_seen = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (!program_seen) {
            if (std::find(one_dash.begin(), one_dash.end(), a) != one_dash.end()) a = "-" + a;
            if (a == "--") program_seen = true;
            else if (a.empty() || a[0] != '-') program_seen = true;
            else if (std::find(with_value.begin(), with_value.end(), a) != with_value.end() && i + 1 < argc) {
                out.push_back(a);
                a = argv[++i];
            }
        }
        out.push_back(a);
    }
    return out;
}

// The job id from vm/naming; a random one (said on stderr) when naming is absent.
std::int64_t allocate_job_id(hlib::VirtualMachine &vm)
{
    Packer args;
    args.str("job").i64(1);
    auto r = vm.local().call(ComponentName{"vm", "naming"}, "allocate", args.view(), HARNESS_CALL_PACKED,
                             HARNESS_MODE_DEFAULT, hlib::deadline_in(10s));
    std::int64_t id = 0;
    if (r) {
        Unpacker u(*r);
        if (u.i64(id) && id > 0) return id;
    }
    id = static_cast<std::int64_t>(random_u64() % 1000000000u) + 1000000000;
    std::cerr << "ftmpirun: vm/naming is not available (" << (r ? "malformed reply" : r.error().describe())
              << "); using random job id " << id << "\n";
    return id;
}

int run(const Options &o)
{
    if (o.program.empty()) return fail("no program given (ftmpirun -np N program args…)");
    if (o.np < 1) return fail("-np N is required, N ≥ 1");
    if (!o.host_list.empty() && !o.hostfile.empty()) return fail("give --host or --hostfile, not both");
    FtOptions ft;
    auto comm_mode = parse_comm_mode(o.comm_mode);
    if (!comm_mode) return fail(comm_mode.error().message);
    auto msg_mode = parse_msg_mode(o.msg_mode);
    if (!msg_mode) return fail(msg_mode.error().message);
    ft.comm_mode = *comm_mode;
    ft.msg_mode = *msg_mode;
    ft.strict_collectives = o.strict_collectives;
    ft.ordered_notifier = o.ordered_notifier;
    std::vector<HostEntry> entries;
    if (!o.host_list.empty()) entries = parse_host_list(o.host_list);
    if (!o.hostfile.empty()) {
        std::ifstream in(o.hostfile);
        if (!in) return fail("cannot read hostfile " + o.hostfile);
        std::stringstream text;
        text << in.rdbuf();
        auto parsed = parse_hostfile(text.str());
        if (!parsed) return fail(parsed.error().message);
        entries = *parsed;
    }

    // Reach the VM, or start a private daemon.
    hlib::ConnectOptions connect;
    if (!o.root.empty()) connect.root = o.root;
    if (!o.key.empty()) connect.key_file = o.key;
    if (!o.hcore.empty()) {
        auto ep = parse_endpoint(o.hcore);
        if (!ep) return fail("--hcore " + o.hcore + ": " + ep.error().message);
        connect.hcore = *ep;
    }
    connect = connect.resolved();
    std::unique_ptr<PrivateDaemon> private_daemon;
    // No --hcore and no socket under the root: nobody is there to ask.
    bool no_local_socket = !connect.hcore && !std::filesystem::exists(connect.root / "var" / "hcored.sock");
    auto vm = no_local_socket ? Result<hlib::VirtualMachine>(make_error(HARNESS_ERR_UNREACHABLE, "no local daemon"))
                              : hlib::VirtualMachine::connect(connect);
    if (!vm) {
        // Only "nobody there" gets a private daemon; a daemon that refuses us
        // (wrong key, other VM) is the user's to sort out.
        bool nobody = vm.error().status == HARNESS_ERR_UNREACHABLE || vm.error().status == HARNESS_ERR_NOT_FOUND ||
                      vm.error().status == HARNESS_ERR_TIMEOUT;
        if (connect.hcore && !o.hcore.empty()) return fail("no VM at " + o.hcore + ": " + vm.error().describe());
        if (connect.hcore) return fail("no VM at HARNESS_HCORE=" + connect.hcore->to_string() + ": " + vm.error().describe());
        if (!nobody) return fail("the daemon of " + connect.root.string() + " refused us: " + vm.error().describe());
        auto d = PrivateDaemon::start(15s);
        if (!d) return fail(d.error().message);
        private_daemon = std::move(d).value();
        hlib::ConnectOptions mine;
        mine.root = private_daemon->root();
        mine.hcore = private_daemon->tcp();
        mine.key_file = private_daemon->key_file();
        connect = mine.resolved();
        vm = hlib::VirtualMachine::connect(connect);
        if (!vm) return fail("the private hcored does not answer: " + vm.error().describe());
    }
    auto key = load_key(connect.key_file);
    if (!key) return fail("VM key " + connect.key_file.string() + ": " + key.error().describe());

    auto members = vm->members();
    if (!members) return fail("cannot list the VM's daemons: " + members.error().describe());
    std::vector<MemberView> views;
    for (const auto &m : *members) views.push_back({m.id, m.tcp, m.alive});
    int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    auto hosts = select_hosts(views, entries, cores);
    if (!hosts) return fail(hosts.error().message);
    auto placement = place_ranks(*hosts, o.np, o.oversubscribe);
    if (!placement) return fail(placement.error().message);

    JobSpec spec;
    spec.job_id = allocate_job_id(*vm);
    spec.argv = o.program;
    spec.key = *key;
    spec.ft = ft;
    spec.tag_output = o.tag_output;
    if (o.timeout_s > 0) spec.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(o.timeout_s * 1000));
    std::error_code ec;
    spec.cwd = o.wdir.empty() ? std::filesystem::current_path(ec).string() : o.wdir;
    for (const auto &x : o.exports) {
        if (x.find('=') != std::string::npos) spec.env.push_back(x);
        else if (const char *v = std::getenv(x.c_str())) spec.env.push_back(x + "=" + v);
        else std::cerr << "ftmpirun: -x " << x << ": not set here, not exported\n";
    }
    for (std::size_t where : *placement) spec.ranks.push_back({(*hosts)[where].member_id, (*hosts)[where].tcp});
    for (const auto &h : *hosts) spec.hosts.push_back({h.member_id, h.tcp});
    // The VM-wide services through any alive daemon, ours first.
    for (const auto &m : *members)
        if (m.alive && m.id == vm->local_id()) spec.vm.push_back({m.id, m.tcp});
    for (const auto &m : *members)
        if (m.alive && m.id != vm->local_id()) spec.vm.push_back({m.id, m.tcp});
    int status = run_job(spec);
    if (private_daemon) private_daemon->stop();
    return status;
}

} // namespace

int main(int argc, char **argv)
{
    CLI::App app{"ftmpirun — run an FT-MPI job through the HARNESS virtual machine"};
    app.footer("Exit status: 0 when every rank exits 0 (in a fault-tolerant comm mode: every rank that was not "
               "killed or lost); otherwise the status of the rank that ended the job, or 128+N when signal N "
               "killed it; 124 after --timeout; 127 when the program cannot be started; 1 for ftmpirun's own "
               "errors (no VM, too few slots, bad options).");
    Options o;
    app.add_option("-n,--np", o.np, "number of ranks (also -np)")->required();
    app.add_option("-H,--host", o.host_list, "daemons to use: ID|HOST:PORT|HOST[:SLOTS],… (also -host)");
    app.add_option("--hostfile", o.hostfile, "file with one daemon per line: NAME [slots=N] (also -hostfile)");
    // One value per -x: a vector option would otherwise swallow the program
    // that follows it as a second value.
    app.add_option("-x", o.exports, "export VAR (its value here) or VAR=value to every rank (repeatable)")
        ->allow_extra_args(false);
    app.add_flag("--tag-output", o.tag_output, "prefix each output line with [job,rank]<stdout|stderr>:");
    app.add_option("--timeout", o.timeout_s, "kill the job after S seconds (exit status 124)")->check(CLI::PositiveNumber);
    app.add_flag("--oversubscribe", o.oversubscribe, "allow more ranks than slots");
    app.add_option("--wdir", o.wdir, "working directory of the ranks (default: this one)");
    app.add_option("--hcore", o.hcore, "HOST:PORT of a daemon of the VM (env HARNESS_HCORE)");
    app.add_option("--root", o.root, "HARNESS root whose local daemon to use (env HARNESS_ROOT, default ~/.harness)");
    app.add_option("--key", o.key, "VM key file (env HARNESS_KEY, default <root>/vm.key)");
    app.add_option("--comm-mode", o.comm_mode,
                   "what a failure does to communicators: ulfm (default), abort, blank, shrink, rebuild, "
                   "rebuild-append (FTMPI_COMM_MODE)");
    app.add_option("--msg-mode", o.msg_mode, "messages after a failure: cont (default) or nop (FTMPI_MSG_MODE)");
    app.add_flag("--strict-collectives", o.strict_collectives,
                 "collectives agree on success at their end: right result everywhere or error everywhere "
                 "(FTMPI_COLL_STRICT=1)");
    app.add_flag("--ordered-notifier", o.ordered_notifier,
                 "every rank sees failures in the same order (FTMPI_NOTIFIER=ordered)");
    // Everything from the first argument that is not an option on is the
    // program and its own arguments, left unparsed.
    app.prefix_command();
    auto args = normalized_args(argc, argv);
    std::reverse(args.begin(), args.end());
    try {
        app.parse(args);
    } catch (const CLI::ParseError &e) {
        int code = app.exit(e);
        return code == 0 ? 0 : 1;
    }
    // prefix_command leaves the program's own arguments unparsed.
    for (const auto &rest : app.remaining()) o.program.push_back(rest);
    return run(o);
}
