// ftmpirun — run an FT-MPI job through the HARNESS virtual machine (also
// installed as mpirun and mpiexec; the options are in cli.cpp and README.md).
//
// It reaches the VM through --hcore (or $HARNESS_HCORE) or the local daemon of
// --root; with neither reachable it starts a private hcored for the job and
// stops it afterwards. The job id comes from vm/naming. Ranks are placed over
// the VM's daemons (hosts.hpp, mapping.hpp) and started through each daemon's
// vm/spawn_notify (job.cpp). Exit status: README.md.
#include "cli.hpp"
#include "grid_layout.hpp"
#include "hosts.hpp"
#include "job.hpp"
#include "mapping.hpp"
#include "private_daemon.hpp"

#include <harness/common/crypto.hpp>
#include <harness/common/pack.hpp>
#include <harness/hlib/hlib.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>
#include <variant>

namespace {

using namespace harness;
using namespace harness::ftmpirun;
using namespace std::chrono_literals;

int fail(const std::string &message, int status = 1) {
    std::cerr << "ftmpirun: " << message << "\n";
    return status;
}

// The job id from vm/naming; a random one (said on stderr) when naming is absent.
std::int64_t allocate_job_id(hlib::VirtualMachine &vm) {
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

// The policy of a job given --spares and/or --standby but no --ft-policy:
// a host that died slides (spares) or goes to a standby; a rank that died
// on a live host goes to a standby, else restarts there (RESTART's own
// fallback: elsewhere when that host is gone).
std::string implied_policy_text(bool spares, bool standbys) {
    if (!standbys) return policy::Policy::default_text("hybrid(all)");
    std::string text = R"({"detectors": [{"component": "physical", "protocol": ")";
    text += spares ? "MIGRATE" : "PROMOTE";
    text += R"("}, {"component": "process", "protocol": "PROMOTE"}],
               "protocols": {"PROMOTE": {"fallback": "restart"}})";
    if (spares) text += R"j(, "placement": {"component": "sliding", "method": "hybrid(all)"})j";
    return text + "}";
}

