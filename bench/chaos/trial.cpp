#include "trial.hpp"

#include "process.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <fstream>
#include <regex>
#include <set>
#include <thread>

namespace harness::chaos {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

class Trial {
public:
    Trial(ChaosVm &vm, const JobShape &shape, Fault fault, std::string mode, std::mt19937_64 &rng, fs::path dir)
        : vm_(vm), shape_(shape), fault_(fault), mode_(std::move(mode)), rng_(rng), dir_(std::move(dir)),
          ranks_(vm.size() + 1) {}

    TrialResult run();

private:
    int random_int(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    int random_rank() { return random_int(0, ranks_ - 1); }
    int other_rank(int not_this) {
        int r = random_int(0, ranks_ - 2);
        return r >= not_this ? r + 1 : r;
    }
    std::optional<pid_t> pid_of(int rank) const { return read_pid(dir_ / ("pre" + std::to_string(rank) + ".pid")); }
    double since_start_ms() const { return std::chrono::duration<double, std::milli>(Clock::now() - started_).count(); }
    bool job_running() { return !job_->poll(); }
    // Polls predicate while the job runs; false when it ended first or at the deadline.
    template <class Predicate>
    bool wait_for(Predicate predicate, std::chrono::milliseconds timeout) {
        const auto deadline = Clock::now() + timeout;
        while (Clock::now() < deadline && job_running()) {
            if (predicate()) return true;
            std::this_thread::sleep_for(5ms);
        }
        return false;
    }
    bool all_ranks_up() const {
        for (int r = 0; r < ranks_; ++r)
            if (!fs::exists(dir_ / ("rank" + std::to_string(r) + ".pid"))) return false;
        return true;
    }
    // The random moment of the fault: up to 60 % of the job's undisturbed run.
    void random_pause() {
        const int ms = random_int(0, shape_.steps * shape_.step_ms * 6 / 10);
        wait_for([] { return false; }, std::chrono::milliseconds(ms));
    }
    void signal_rank(int rank, int sig) {
        auto pid = pid_of(rank);
        if (pid) ::kill(*pid, sig);
        (sig == SIGSTOP ? stopped_ : killed_).insert(rank);
        note("+" + std::to_string(static_cast<int>(since_start_ms())) + " ms " +
             (sig == SIGSTOP ? "SIGSTOP" : "kill -9") + " rank " + std::to_string(rank));
    }
    void note(const std::string &text) { note_ += (note_.empty() ? "" : "; ") + text; }

    bool inject();
    void wait_for_processes();
    void check_signals(const std::string &err);

    ChaosVm &vm_;
    const JobShape &shape_;
    Fault fault_;
    std::string mode_;
    std::mt19937_64 &rng_;
    fs::path dir_;
    int ranks_;
    std::unique_ptr<Child> job_;
    Clock::time_point started_;
    std::set<int> killed_, stopped_, lost_, cut_daemons_;
    int expected_status_ = 0;
    bool orphans_ = false, crash_ = false;
    std::string note_;
};

bool Trial::inject() {
    if (fault_ == Fault::init_kill) {
        const int r = random_rank();
        if (!wait_for([&] { return pid_of(r).has_value(); }, 30s)) return false;
        wait_for([] { return false; }, std::chrono::milliseconds(random_int(0, 40)));
        const bool initialized = fs::exists(dir_ / ("rank" + std::to_string(r) + ".pid"));
        signal_rank(r, SIGKILL);
        note(initialized ? "(it had finished MPI_Init)" : "(during MPI_Init)");
        return true;
    }
    if (!wait_for([&] { return all_ranks_up(); }, 30s)) return false;
    random_pause();
    if (!job_running()) return false;
    switch (fault_) {
    case Fault::rank_kill: signal_rank(random_rank(), SIGKILL); break;
    case Fault::two_kills: {
        const int first = random_rank();
        signal_rank(first, SIGKILL);
        wait_for([] { return false; }, std::chrono::milliseconds(random_int(0, 300)));
        signal_rank(other_rank(first), SIGKILL);
        break;
    }
    case Fault::rank_stop: {
        // A stall, not a failure: FT-MPI is fail-stop, and a stopped process
        // keeps its connections and its daemon, so nothing declares it failed
        // (held for good, it stalls the job to the deadline). Resumed, the
        // job must finish as if nothing happened.
        const int r = random_rank();
        signal_rank(r, SIGSTOP);
        wait_for([] { return false; }, std::chrono::milliseconds(random_int(500, 2500)));
        if (auto pid = pid_of(r)) ::kill(*pid, SIGCONT);
        note("+" + std::to_string(static_cast<int>(since_start_ms())) + " ms SIGCONT");
        break;
    }
    case Fault::rank_exit: {
        const int r = random_rank();
        std::ofstream(dir_ / ("exit" + std::to_string(r))) << "1\n";
        expected_status_ = 1;  // ftmpirun ends with the first non-zero status of a rank that exited by itself
        note("+" + std::to_string(static_cast<int>(since_start_ms())) + " ms rank " + std::to_string(r) +
             " asked to exit(1)");
        break;
    }
    case Fault::daemon_kill:
    case Fault::link_cut: {
        const int d = random_int(1, vm_.size() - 1);
        lost_.insert(d + 1);
        if (fault_ == Fault::daemon_kill) {
            vm_.kill(d);
        } else {
            vm_.cut(d);
            cut_daemons_.insert(d);
        }
        note("+" + std::to_string(static_cast<int>(since_start_ms())) + " ms " +
             (fault_ == Fault::daemon_kill ? "kill -9 daemon " : "cut the link of daemon ") + std::to_string(d) +
             " (rank " + std::to_string(d + 1) + ")");
        break;
    }
    case Fault::recovery_kill: {
        const int first = random_rank();
        signal_rank(first, SIGKILL);
        if (!wait_for([&] { return contains(read_text(dir_ / "out"), "failure seen"); }, 20s)) {
            note("no survivor reported the failure");
            break;
        }
        signal_rank(other_rank(first), SIGKILL);
        break;
    }
    case Fault::init_kill: break;
    }
    return true;
}

// The job's processes and /dev/shm files must be gone soon after it ended;
// whatever is left is listed, then removed so the next trial starts clean.
void Trial::wait_for_processes() {
    std::vector<pid_t> pids;
    for (int r = 0; r < ranks_; ++r)
        if (auto pid = pid_of(r)) pids.push_back(*pid);
    const std::string job = read_text(dir_ / "job");
    const std::string shm_prefix = job.empty() ? "" : "ftmpi." + job + ".";
    // A rank whose daemon was killed leaves its files until that daemon
    // starts again (and removes what its predecessor's ranks made): all the
    // daemons of this VM share one /dev/shm, but each cleans only its own
    // ranks' files, as on separate hosts.
    auto cleaned_later = [&](const std::string &name) {
        if (fault_ != Fault::daemon_kill) return false;
        for (int r : lost_)
            if (name.rfind(shm_prefix + std::to_string(r) + ".", 0) == 0) return true;
        return false;
    };
    auto leftovers = [&] {
        std::vector<std::string> left;
        for (pid_t pid : pids)
            if (alive(pid)) left.push_back("pid " + std::to_string(pid));
        std::error_code ec;
        if (!shm_prefix.empty())
            for (const auto &e : fs::directory_iterator("/dev/shm", ec)) {
                const std::string name = e.path().filename().string();
                if (name.rfind(shm_prefix, 0) == 0 && !cleaned_later(name)) left.push_back(e.path().string());
            }
        return left;
    };
    std::vector<std::string> left;
    test::wait_until([&] { return (left = leftovers()).empty(); }, shape_.grace);
    if (left.empty()) return;
    orphans_ = true;
    std::string list;
    for (const auto &l : left) list += (list.empty() ? "" : ", ") + l;
    note("left behind " + std::to_string(static_cast<int>(shape_.grace.count())) + " ms after the job: " + list);
    for (pid_t pid : pids) {
        ::kill(pid, SIGKILL);
        ::kill(pid, SIGCONT);
    }
    std::error_code ec;
    if (!shm_prefix.empty())
        for (const auto &e : fs::directory_iterator("/dev/shm", ec))
            if (e.path().filename().string().rfind(shm_prefix, 0) == 0) fs::remove(e.path(), ec);
}

// A rank killed by a signal the soak did not send, or a daemon that died
// although the soak did not kill it.
void Trial::check_signals(const std::string &err) {
    static const std::regex killed(R"(rank (\d+)(\.\d+)? (\([^)]*\) )?was killed by (SIG[A-Z0-9]+))");
    for (auto it = std::sregex_iterator(err.begin(), err.end(), killed); it != std::sregex_iterator(); ++it) {
        const int rank = std::stoi((*it)[1]);
        const std::string sig = (*it)[4];
        // A stopped rank is fenced with SIGKILL by ftmpirun; a rank on a
        // killed or cut daemon may be killed with its host.
        if (killed_.count(rank) || ((stopped_.count(rank) || lost_.count(rank)) && sig == "SIGKILL")) continue;
        crash_ = true;
        note("rank " + std::to_string(rank) + " died of " + sig + ", which the soak did not send");
    }
    for (int d : vm_.unexpected_exits()) {
        crash_ = true;
        note("daemon " + std::to_string(d) + " exited although not killed: " + vm_.daemon(d).stderr_tail(600));
    }
}

TrialResult Trial::run() {
    fs::create_directories(dir_);
    std::vector<std::string> argv = vm_.on_host(0);
    // Ranks 0 and 1 run on daemon 0 (with ftmpirun), rank r > 1 on daemon r - 1.
    std::string hosts = vm_.address(0) + ":2";
    for (int d = 1; d < vm_.size(); ++d) hosts += "," + vm_.address(d) + ":1";
    argv.insert(argv.end(),
                {shape_.ftmpirun.string(), "--hcore", vm_.address(0), "--key", vm_.key().string(), "--host", hosts,
                 "--comm-mode", mode_});
    if (mode_ == "shrink") argv.push_back("--strict-collectives");
    argv.insert(argv.end(),
                {"--tag-output", "-x", "FTMPI_DAEMON_LOST_MS=2000", "-np", std::to_string(ranks_),
                 shape_.program.string(), dir_.string(), std::to_string(shape_.steps), std::to_string(shape_.step_ms)});
    started_ = Clock::now();
    job_ = std::make_unique<Child>(argv, dir_ / "out", dir_ / "err");
    if (!inject()) note("not injected: the job ended or did not start in time");

    TrialResult result;
    auto status = job_->wait_until(started_ + shape_.timeout);
    const bool hang = !status;
    if (hang) {
        note("no end after " + std::to_string(shape_.timeout.count()) + " s: ftmpirun killed");
        job_->kill_hard();
    } else {
        result.status = WIFEXITED(*status) ? WEXITSTATUS(*status) : 128 + WTERMSIG(*status);
    }
    result.seconds = std::chrono::duration<double>(Clock::now() - started_).count();
    for (int d : cut_daemons_) vm_.heal(d);  // so the cut side can learn the job's end

    const std::string out = read_text(dir_ / "out");
    const std::string err = read_text(dir_ / "err");
    wait_for_processes();
    check_signals(err);
    if (fault_ == Fault::rank_exit && !contains(out, "exiting with status 1")) {
        expected_status_ = 0;
        note("the rank finished before it saw the request");
    }
    const bool wrong = contains(out, "WRONG") || (result.status == 0 && !contains(out, ": correct"));
    const bool answered = contains(out, ": correct");
    if (wrong)
        result.outcome = Outcome::wrong_answer;
    else if (crash_)
        result.outcome = Outcome::crash;
    else if (hang)
        result.outcome = Outcome::hang;
    else if (orphans_)
        result.outcome = Outcome::orphans;
    else if (!answered || result.status != expected_status_)
        result.outcome = Outcome::aborted;
    if (result.outcome == Outcome::aborted || result.outcome == Outcome::wrong_answer)
        note("status " + std::to_string(result.status) + (answered ? ", answer correct" : ", no correct answer"));
    result.expected = result.outcome == expected_outcome(fault_, mode_);
    result.note = note_;
    return result;
}

}  // namespace

TrialResult run_trial(ChaosVm &vm, const JobShape &shape, Fault fault, const std::string &mode, std::mt19937_64 &rng,
                      const fs::path &dir) {
    return Trial(vm, shape, fault, mode, rng, dir).run();
}

}  // namespace harness::chaos
