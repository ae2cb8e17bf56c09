// See rank_harness.hpp.
#include "rank_harness.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace shmtest {

namespace {

int remaining_ms(Clock::time_point deadline) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left < 0 ? 0 : static_cast<int>(left);
}

bool wait_byte(int fd, int timeout_ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    while (true) {
        pollfd p{fd, POLLIN, 0};
        int n = ::poll(&p, 1, remaining_ms(deadline));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        char c;
        return ::read(fd, &c, 1) == 1;
    }
}

std::atomic<int> job_counter{0};

}  // namespace

void expect(bool cond, const std::string &what) {
    if (!cond) throw std::runtime_error(what);
}

void fill(std::vector<char> &buf, uint64_t seed) {
    for (size_t i = 0; i < buf.size(); ++i) buf[i] = pattern(seed, i);
}

void expect_pattern(const char *data, size_t n, uint64_t seed, size_t offset, const std::string &what) {
    for (size_t i = 0; i < n; ++i)
        if (data[i] != pattern(seed, offset + i))
            throw std::runtime_error(what + ": byte " + std::to_string(offset + i) + " differs");
}

Rank::Rank(int rank, int size, std::vector<int> note_fds_read, std::vector<int> note_fds_write)
    : received(static_cast<size_t>(size)), rank_(rank), size_(size), read_fds_(std::move(note_fds_read)),
      write_fds_(std::move(note_fds_write)), arriving_(static_cast<size_t>(size)) {
    ops = ftmpi_comm_shm_ops();
    sink_.struct_size = sizeof sink_;
    sink_.ctx = this;
    sink_.on_header = &Rank::on_header;
    sink_.on_frame = &Rank::on_frame;
    sink_.on_sent = &Rank::on_sent;
    sink_.on_peer_lost = &Rank::on_peer_lost;
    sink_.on_joined = &Rank::on_joined;
}

Rank::~Rank() {
    close();
}

void Rank::open(const std::string &job, int incarnation, int round) {
    ftmpi_transport_open_args args{};
    args.struct_size = sizeof args;
    args.job = job.c_str();
    args.rank = rank_;
    args.size = size_;
    args.incarnation = incarnation;
    args.round = round;
    char err[256] = "";
    expect(ops->open(&args, &sink_, &t, err, sizeof err) == FTMPI_TRANSPORT_OK, std::string("open: ") + err);
}

void Rank::connect_all(int timeout_ms) {
    char mine_address[256];
    expect(ops->address(t, mine_address, sizeof mine_address) == FTMPI_TRANSPORT_OK, "address");
    // Every rank of these tests runs on this host: its address is ours.
    std::vector<const char *> addresses(static_cast<size_t>(size_), mine_address);
    std::vector<unsigned char> mine(static_cast<size_t>(size_), 1);
    mine[static_cast<size_t>(rank_)] = 0;
    char err[256] = "";
    expect(ops->connect(t, addresses.data(), mine.data(), timeout_ms, err, sizeof err) == FTMPI_TRANSPORT_OK,
           std::string("connect: ") + err);
}

std::string Rank::address_of(int incarnation, int round) {
    char mine_address[256];
    expect(ops->address(t, mine_address, sizeof mine_address) == FTMPI_TRANSPORT_OK, "address");
    std::string a = mine_address;
    return a.substr(0, a.find(':')) + ":" + std::to_string(incarnation) + ":" + std::to_string(round);
}

void Rank::close() {
    if (t) ops->close(t);
    t = nullptr;
}

void Rank::wait_until(const std::function<bool()> &done, int timeout_ms, const char *what) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    auto idle_since = Clock::now();
    while (true) {
        int n = ops->progress(t);
        if (done()) return;
        const auto now = Clock::now();
        if (now >= deadline) throw std::runtime_error(std::string("timed out: ") + what);
        if (n > 0) {
            idle_since = now;
            continue;
        }
        if (now - idle_since < spin) continue;  // spin a little, as the engine does
        idle_since = now;
        if (ops->prepare_wait(t)) continue;
        pollfd p{ops->wait_fd(t), POLLIN, 0};
        ::poll(&p, 1, remaining_ms(deadline));
    }
}

int Rank::send(int peer, ftmpi_frame f, const void *data, size_t len, unsigned flags, uint64_t token) {
    f.source = rank_;
    f.length = len;
    iovec iov{const_cast<void *>(data), len};
    int r = ops->send(t, peer, &f, &iov, len ? 1 : 0, flags, token);
    if (r == FTMPI_TRANSPORT_PENDING) pending_tokens.insert(token);
    return r;
}