int run(const Options &o) {
    int np = 0;
    for (const auto &app : o.apps) np += app.np;
    if (!o.host_list.empty() && !o.hostfile.empty()) return fail("give --host or --hostfile, not both");
    if (!o.rankfile.empty() && (!o.host_list.empty() || !o.hostfile.empty()))
        return fail("give --rankfile or --host/--hostfile, not both");
    FtOptions ft;
    std::string mode_text = o.comm_mode.empty() ? "ulfm" : o.comm_mode;
    if (!o.with_ft.empty()) {
        std::string mapped = comm_mode_for_with_ft(o.with_ft);
        if (mapped.empty()) return fail("--with-ft " + o.with_ft + ": not a value (ulfm, mpi or no)");
        if (!o.comm_mode.empty() && o.comm_mode != mapped)
            return fail("--with-ft " + o.with_ft + " means --comm-mode " + mapped + ", not --comm-mode " + o.comm_mode);
        mode_text = mapped;
    }
    auto comm_mode = parse_comm_mode(mode_text);
    if (!comm_mode) return fail(comm_mode.error().message);
    auto msg_mode = parse_msg_mode(o.msg_mode);
    if (!msg_mode) return fail(msg_mode.error().message);
    ft.comm_mode = *comm_mode;
    ft.msg_mode = *msg_mode;
    ft.strict_collectives = o.strict_collectives;
    ft.ordered_notifier = o.ordered_notifier;
    const bool rebuilds = ft.comm_mode == CommMode::rebuild || ft.comm_mode == CommMode::rebuild_append;
    if (!rebuilds && (!o.spares.empty() || !o.ft_policy.empty() || o.standby > 0))
        return fail(std::string(!o.spares.empty()          ? "--spares"
                                    : !o.ft_policy.empty() ? "--ft-policy"
                                                           : "--standby") +
                    " needs --comm-mode rebuild or rebuild-append (only they start replacements)");
    if (!o.spares.empty() && o.grid.empty()) return fail("--spares needs --grid (the job's process grid, e.g. 4x4)");
    if (!o.grid.empty() && !o.rankfile.empty()) return fail("give --grid or --rankfile, not both");
    auto map_by = parse_map_by(o.map_by);
    if (!map_by) return fail(map_by.error().message);
    if (o.bind_to != "none" && o.bind_to != "core" && o.bind_to != "auto")
        return fail("--bind-to " + o.bind_to + ": not supported (auto, core or none)");
    if (o.output_buffering != "line" && o.output_buffering != "full" && o.output_buffering != "none")
        return fail("--output-buffering " + o.output_buffering + ": not a value (line, full or none)");
    static const char *const handlers[] = {"mpi_errors_are_fatal", "mpi_errors_abort", "mpi_errors_return"};
    if (!o.initial_errhandler.empty() &&
        std::find(std::begin(handlers), std::end(handlers), o.initial_errhandler) == std::end(handlers))
        return fail("--initial-errhandler " + o.initial_errhandler +
                    ": not a value (mpi_errors_are_fatal, mpi_errors_abort or mpi_errors_return)");
    std::vector<RankfileEntry> rankfile;
    if (!o.rankfile.empty()) {
        std::ifstream in(o.rankfile);
        if (!in) return fail("cannot read rankfile " + o.rankfile);
        std::stringstream text;
        text << in.rdbuf();
        auto parsed = parse_rankfile(text.str());
        if (!parsed) return fail(o.rankfile + ": " + parsed.error().message);
        rankfile = *parsed;
        std::vector<bool> placed(static_cast<std::size_t>(np), false);
        for (const auto &e : rankfile) {
            if (e.rank >= np)
                return fail(o.rankfile + ": rank " + std::to_string(e.rank) + " is not a rank of a job of " +
                            std::to_string(np));
            placed[static_cast<std::size_t>(e.rank)] = true;
        }
        for (int r = 0; r < np; ++r)
            if (!placed[static_cast<std::size_t>(r)])
                return fail(o.rankfile + ": rank " + std::to_string(r) + " is not placed");
    }
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
        if (connect.hcore)
            return fail("no VM at HARNESS_HCORE=" + connect.hcore->to_string() + ": " + vm.error().describe());
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
    std::vector<Host> hosts;
    std::vector<std::size_t> placement;
    if (!rankfile.empty()) {
        // Each rankfile host on its own (a HOST:PORT, a member id, a HOST with one daemon).
        placement.resize(static_cast<std::size_t>(np));
        for (const auto &e : rankfile) {
            auto one = select_hosts(views, {{e.host, 1}}, cores);
            if (!one) return fail(o.rankfile + ": " + one.error().message);
            const Host &h = one->front();
            auto it =
                std::find_if(hosts.begin(), hosts.end(), [&](const Host &x) { return x.member_id == h.member_id; });
            if (it == hosts.end()) it = hosts.insert(hosts.end(), h);
            placement[static_cast<std::size_t>(e.rank)] = static_cast<std::size_t>(it - hosts.begin());
        }
    } else {
        auto selected = select_hosts(views, entries, cores);
        if (!selected) return fail(selected.error().message);
        hosts = *selected;
        auto placed = place_ranks(hosts, np, o.oversubscribe, *map_by);
        if (!placed) return fail(placed.error().message);
        placement = *placed;
    }

    // A host grid: the ranks go on its working block, one per host.
    std::optional<GridLayout> grid;
    if (!o.grid.empty()) {
        auto g = make_grid_layout(o.grid, o.spares, hosts, np);
        if (!g) return fail(g.error().message);
        grid = std::move(*g);
        for (int r = 0; r < np; ++r)
            placement[static_cast<std::size_t>(r)] = static_cast<std::size_t>(
                grid->host_of_grid[static_cast<std::size_t>(grid->rank_grid[static_cast<std::size_t>(r)])]);
    }
    // The recovery policy, its plugins loaded and checked before anything starts.
    std::shared_ptr<Recovery> recovery;
    if (!o.ft_policy.empty() || !o.spares.empty() || o.standby > 0) {
        auto loaded = !o.ft_policy.empty()
            ? policy::Policy::from_file(o.ft_policy, connect)
            : policy::Policy::from_text(implied_policy_text(!o.spares.empty(), o.standby > 0),
                                        o.spares.empty() ? "the --standby policy" : "the --spares policy", connect);
        if (!loaded) return fail(loaded.error().message);
        std::unique_ptr<policy::Placement> placer;
        if ((*loaded)->names_placement()) {
            if (!grid) return fail("the policy's placement needs --grid (and usually --spares)");
            policy::Layout layout;
            layout.host_extents = grid->host_extents;
            layout.spares = grid->spares;
            layout.rank_extents = grid->rank_extents;
            layout.rank_host = grid->rank_grid;
            layout.failed_hosts = grid->missing();
            auto opened = (*loaded)->open_placement(layout);
            if (!opened) return fail(opened.error().message);
            placer = std::move(*opened);
        }
        std::cerr << "ftmpirun: recovery policy: " << (*loaded)->describe() << "\n";
        recovery = std::make_shared<Recovery>(std::move(*loaded), grid, std::move(placer));
    }

    JobSpec spec;
    spec.job_id = allocate_job_id(*vm);
    spec.recovery = recovery;
    spec.standbys = o.standby;
    spec.key = *key;
    spec.ft = ft;
    spec.tag_output = o.tag_output;
    spec.timestamp_output = o.timestamp_output;
    if (o.timeout_s > 0) spec.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(o.timeout_s * 1000));
    std::error_code ec;
    const std::string here = std::filesystem::current_path(ec).string();
    // The first context's -x and --wdir hold for every context; a later
    // context's add to (or override) them for its own ranks.
    std::vector<std::string> common_env;
    auto exports_of = [](const AppContext &app, std::vector<std::string> &env) {
        for (const auto &x : app.exports) {
            if (x.find('=') != std::string::npos)
                env.push_back(x);
            else if (const char *v = std::getenv(x.c_str()))
                env.push_back(x + "=" + v);
            else
                std::cerr << "ftmpirun: -x " << x << ": not set here, not exported\n";
        }
    };
    exports_of(o.apps.front(), common_env);
    common_env.push_back("FTMPI_OUTPUT_BUFFERING=" + o.output_buffering);
    // MPI_UNIVERSE_SIZE: how many processes the job's hosts have slots for
    // (what a program that spawns workers asks), at least the job's size,
    // unless the user said (--universe-size). Spawned processes inherit it.
    int slots = 0;
    for (const auto &h : hosts) slots += h.slots;
    const int universe = o.universe_size > 0 ? o.universe_size : std::max(slots, np);
    common_env.push_back("FTMPI_UNIVERSE_SIZE=" + std::to_string(universe));
    if (!o.initial_errhandler.empty()) common_env.push_back("FTMPI_INITIAL_ERRHANDLER=" + o.initial_errhandler);
    if (o.bind_to != "none") common_env.push_back("FTMPI_BIND=" + o.bind_to);
    for (std::size_t k = 0; k < o.apps.size(); ++k) {
        RankProgram program;
        program.argv = o.apps[k].program;
        program.env = common_env;
        if (k > 0) exports_of(o.apps[k], program.env);
        const std::string &wdir = o.apps[k].wdir.empty() ? o.apps.front().wdir : o.apps[k].wdir;
        program.cwd = wdir.empty() ? here : wdir;
        spec.programs.push_back(program);
        for (int i = 0; i < o.apps[k].np; ++i) spec.program_of_rank.push_back(k);
    }
    // Per rank: its index among the job's ranks on its daemon (what
    // --bind-to core binds by), and a rankfile's CPUs.
    std::map<std::size_t, int> on_host;
    spec.rank_env.resize(static_cast<std::size_t>(np));
    for (int r = 0; r < np; ++r) {
        auto &env = spec.rank_env[static_cast<std::size_t>(r)];
        std::size_t h = placement[static_cast<std::size_t>(r)];
        env.push_back("FTMPI_LOCAL_RANK=" + std::to_string(on_host[h]++));
    }
    for (int r = 0; r < np; ++r)
        spec.rank_env[static_cast<std::size_t>(r)].push_back(
            "FTMPI_LOCAL_SIZE=" + std::to_string(on_host[placement[static_cast<std::size_t>(r)]]));
    for (const auto &e : rankfile)
        spec.rank_env[static_cast<std::size_t>(e.rank)].push_back("FTMPI_BIND_CPUS=" + cpu_list_string(e.cpus));
    for (std::size_t where : placement) spec.ranks.push_back({hosts[where].member_id, hosts[where].tcp});
    for (const auto &h : hosts) {
        spec.hosts.push_back({h.member_id, h.tcp});
        spec.host_switch.push_back(h.switch_name);
    }
    // The VM-wide services through any alive daemon, ours first.
    for (const auto &m : *members)
        if (m.alive && m.id == vm->local_id()) spec.vm.push_back({m.id, m.tcp});
    for (const auto &m : *members)
        if (m.alive && m.id != vm->local_id()) spec.vm.push_back({m.id, m.tcp});
    int status = run_job(spec);
    if (private_daemon) private_daemon->stop();
    return status;
}

}  // namespace

int main(int argc, char **argv) {
    auto parsed = parse_command_line(argc, argv);
    if (auto *status = std::get_if<int>(&parsed)) return *status;
    return run(std::get<Options>(parsed));
}
