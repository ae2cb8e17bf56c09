#include "job.hpp"

#include <harness/crypto.hpp>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <poll.h>
#include <pthread.h>
#include <thread>
#include <unistd.h>

namespace harness::ftmpirun {

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using spawn_client::SpawnClient;

constexpr std::chrono::milliseconds kConnectTimeout{5000};
constexpr std::chrono::milliseconds kLongPoll{5000};
constexpr std::chrono::milliseconds kStopGrace{5000};

// Whole lines to our stdout/stderr, one write each, so ranks never mix inside
// a line.
class Printer {
public:
    Printer(std::int64_t job, bool tag) : job_(job), tag_(tag) {}

    void line(int rank, int stream, const std::string &text)
    {
        std::string out;
        if (tag_) out = "[" + std::to_string(job_) + "," + std::to_string(rank) + "]" + (stream == 2 ? "<stderr>:" : "<stdout>:");
        out += text;
        out += '\n';
        write_all(stream == 2 ? 2 : 1, out);
    }
    void note(const std::string &text) { write_all(2, "ftmpirun: " + text + "\n"); }

private:
    void write_all(int fd, const std::string &s)
    {
        std::lock_guard lock(mutex_);
        std::size_t done = 0;
        while (done < s.size()) {
            ssize_t n = ::write(fd, s.data() + done, s.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return; // our reader went away; the job still runs to its end
            done += static_cast<std::size_t>(n);
        }
    }
    std::int64_t job_;
    bool tag_;
    std::mutex mutex_;
};

// What the controller waits for.
struct Event {
    enum class Kind { rank_exit, signal } kind = Kind::rank_exit;
    RankExit exit;
    int sig = 0;
};

class Inbox {
public:
    void post(Event e)
    {
        std::lock_guard lock(mutex_);
        events_.push_back(std::move(e));
        changed_.notify_one();
    }
    // The next event, or nothing once deadline passes.
    std::optional<Event> next(std::optional<Clock::time_point> deadline)
    {
        std::unique_lock lock(mutex_);
        auto ready = [&] { return !events_.empty(); };
        if (deadline) {
            if (!changed_.wait_until(lock, *deadline, ready)) return std::nullopt;
        } else {
            changed_.wait(lock, ready);
        }
        Event e = std::move(events_.front());
        events_.pop_front();
        return e;
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Event> events_;
};

Result<SpawnClient> open_client(const RankPlace &where, const VmKey &key)
{
    spawn_client::Address a;
    a.tcp = where.tcp;
    return SpawnClient::open(a, key, kConnectTimeout);
}

// Runs a helper command on a daemon to its end (mkdir/rm of the wire-up
// directory); returns its exit code, or why it could not run.
Result<int> run_helper(SpawnClient &c, const std::vector<std::string> &argv)
{
    auto s = c.spawn({argv, {}, "/", "ftmpirun-helper", ""});
    if (!s) return s.error();
    std::int64_t after = 0;
    std::string err;
    auto deadline = Clock::now() + 30s;
    for (;;) {
        if (Clock::now() > deadline) return make_error(HARNESS_ERR_TIMEOUT, argv[0] + " did not finish in 30 s");
        auto o = c.output(s->handle, after, kLongPoll);
        if (!o) return o.error();
        for (const auto &l : o->lines) err += l.text + "\n";
        after = o->next_line;
        if (o->finished) break;
    }
    auto st = c.status(s->handle);
    if (!st) return st.error();
    if (st->exit_code != 0) return make_error(HARNESS_ERR_PLUGIN_FAILED, argv[0] + " failed: " + err);
    return 0;
}

// Follows one rank's output to its end, then reports how it ended.
void follow_rank(int rank, const RankPlace &where, std::int64_t handle, const VmKey &key, Printer &printer,
                 Inbox &inbox)
{
    RankExit exit;
    exit.rank = rank;
    auto lost = [&](const Error &e) {
        exit.lost = true;
        exit.why = "its daemon " + where.member_id + " (" + where.tcp.to_string() + ") stopped answering: " + e.describe();
        inbox.post({Event::Kind::rank_exit, exit, 0});
    };
    auto c = open_client(where, key);
    if (!c) return lost(c.error());
    std::int64_t after = 0;
    for (;;) {
        auto o = c->output(handle, after, kLongPoll);
        if (!o) return lost(o.error());
        for (const auto &l : o->lines) printer.line(rank, l.stream, l.text);
        after = o->next_line;
        if (o->finished) break;
    }
    auto st = c->status(handle);
    if (!st) return lost(st.error());
    exit.exit_code = st->exit_code;
    exit.signal = st->signal;
    inbox.post({Event::Kind::rank_exit, exit, 0});
}

// Copies our stdin to rank 0 until EOF, or until told to stop (wake_fd).
void forward_stdin(const RankPlace &where, std::int64_t handle, const VmKey &key, int wake_fd,
                   const std::atomic<bool> &stop)
{
    auto c = open_client(where, key);
    if (!c) return;
    std::vector<std::uint8_t> buf(65536);
    for (;;) {
        pollfd p[2] = {{0, POLLIN, 0}, {wake_fd, POLLIN, 0}};
        if (::poll(p, 2, -1) < 0) {
            if (errno == EINTR) continue;
            return;
        }
        if (p[1].revents || stop) return;
        ssize_t n = (p[0].revents & POLLNVAL) ? 0 : ::read(0, buf.data(), buf.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            (void)c->write_stdin(handle, {}, true, 0ms);
            return;
        }
        std::span<const std::uint8_t> rest(buf.data(), static_cast<std::size_t>(n));
        while (!rest.empty() && !stop) {
            auto taken = c->write_stdin(handle, rest, false, kLongPoll);
            if (!taken) return; // rank 0 ended or closed its stdin
            rest = rest.subspan(static_cast<std::size_t>(*taken));
        }
    }
}

} // namespace

int run_job(const JobSpec &spec)
{
    const int np = static_cast<int>(spec.ranks.size());
    Printer printer(spec.job_id, spec.tag_output);
    ::signal(SIGPIPE, SIG_IGN);
    // The signals we forward are taken by one thread with sigwait; block them
    // everywhere before any thread starts.
    sigset_t forwarded;
    sigemptyset(&forwarded);
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGUSR1}) sigaddset(&forwarded, s);
    pthread_sigmask(SIG_BLOCK, &forwarded, nullptr);