int Rank::send_control(int peer, uint8_t kind) {
    ftmpi_frame f{};
    f.kind = kind;
    f.source = rank_;
    return ops->send(t, peer, &f, nullptr, 0, FTMPI_SEND_COPY, 0);
}

void Rank::goodbye(int timeout_ms) {
    for (int p = 0; p < size_; ++p)
        if (p != rank_) expect(send_control(p, FTMPI_FRAME_BYE) == FTMPI_TRANSPORT_OK, "bye");
    wait_until(
        [&] {
            for (int p = 0; p < size_; ++p)
                if (p != rank_ && !ops->bye_received(t, p)) return false;
            return ops->flushed(t) != 0;
        },
        timeout_ms, "byes and an empty queue");
    for (int p = 0; p < size_; ++p) expect(p == rank_ || !ops->connected(t, p), "connected after bye");
}

void Rank::note(int to) {
    char c = 1;
    expect(::write(write_fds_[static_cast<size_t>(to)], &c, 1) == 1, "note");
}

void Rank::await_note(int timeout_ms) {
    expect(wait_byte(read_fds_[static_cast<size_t>(rank_)], timeout_ms), "no note");
}

void Rank::on_header(void *ctx, int peer, const ftmpi_frame *f, ftmpi_landing *out) {
    auto *self = static_cast<Rank *>(ctx);
    if (self->header_hook) return self->header_hook(peer, *f, out);
    auto &buf = self->arriving_[static_cast<size_t>(peer)];
    buf.assign(f->length, 0);
    out->dst = buf.data();
    out->keep = f->length;
}

void Rank::on_frame(void *ctx, int peer, const ftmpi_frame *f, const ftmpi_landing *landing) {
    auto *self = static_cast<Rank *>(ctx);
    if (self->frame_hook) return self->frame_hook(peer, *f, *landing);
    Received r;
    r.frame = *f;
    if (ftmpi_frame_has_payload(f)) r.data = std::move(self->arriving_[static_cast<size_t>(peer)]);
    self->received[static_cast<size_t>(peer)].push_back(std::move(r));
}

void Rank::on_sent(void *ctx, uint64_t token) {
    auto *self = static_cast<Rank *>(ctx);
    if (self->pending_tokens.erase(token) != 1) {
        std::fprintf(stderr, "rank %d: on_sent(%llu) for no pending send\n", self->rank_,
                     static_cast<unsigned long long>(token));
        std::_Exit(3);
    }
    self->sent_tokens.push_back(token);
}

void Rank::on_peer_lost(void *ctx, int peer) {
    static_cast<Rank *>(ctx)->lost.push_back(peer);
}
void Rank::on_joined(void *ctx, int peer) {
    static_cast<Rank *>(ctx)->joined.push_back(peer);
}

void Parent::await_note_from(int rank, int timeout_ms) {
    if (!wait_byte(read_fds[static_cast<size_t>(rank)], timeout_ms))
        throw std::runtime_error("no note from rank " + std::to_string(rank));
}

void Parent::kill_rank(int rank) {
    const pid_t pid = pids[static_cast<size_t>(rank)];
    ::kill(pid, SIGKILL);
    siginfo_t info{};
    while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {}
}

void Parent::spawn(int rank, int incarnation, int round, std::function<void(Rank &)> body) {
    spawned.push_back(spawner(rank, incarnation, round, std::move(body)));
}

void Parent::note_rank(int rank) {
    char c = 1;
    if (::write(write_fds[static_cast<size_t>(rank)], &c, 1) != 1) throw std::runtime_error("note");
}

