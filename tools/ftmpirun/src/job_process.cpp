// job_process.cpp — following one process of a job (job_process.hpp).
#include "job_process.hpp"

#include <cerrno>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace harness::ftmpirun {

namespace {
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using spawn_client::SpawnClient;
constexpr std::chrono::milliseconds kSpawnConnectTimeout{5000};
constexpr std::chrono::milliseconds kLongPoll{5000};
}  // namespace

void ConnectionStop::stop() {
    std::lock_guard lock(mutex_);
    stopped_ = true;
    if (fd_ >= 0) ::shutdown(fd_, SHUT_RDWR);
}

bool ConnectionStop::stopped() const {
    std::lock_guard lock(mutex_);
    return stopped_;
}

bool ConnectionStop::attach(int fd) {
    std::lock_guard lock(mutex_);
    if (stopped_) return false;
    fd_ = fd;
    return true;
}

void ConnectionStop::detach() {
    std::lock_guard lock(mutex_);
    fd_ = -1;
}

Result<SpawnClient> open_client(const Endpoint &tcp, const VmKey &key) {
    spawn_client::Address a;
    a.tcp = tcp;
    return SpawnClient::open(a, key, kSpawnConnectTimeout);
}

// Runs a helper command on a daemon to its end (mkdir/rm of the wire-up
// directory); returns its exit code, or why it could not run.
Result<int> run_helper(SpawnClient &c, const std::vector<std::string> &argv) {
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

// Follows one process's output to its end, then reports how it ended.
void follow_process(std::size_t index, Process p, const VmKey &key, Printer &printer, Inbox &inbox) {
    RankExit exit;
    exit.rank = p.rank;
    exit.incarnation = p.incarnation;
    auto lost = [&](const Error &e) {
        exit.lost = true;
        exit.why =
            "its daemon " + p.place.member_id + " (" + p.place.tcp.to_string() + ") stopped answering: " + e.describe();
        inbox.post({Event::Kind::process_end, index, exit, 0, {}, {}, {}});
    };
    ConnectionStop &stop = *p.following;
    auto c = open_client(p.place.tcp, key);
    if (!c) return stop.stopped() ? void() : lost(c.error());
    if (!stop.attach(c->fd())) return;
    ConnectionStop::DetachOnExit detach_before_close{stop};
    // A failed request after stop() is the stop's doing, not the daemon's.
    auto failed = [&](const Error &e) { return stop.stopped() ? void() : lost(e); };
    const std::string label = p.label();
    std::int64_t after = 0;
    for (;;) {
        auto o = c->output(p.handle, after, kLongPoll);
        if (!o) return failed(o.error());
        for (const auto &l : o->lines) printer.line(label, l.stream, l.text);
        after = o->next_line;
        if (o->finished) break;
    }
    auto st = c->status(p.handle);
    if (!st) return failed(st.error());
    exit.exit_code = st->exit_code;
    exit.signal = st->signal;
    exit.mpi_state = st->mpi_state;
    inbox.post({Event::Kind::process_end, index, exit, 0, {}, {}, {}});
}

// Copies our stdin to rank 0 until EOF, or until told to stop (job_process.hpp).
void forward_stdin(const RankPlace &where, std::int64_t handle, const VmKey &key, int wake_fd,
                   const std::atomic<bool> &stop, ConnectionStop &connection) {
    auto c = open_client(where.tcp, key);
    if (!c || !connection.attach(c->fd())) return;
    ConnectionStop::DetachOnExit detach_before_close{connection};
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
            if (!taken) return;  // rank 0 ended or closed its stdin
            rest = rest.subspan(static_cast<std::size_t>(*taken));
        }
    }
}

}  // namespace harness::ftmpirun