    // One controller connection per daemon.
    std::map<std::string, SpawnClient> control;
    for (const auto &r : spec.ranks) {
        if (control.count(r.member_id)) continue;
        auto c = open_client(r, spec.key);
        if (!c) {
            printer.note("cannot reach daemon " + r.member_id + " at " + r.tcp.to_string() + ": " + c.error().describe());
            return 1;
        }
        control.emplace(r.member_id, std::move(c).value());
    }

    // Wire-up: a directory on the one host, or the DRD across hosts.
    std::string wireup = "drd:";
    std::string wireup_dir;
    SpawnClient *dir_host = nullptr;
    if (control.size() == 1) {
        std::array<std::uint8_t, 6> rnd{};
        random_bytes(rnd);
        wireup_dir = "/tmp/ftmpi-job" + std::to_string(spec.job_id) + "-" + to_hex(rnd);
        dir_host = &control.begin()->second;
        auto made = run_helper(*dir_host, {"mkdir", "-m", "700", wireup_dir});
        if (!made) {
            printer.note("cannot create the wire-up directory " + wireup_dir + " on daemon " + spec.ranks[0].member_id +
                         ": " + made.error().describe());
            return 1;
        }
        wireup = "dir:" + wireup_dir;
    }
    auto cleanup = [&] {
        if (dir_host) (void)run_helper(*dir_host, {"rm", "-rf", wireup_dir});
    };

    // Start every rank.
    std::vector<std::int64_t> handles(static_cast<std::size_t>(np), 0);
    std::vector<bool> exited(static_cast<std::size_t>(np), false);
    auto kill_all = [&](int sig) {
        for (int r = 0; r < np; ++r)
            if (handles[r] && !exited[r]) (void)control.at(spec.ranks[r].member_id).signal(handles[r], sig, true);
    };
    for (int r = 0; r < np; ++r) {
        spawn_client::SpawnSpec s;
        s.argv = spec.argv;
        s.env = spec.env;
        s.env.push_back("FTMPI_JOB=" + std::to_string(spec.job_id));
        s.env.push_back("FTMPI_RANK=" + std::to_string(r));
        s.env.push_back("FTMPI_SIZE=" + std::to_string(np));
        s.env.push_back("FTMPI_WIREUP=" + wireup);
        for (auto &kv : ft_environment(spec.ft)) s.env.push_back(std::move(kv));
        s.cwd = spec.cwd;
        s.tag = std::to_string(r);
        s.notify_topic = "job/" + std::to_string(spec.job_id);
        SpawnClient &c = control.at(spec.ranks[r].member_id);
        auto started = c.spawn(s);
        if (!started) {
            printer.note("cannot start rank " + std::to_string(r) + " on daemon " + spec.ranks[r].member_id + ": " +
                         started.error().message);
            kill_all(SIGKILL);
            // Reap what we started: each one's end is reported before we go.
            for (int k = 0; k < r; ++k) {
                auto deadline = Clock::now() + 10s;
                std::int64_t after = 0;
                SpawnClient &ck = control.at(spec.ranks[k].member_id);
                while (Clock::now() < deadline) {
                    auto st = ck.status(handles[k]);
                    if (!st || st->state != "running") break;
                    auto w = ck.wait(after, 1s);
                    if (!w) break;
                    after = w->next_event;
                }
            }
            cleanup();
            return started.error().status == HARNESS_ERR_NOT_FOUND ? 127 : 1;
        }
        handles[r] = started->handle;
        // Only rank 0 reads our stdin; the others see EOF at once.
        if (r != 0 || !spec.forward_stdin) (void)c.write_stdin(started->handle, {}, true, 0ms);
    }