Outcome run_job(const JobSpec &spec) {
    Outcome out;
    out.job = "shmtest-" + std::to_string(::getpid()) + "-" + std::to_string(job_counter++);
    const int n = spec.ranks;
    // Pipe i carries notes to rank i; pipe n to the parent.
    std::vector<int> rd(static_cast<size_t>(n + 1)), wr(static_cast<size_t>(n + 1));
    for (int i = 0; i <= n; ++i) {
        int fds[2];
        if (::pipe(fds) != 0) throw std::runtime_error("pipe");
        rd[static_cast<size_t>(i)] = fds[0];
        wr[static_cast<size_t>(i)] = fds[1];
    }
    // Notes to the parent: one pipe per rank, so the parent knows who.
    std::vector<int> prd(static_cast<size_t>(n)), pwr(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        int fds[2];
        if (::pipe(fds) != 0) throw std::runtime_error("pipe");
        prd[static_cast<size_t>(i)] = fds[0];
        pwr[static_cast<size_t>(i)] = fds[1];
    }
    std::fflush(nullptr);
    Parent parent;
    parent.job = out.job;
    parent.read_fds = prd;
    parent.write_fds = wr;
    for (int r = 0; r < n; ++r) {
        pid_t pid = ::fork();
        if (pid < 0) throw std::runtime_error("fork");
        if (pid == 0) {
            int code = 0;
            {
                auto it = spec.env.find(r);
                if (it != spec.env.end())
                    for (auto &[k, v] : it->second) ::setenv(k.c_str(), v.c_str(), 1);
                std::vector<int> writes = wr;
                writes[static_cast<size_t>(n)] = pwr[static_cast<size_t>(r)];
                Rank rank(r, n, rd, writes);
                try {
                    rank.open(out.job);
                    rank.connect_all();
                    spec.body(rank);
                } catch (const std::exception &e) {
                    std::fprintf(stderr, "rank %d: %s\n", r, e.what());
                    code = 1;
                }
            }  // closes the driver
            std::fflush(nullptr);
            std::_Exit(code);
        }
        parent.pids.push_back(pid);
    }
    parent.spawner = [&](int r, int incarnation, int round, std::function<void(Rank &)> body) -> pid_t {
        std::fflush(nullptr);
        pid_t pid = ::fork();
        if (pid < 0) throw std::runtime_error("fork");
        if (pid > 0) return pid;
        int code = 0;
        {
            std::vector<int> writes = wr;
            writes[static_cast<size_t>(n)] = pwr[static_cast<size_t>(r)];
            Rank rank(r, n, rd, writes);
            try {
                rank.open(out.job, incarnation, round);
                body(rank);
            } catch (const std::exception &e) {
                std::fprintf(stderr, "rank %d (incarnation %d): %s\n", r, incarnation, e.what());
                code = 1;
            }
        }
        std::fflush(nullptr);
        std::_Exit(code);
    };
    std::string parent_error;
    if (spec.parent) {
        try {
            spec.parent(parent);
        } catch (const std::exception &e) {
            parent_error = e.what();
        }
    }
    const auto deadline = Clock::now() + std::chrono::milliseconds(spec.timeout_ms);
    out.status.assign(static_cast<size_t>(n), -1);
    out.spawned_status.assign(parent.spawned.size(), -1);
    int left = n + static_cast<int>(parent.spawned.size());
    while (left > 0) {
        int status = 0;
        pid_t pid = ::waitpid(-1, &status, WNOHANG);
        if (pid > 0) {
            for (int r = 0; r < n; ++r)
                if (parent.pids[static_cast<size_t>(r)] == pid) out.status[static_cast<size_t>(r)] = status;
            for (size_t i = 0; i < parent.spawned.size(); ++i)
                if (parent.spawned[i] == pid) out.spawned_status[i] = status;
            --left;
            continue;
        }
        if (Clock::now() >= deadline) {
            for (pid_t p : parent.pids) ::kill(p, SIGKILL);
            for (pid_t p : parent.spawned) ::kill(p, SIGKILL);
            while (::waitpid(-1, &status, 0) > 0) {}
            parent_error += " (ranks still running at the deadline were killed)";
            break;
        }
        ::usleep(2000);  // reaping children: nothing to wait on but their exit
    }
    for (int fd : rd) ::close(fd);
    for (int fd : wr) ::close(fd);
    for (int fd : prd) ::close(fd);
    for (int fd : pwr) ::close(fd);
    if (!parent_error.empty()) {
        for (int r = 0; r < n; ++r) remove_shm_files(out.job, r);
        throw std::runtime_error(parent_error);
    }
    return out;
}

std::vector<std::string> shm_files(const std::string &job, int rank) {
    std::vector<std::string> found;
    const std::string prefix = "ftmpi." + job + "." + (rank >= 0 ? std::to_string(rank) + "." : "");
    if (DIR *d = ::opendir("/dev/shm")) {
        while (dirent *e = ::readdir(d))
            if (std::strncmp(e->d_name, prefix.c_str(), prefix.size()) == 0) found.emplace_back(e->d_name);
        ::closedir(d);
    }
    return found;
}

void remove_shm_files(const std::string &job, int rank) {
    for (const std::string &name : shm_files(job, rank)) ::unlink(("/dev/shm/" + name).c_str());
}

}  // namespace shmtest
