// chaos_soak — the project's fault-injection soak, run as a benchmark.
//
//   chaos_soak [--trials N] [--seed S] [--kinds LIST] [--daemons N] [--timeout S]
//              [--drd-ops N] [--keep-logs DIR] …   (--help for all)
//
// Starts a VM of 3–5 hcored daemons with every VM service, each in a network
// namespace of its own when run as root (else on loopback, saying so), then
// 1. runs N trials of a checked FT-MPI job (chaos_job.c), each with one
//    fault injected at a random moment, and prints the outcomes per fault;
// 2. runs the DRD register workload under leader kills and partitions and
//    checks its history for linearizability.
// Exits 0 only when every trial ended as its comm mode says it should and
// the history is linearizable. README.md explains the classes.
#include "linearizability.hpp"
#include "options.hpp"
#include "register_workload.hpp"
#include "trial.hpp"

#include <cstdio>
#include <map>

using namespace harness;
using namespace harness::chaos;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// Copies a trial's files and every daemon's log for diagnosis.
void keep_logs(ChaosVm &vm, const fs::path &trial, const fs::path &to) {
    std::error_code ec;
    fs::create_directories(to, ec);
    fs::copy(trial, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
    for (int d = 0; d < vm.size(); ++d)
        fs::copy_file(vm.daemon(d).stderr_file(), to / ("hcored" + std::to_string(d) + ".stderr"),
                      fs::copy_options::overwrite_existing, ec);
}

void print_table(const std::vector<Fault> &faults, const std::map<Fault, std::map<Outcome, int>> &counts) {
    std::printf("\n| fault          |");
    for (Outcome o : kAllOutcomes) std::printf(" %s |", std::string(name(o)).c_str());
    std::printf("\n|----------------|");
    for (Outcome o : kAllOutcomes) std::printf("%s|", std::string(name(o).size() + 2, '-').c_str());
    std::printf("\n");
    for (Fault f : faults) {
        std::printf("| %-14s |", std::string(name(f)).c_str());
        for (Outcome o : kAllOutcomes) {
            auto it = counts.find(f);
            int n = it == counts.end() || !it->second.count(o) ? 0 : it->second.at(o);
            std::printf(" %*d |", static_cast<int>(name(o).size()), n);
        }
        std::printf("\n");
    }
}

// Runs the trials; returns the number that did not end as expected (or -1
// when the VM could not be restored between trials).
int run_trials(ChaosVm &vm, const Options &o, const fs::path &work, std::mt19937_64 &rng) {
    JobShape shape;
    shape.ftmpirun = o.ftmpirun;
    shape.program = o.program;
    shape.steps = o.steps;
    shape.step_ms = o.step_ms;
    shape.timeout = std::chrono::seconds(o.timeout_s);
    std::map<Fault, std::map<Outcome, int>> counts;
    std::map<Outcome, int> totals;
    int unexpected = 0;
    bool vm_lost = false;
    const auto t0 = Clock::now();
    for (int t = 0; t < o.trials; ++t) {
        const Fault fault = o.faults[static_cast<std::size_t>(t) % o.faults.size()];
        const std::string &mode = o.modes[(static_cast<std::size_t>(t) / o.faults.size()) % o.modes.size()];
        const fs::path dir = work / "trials" / std::to_string(t);
        TrialResult r = run_trial(vm, shape, fault, mode, rng, dir);
        ++counts[fault][r.outcome];
        ++totals[r.outcome];
        std::printf("trial %3d/%d %-13s %-6s %-12s %5.1f s  status %3d  %s%s\n", t + 1, o.trials,
                    std::string(name(fault)).c_str(), mode.c_str(), std::string(name(r.outcome)).c_str(), r.seconds,
                    r.status, r.expected ? "" : "[UNEXPECTED] ", r.note.c_str());
        std::fflush(stdout);
        if (!r.expected) {
            ++unexpected;
            if (!o.keep_logs.empty())
                keep_logs(vm, dir,
                          o.keep_logs /
                              ("trial-" + std::to_string(t + 1) + "-" + std::string(name(fault)) + "-" + mode));
        }
        std::error_code ec;
        fs::remove_all(dir, ec);
        std::string why;
        if (!vm.restore(45s, &why)) {
            std::printf("the VM is not healthy after trial %d (%s): stopping\n", t + 1, why.c_str());
            vm_lost = true;
            break;
        }
    }
    print_table(o.faults, counts);
    std::printf("\n%d trials in %.0f s (%s, %d daemons, modes", o.trials, seconds_since(t0),
                vm.on_netns() ? "network namespaces" : "loopback", vm.size());
    for (const auto &m : o.modes) std::printf(" %s", m.c_str());
    std::printf("):");
    for (Outcome oc : kAllOutcomes)
        std::printf(" %d %s%s", totals[oc], std::string(name(oc)).c_str(), oc == Outcome::orphans ? "" : ",");
    std::printf("; %d not as expected\n", unexpected);
    return vm_lost ? -1 : unexpected;
}

// Runs the register workload and checks it; true when linearizable.
bool run_registers(ChaosVm &vm, const Options &o, std::mt19937_64 &rng) {
    RegisterOptions ro;
    ro.ops = o.drd_ops;
    ro.clients_per_daemon = o.drd_clients_per_daemon;
    RegisterRun run = run_register_workload(vm, ro, rng);
    std::map<OpKind, int> kinds;
    int indeterminate = 0;
    for (const auto &op : run.history) {
        ++kinds[op.kind];
        indeterminate += op.indeterminate;
    }
    std::printf("\nDRD register workload: %zu operations (%d put, %d get, %d cas; %d indeterminate) by %d clients "
                "on %d daemons in %.1f s; %d leader kills, %d partitions\n",
                run.history.size(), kinds[OpKind::put], kinds[OpKind::get], kinds[OpKind::cas], indeterminate,
                vm.size() * ro.clients_per_daemon, vm.size(), run.seconds, run.leader_kills, run.partitions);
    std::printf("faults: %s\n", run.faults.c_str());
    const auto t0 = Clock::now();
    Verdict v = check_history(run.history, 120s);
    std::printf("linearizability check: %s in %.3f s (",
                v.gave_up            ? "NO VERDICT (search budget passed)"
                    : v.linearizable ? "linearizable"
                                     : "NOT LINEARIZABLE",
                seconds_since(t0));
    for (const auto &k : v.keys)
        std::printf(" %s: %zu ops%s", k.key.c_str(), k.ops, k.linearizable ? "" : " VIOLATION");
    std::printf(" )\n");
    for (const auto &k : v.keys) {
        if (k.linearizable) continue;
        std::printf("\nkey %s: the shortest non-linearizable prefix ends with\n  %s\nwindow:\n", k.key.c_str(),
                    describe(k.witness).c_str());
        for (const auto &op : k.window) std::printf("  %s\n", describe(op).c_str());
    }
    if ((!v.linearizable || v.gave_up) && !o.keep_logs.empty()) {
        std::error_code ec;
        fs::create_directories(o.keep_logs, ec);
        if (FILE *f = std::fopen((o.keep_logs / "drd-history.txt").c_str(), "w")) {
            for (const auto &op : run.history) std::fprintf(f, "%s\n", describe(op).c_str());
            std::fclose(f);
        }
    }
    return v.linearizable && !v.gave_up;
}

}  // namespace