    // Followers, stdin, signals.
    Inbox inbox;
    std::vector<std::thread> followers;
    for (int r = 0; r < np; ++r)
        followers.emplace_back([&, r] { follow_rank(r, spec.ranks[r], handles[r], spec.key, printer, inbox); });
    int wake[2] = {-1, -1};
    std::atomic<bool> stop_stdin{false};
    std::thread stdin_thread;
    if (spec.forward_stdin && ::pipe2(wake, O_CLOEXEC) == 0)
        stdin_thread = std::thread([&] { forward_stdin(spec.ranks[0], handles[0], spec.key, wake[0], stop_stdin); });
    std::thread signal_thread([&] {
        for (;;) {
            int sig = 0;
            if (sigwait(&forwarded, &sig) != 0 || sig == SIGUSR1) return;
            inbox.post({Event::Kind::signal, {}, sig});
        }
    });

    // The controller.
    std::optional<Clock::time_point> deadline;
    if (spec.timeout) deadline = Clock::now() + *spec.timeout;
    // After a forwarded signal the ranks get this long to end on their own.
    std::optional<Clock::time_point> grace_end;
    JobOutcome outcome(spec.job_id, np, spec.ft.comm_mode);
    bool aborting = false, timed_out = false;
    int signals = 0;
    for (int live = np; live > 0;) {
        std::optional<Clock::time_point> until = timed_out ? std::nullopt : deadline;
        if (grace_end && (!until || *grace_end < *until)) until = grace_end;
        auto ev = inbox.next(until);
        if (!ev) {
            if (grace_end && Clock::now() >= *grace_end) {
                grace_end.reset();
                printer.note("ranks still running " + std::to_string(kStopGrace.count() / 1000) +
                             " s after the signal; killing them");
                kill_all(SIGKILL);
                continue;
            }
            timed_out = true;
            printer.note("job " + std::to_string(spec.job_id) + " timed out after " +
                         std::to_string(spec.timeout->count() / 1000.0).substr(0, 6) + " s; killing its ranks");
            kill_all(SIGKILL);
            continue;
        }
        if (ev->kind == Event::Kind::signal) {
            // The first SIGINT/SIGTERM/SIGHUP goes to every rank as it is (they
            // may clean up); a second one, or the grace running out, kills them.
            ++signals;
            kill_all(signals == 1 ? ev->sig : SIGKILL);
            if (signals == 1) grace_end = Clock::now() + kStopGrace;
            else grace_end.reset();
            continue;
        }
        const RankExit &x = ev->exit;
        exited[x.rank] = true;
        --live;
        // A job already being stopped (timeout, user signal, earlier abort)
        // is not aborted again: its ranks are ending anyway.
        bool stopping = aborting || timed_out || signals > 0;
        OnRankExit what = outcome.record(x);
        if (what == OnRankExit::abort_job && !stopping) {
            aborting = true;
            printer.note(x.describe("daemon " + spec.ranks[x.rank].member_id) + "; aborting job " +
                         std::to_string(spec.job_id) + (live > 0 ? ", killing its other ranks" : ""));
            kill_all(SIGKILL);
        } else if (x.failed() && !stopping) {
            printer.note(x.describe("daemon " + spec.ranks[x.rank].member_id) + "; job " +
                         std::to_string(spec.job_id) + " continues (comm mode " + to_string(spec.ft.comm_mode) +
                         ")");
        }
    }

    for (auto &t : followers) t.join();
    if (stdin_thread.joinable()) {
        stop_stdin = true;
        char one = 1;
        [[maybe_unused]] ssize_t n = ::write(wake[1], &one, 1);
        stdin_thread.join();
    }
    for (int fd : wake)
        if (fd >= 0) ::close(fd);
    pthread_kill(signal_thread.native_handle(), SIGUSR1);
    signal_thread.join();
    cleanup();
    pthread_sigmask(SIG_UNBLOCK, &forwarded, nullptr);

    if (timed_out) return 124;
    if (spec.ft.comm_mode != CommMode::abort && !aborting && signals == 0) {
        std::string summary = outcome.summary();
        if (!summary.empty()) printer.note(summary);
    }
    return outcome.status();
}

} // namespace harness::ftmpirun