int main(int argc, char **argv) {
    Options o;
    o.ftmpirun = FTMPIRUN_PATH;
    o.program = CHAOS_JOB_PATH;
    if (auto stop = parse_options(argc, argv, &o)) return *stop;
    std::string why;
    bool use_netns = o.netns && netns::available(&why);
    if (!use_netns) {
        std::printf("chaos_soak: daemons on loopback (%s): no link cuts, no partitions\n",
                    o.netns ? why.c_str() : "--no-netns");
        std::erase(o.faults, Fault::link_cut);
        if (o.faults.empty()) o.faults.push_back(Fault::rank_kill);
    }
    try {
        test::TempDir work("chaos-soak");
        std::mt19937_64 rng(o.seed);
        const auto t0 = Clock::now();
        ChaosVm vm(o.daemons, use_netns, work.path() / "vm");
        std::printf("chaos_soak: VM of %d daemons on %s up in %.1f s; seed %llu\n", vm.size(),
                    use_netns ? "network namespaces" : "loopback", seconds_since(t0),
                    static_cast<unsigned long long>(o.seed));
        std::fflush(stdout);
        int status = 0;
        if (o.trials > 0 && run_trials(vm, o, work.path(), rng) != 0) status = 1;
        if (o.drd_ops > 0 && !run_registers(vm, o, rng)) status = 1;
        std::printf("\nchaos_soak: %s in %.0f s\n", status ? "FAILED" : "passed", seconds_since(t0));
        return status;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "chaos_soak: %s\n", e.what());
        return 1;
    }
}
