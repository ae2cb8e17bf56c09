#include "job_cleanup.hpp"
#include "process.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

namespace harness::vm::spawn {

namespace {

// epoll keys: handle << 3 | what the descriptor is.
enum Kind : std::uint64_t { kWake = 0, kPidfd = 1, kStdout = 2, kStderr = 3, kStdin = 4, kLifecycle = 5 };
std::uint64_t key_of(std::int64_t handle, Kind kind) {
    return static_cast<std::uint64_t>(handle) << 3 | kind;
}

// Replies stay well under any message limit; callers loop.
constexpr std::size_t kMaxReplyBytes = 256u << 10;
constexpr std::size_t kMaxEventsPerReply = 4096;

Error not_found(std::int64_t handle) {
    return make_error(HARNESS_ERR_NOT_FOUND,
                      "no process with handle " + std::to_string(handle) +
                          " (never spawned by this daemon, or forgotten long after it ended)");
}

}  // namespace

ProcessTable::ProcessTable(Limits limits, ExitHook on_exit, std::filesystem::path shm_ledger)
    : limits_(limits), on_exit_(std::move(on_exit)), shm_ledger_(std::move(shm_ledger)) {
    epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
    wake_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (epoll_fd_ < 0 || wake_fd_ < 0) {
        std::string why = std::strerror(errno);
        if (epoll_fd_ >= 0) ::close(epoll_fd_);
        if (wake_fd_ >= 0) ::close(wake_fd_);
        throw std::runtime_error("spawn_notify: epoll/eventfd: " + why);
    }
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = key_of(0, kWake);
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev);
    monitor_ = std::thread([this] { monitor_loop(); });
}

ProcessTable::~ProcessTable() {
    shutdown();
    ::close(epoll_fd_);
    ::close(wake_fd_);
}

void ProcessTable::wake_monitor() {
    std::uint64_t one = 1;
    [[maybe_unused]] ssize_t n = ::write(wake_fd_, &one, sizeof one);
}

void ProcessTable::unwatch(int fd) {
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
}

std::shared_ptr<ProcessTable::Process> ProcessTable::find(std::int64_t handle) const {
    auto it = processes_.find(handle);
    return it == processes_.end() ? nullptr : it->second;
}

std::size_t ProcessTable::running() const {
    std::lock_guard lock(mutex_);
    return running_;
}

// ------------------------------------------------------------------ spawn

Result<Started> ProcessTable::spawn(const SpawnRequest &request, const std::vector<std::string> &extra_env) {
    if (auto ok = validate(request, limits_.max_args, limits_.max_request_bytes); !ok) return ok.error();
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return make_error(HARNESS_ERR_BUSY, "spawn: the daemon is stopping");
        if (running_ >= limits_.max_running)
            return make_error(HARNESS_ERR_BUSY,
                              "spawn: " + std::to_string(running_) +
                                  " processes already running here (the limit, "
                                  "HARNESS_SPAWN_MAX_PROCS)");
        ++running_;  // a slot, held while launching outside the lock
    }
    auto launched = launch(request, extra_env);

    Lock lock(mutex_);
    if (!launched) {
        --running_;
        return launched.error();
    }
    auto p = std::make_shared<Process>(limits_.max_output_bytes, limits_.max_line_bytes);
    p->handle = next_handle_++;
    p->pid = launched->pid;
    p->tag = request.tag;
    p->notify_topic = request.notify_topic;
    p->job = job_of(request.env);
    p->pidfd = launched->pidfd;
    p->lifecycle_fd = launched->lifecycle_fd;
    p->stdin_fd = launched->stdin_fd;
    p->out_fd[0] = launched->stdout_fd;
    p->out_fd[1] = launched->stderr_fd;

    bool watched = !stopping_;
    std::string why;
    const std::pair<int, Kind> watches[] = {
        {p->out_fd[0], kStdout}, {p->out_fd[1], kStderr}, {p->lifecycle_fd, kLifecycle}, {p->pidfd, kPidfd}};
    for (std::size_t i = 0; watched && i < std::size(watches); ++i) {
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.u64 = key_of(p->handle, watches[i].second);
        if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, watches[i].first, &ev) != 0) {
            why = std::string("spawn: epoll: ") + std::strerror(errno);
            watched = false;
        }
    }
    if (!watched) {
        // Stopping, or we could not watch it: a child nobody watches must not
        // outlive the request.
        for (const auto &w : watches) unwatch(w.first);
        ::kill(-p->pid, SIGKILL);
        ::waitpid(p->pid, nullptr, 0);
        for (int fd : {p->pidfd, p->stdin_fd, p->out_fd[0], p->out_fd[1], p->lifecycle_fd}) ::close(fd);
        --running_;
        return make_error(HARNESS_ERR_BUSY, why.empty() ? "spawn: the daemon is stopping" : why);
    }
    if (const std::string files = rank_files_name(request.env); !files.empty()) {
        job_files_[p->job].push_back(files);  // removed with the job's last process here
        ledger_add(shm_ledger_, files);
    }
    processes_[p->handle] = p;
    return Started{p->handle, p->pid};
}

// ------------------------------------------------------------------ monitor

void ProcessTable::monitor_loop() {
    epoll_event events[64];
    for (;;) {
        int timeout;
        {
            Lock lock(mutex_);
            if (stopping_) return;
            timeout = next_timeout_ms(lock);
        }
        int n = ::epoll_wait(epoll_fd_, events, 64, timeout);
        if (n < 0 && errno != EINTR) return;  // cannot happen with valid fds; shutdown still reaps
        Lock lock(mutex_);
        if (stopping_) return;
        for (int i = 0; i < n; ++i) dispatch(lock, events[i].data.u64, events[i].events);
        expire_drains(lock);
        changed_.notify_all();
    }
}

int ProcessTable::next_timeout_ms(const Lock &) const {
    std::optional<Clock::time_point> soonest;
    for (const auto &[h, p] : processes_)
        if (p->drain_deadline && (!soonest || *p->drain_deadline < *soonest)) soonest = p->drain_deadline;
    if (!soonest) return -1;
    auto left = std::chrono::ceil<std::chrono::milliseconds>(*soonest - Clock::now()).count();
    return static_cast<int>(std::clamp<long long>(left, 0, 60000));
}

void ProcessTable::dispatch(const Lock &lock, std::uint64_t key, std::uint32_t events) {
    auto kind = static_cast<Kind>(key & 7);
    if (kind == kWake) {
        std::uint64_t count;
        [[maybe_unused]] ssize_t r = ::read(wake_fd_, &count, sizeof count);
        return;
    }
    auto p = find(static_cast<std::int64_t>(key >> 3));
    if (!p) return;
    switch (kind) {
    case kStdout: read_stream(lock, *p, 1, false); break;
    case kStderr: read_stream(lock, *p, 2, false); break;
    case kStdin:
        if (events & (EPOLLERR | EPOLLHUP)) p->stdin_pending.clear();
        flush_stdin(lock, *p);
        break;
    case kLifecycle: read_lifecycle(lock, *p); break;
    case kPidfd: reap(lock, *p, true); break;
    default: break;
    }
}

void ProcessTable::read_stream(const Lock &lock, Process &p, int stream, bool until_empty) {
    int &fd = p.out_fd[stream - 1];
    char buf[65536];
    // One read per event keeps a chatty process from starving the others
    // (epoll is level-triggered, it comes back); at exit, read everything.
    for (int reads = 0; fd >= 0; ++reads) {
        // At exit, a bounded amount: a descendant may keep writing forever.
        if (reads == (until_empty ? 256 : 1)) return;
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n > 0) {
            p.log.feed(stream, std::string_view(buf, static_cast<std::size_t>(n)));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        // EOF (or a broken pipe, the same to us): the stream is complete.
        unwatch(fd);
        ::close(fd);
        fd = -1;
        p.log.close_stream(stream);
        maybe_finish(lock, p);
    }
}

void ProcessTable::flush_stdin(const Lock &lock, Process &p) {
    while (p.stdin_fd >= 0 && !p.stdin_pending.empty()) {
        ssize_t n = ::write(p.stdin_fd, p.stdin_pending.data(), p.stdin_pending.size());
        if (n > 0) {
            p.stdin_pending.erase(0, static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        // EPIPE: the child closed its stdin; what is left cannot be delivered.
        p.stdin_pending.clear();
        close_stdin(lock, p);
        return;
    }
    if (p.stdin_fd < 0) return;
    if (p.stdin_pending.empty()) {
        if (p.stdin_watched) unwatch(p.stdin_fd);
        p.stdin_watched = false;
        if (p.stdin_close_requested) close_stdin(lock, p);
    } else if (!p.stdin_watched) {
        epoll_event ev{};
        ev.events = EPOLLOUT;
        ev.data.u64 = key_of(p.handle, kStdin);
        p.stdin_watched = ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, p.stdin_fd, &ev) == 0;
    }
}

void ProcessTable::close_stdin(const Lock &, Process &p) {
    if (p.stdin_fd < 0) return;
    if (p.stdin_watched) unwatch(p.stdin_fd);
    p.stdin_watched = false;
    ::close(p.stdin_fd);
    p.stdin_fd = -1;
}

void ProcessTable::reap(const Lock &lock, Process &p, bool block) {
    if (p.exited) return;
    // Everything it wrote is in the pipes now: take it before announcing the
    // exit, so a reader that sees the exit and then reads output misses nothing.
    read_stream(lock, p, 1, true);
    read_stream(lock, p, 2, true);
    read_lifecycle(lock, p);
    // A process of an MPI job takes the helpers it started with it. It has
    // exited (a zombie until reaped below), so its pid still names its group.
    if (!p.job.empty() && block) ::kill(-p.pid, SIGKILL);
    int status = 0;
    pid_t r;
    do r = ::waitpid(p.pid, &status, block ? 0 : WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r == 0) return;  // not yet (non-blocking)
    record_exit(lock, p, status, r == p.pid);
}

void ProcessTable::record_exit(const Lock &lock, Process &p, int wait_status, bool reaped) {
    unwatch(p.pidfd);
    ::close(p.pidfd);
    p.pidfd = -1;
    p.exited = true;
    --running_;
    if (!reaped) {
        // Somebody else reaped our child (should not happen: hcored reaps only
        // the pids it watches). Say so rather than invent a status.
        p.exit_code = -1;
        p.signal = 0;
        p.log.note("[spawn_notify: the exit status was lost: another waiter reaped pid " + std::to_string(p.pid) + "]");
    } else if (WIFSIGNALED(wait_status)) {
        p.exit_code = -1;
        p.signal = WTERMSIG(wait_status);
    } else {
        p.exit_code = WEXITSTATUS(wait_status);
        p.signal = 0;
    }
    close_stdin(lock, p);
    p.stdin_pending.clear();
    // A descendant may hold the write end; the word that counts came before the exit.
    close_lifecycle(p);
    end_job_process(lock, p);

    exits_.push_back(ExitEvent{next_exit_seq_++, p.handle, p.tag, p.exit_code, p.signal});
    while (exits_.size() > limits_.max_exit_events) exits_.pop_front();
    if (on_exit_) on_exit_(ExitReport{p.handle, p.pid, p.tag, p.notify_topic, p.exit_code, p.signal, p.mpi_state});

    if (p.out_fd[0] >= 0 || p.out_fd[1] >= 0) p.drain_deadline = Clock::now() + limits_.exit_drain;
    maybe_finish(lock, p);
}

void ProcessTable::maybe_finish(const Lock &, Process &p) {
    if (p.finished || !p.exited || p.out_fd[0] >= 0 || p.out_fd[1] >= 0) return;
    p.finished = true;
    p.drain_deadline.reset();
    finished_order_.push_back(p.handle);
    while (finished_order_.size() > limits_.max_finished_kept) {
        processes_.erase(finished_order_.front());
        finished_order_.pop_front();
    }
}

void ProcessTable::expire_drains(const Lock &lock) {
    auto now = Clock::now();
    std::vector<std::shared_ptr<Process>> due;
    for (const auto &[h, p] : processes_)
        if (p->drain_deadline && *p->drain_deadline <= now) due.push_back(p);
    for (auto &p : due) {
        // A descendant still holds the pipes open; stop reading so the
        // process's output can be declared complete.
        for (int stream : {1, 2}) {
            int &fd = p->out_fd[stream - 1];
            if (fd < 0) continue;
            read_stream(lock, *p, stream, true);
            if (fd < 0) continue;
            unwatch(fd);
            ::close(fd);
            fd = -1;
            p->log.close_stream(stream);
        }
        p->log.note("[spawn_notify: stopped reading output " + std::to_string(limits_.exit_drain.count()) +
                    " ms after the exit: a descendant process still holds it open]");
        maybe_finish(lock, *p);
    }
}

// ------------------------------------------------------------------ requests

Result<void> ProcessTable::signal(std::int64_t handle, int sig, bool whole_group) {
    if (sig < 0 || sig >= NSIG)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "signal: no signal " + std::to_string(sig));
    std::lock_guard lock(mutex_);
    auto p = find(handle);
    if (!p) return not_found(handle);
    if (whole_group) {
        // The group outlives its leader while descendants remain, so this is
        // allowed after the exit too; ESRCH then just means nobody is left.
        if (::kill(-p->pid, sig) != 0 && errno != ESRCH)
            return make_error(HARNESS_ERR_PLUGIN_FAILED,
                              "signal: kill(-" + std::to_string(p->pid) + "): " + std::strerror(errno));
        return {};
    }
    // Not yet reaped means the pid is still ours (a zombie keeps it).
    if (p->exited)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          "signal: process " + std::to_string(handle) + " has already exited");
    if (::kill(p->pid, sig) != 0)
        return make_error(HARNESS_ERR_PLUGIN_FAILED,
                          "signal: kill(" + std::to_string(p->pid) + "): " + std::strerror(errno));
    return {};
}

Result<ProcessStatus> ProcessTable::status(std::int64_t handle) const {
    std::lock_guard lock(mutex_);
    auto p = find(handle);
    if (!p) return not_found(handle);
    if (!p->exited) return ProcessStatus{"running", 0, 0, p->mpi_state};
    return ProcessStatus{p->signal ? "signaled" : "exited", p->exit_code, p->signal, p->mpi_state};
}

ExitBatch ProcessTable::wait(std::int64_t after_event, std::chrono::milliseconds wait) {
    Lock lock(mutex_);
    // A caller ahead of us (it talked to an earlier incarnation of this daemon)
    // starts over from what we have.
    std::int64_t last = next_exit_seq_ - 1;
    if (after_event > last) after_event = last;
    changed_.wait_for(lock, wait, [&] { return stopping_ || next_exit_seq_ - 1 > after_event; });
    ExitBatch batch;
    batch.next_event = after_event;
    for (const auto &e : exits_) {
        if (e.seq <= after_event) continue;
        if (batch.events.size() >= kMaxEventsPerReply) break;
        batch.events.push_back(e);
        batch.next_event = e.seq;
    }
    return batch;
}

Result<OutputReply> ProcessTable::output(std::int64_t handle, std::int64_t after_line, std::chrono::milliseconds wait) {
    Lock lock(mutex_);
    auto p = find(handle);
    if (!p) return not_found(handle);
    changed_.wait_for(lock, wait, [&] { return stopping_ || p->finished || p->log.last_line() > after_line; });
    OutputReply reply;
    reply.batch = p->log.read(after_line, kMaxReplyBytes);
    reply.finished = p->finished && reply.batch.next_line >= p->log.last_line();
    return reply;
}

Result<std::int64_t> ProcessTable::write_stdin(std::int64_t handle, std::span<const std::uint8_t> data, bool close,
                                               std::chrono::milliseconds wait) {
    Lock lock(mutex_);
    auto p = find(handle);
    if (!p) return not_found(handle);
    auto closed = [&] { return p->stdin_fd < 0 || p->stdin_close_requested; };
    if (closed() && !data.empty())
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          "stdin: process " + std::to_string(handle) +
                              (p->exited ? " has exited" : "'s stdin is closed"));
    changed_.wait_for(lock, wait,
                      [&] { return stopping_ || closed() || p->stdin_pending.size() < limits_.max_stdin_bytes; });
    std::size_t room =
        limits_.max_stdin_bytes > p->stdin_pending.size() ? limits_.max_stdin_bytes - p->stdin_pending.size() : 0;
    std::size_t take = closed() ? 0 : std::min(room, data.size());
    p->stdin_pending.append(reinterpret_cast<const char *>(data.data()), take);
    if (close && take == data.size()) p->stdin_close_requested = true;
    flush_stdin(lock, *p);
    return static_cast<std::int64_t>(take);
}

// ------------------------------------------------------------------ shutdown

void ProcessTable::shutdown() {
    {
        std::lock_guard lock(mutex_);
        if (shut_down_) return;
        shut_down_ = true;
        stopping_ = true;
        for (auto &[h, p] : processes_)
            if (!p->exited) {
                ::kill(-p->pid, SIGKILL);
                ::kill(p->pid, SIGKILL);
            }
        changed_.notify_all();
    }
    wake_monitor();
    if (monitor_.joinable()) monitor_.join();

    Lock lock(mutex_);
    // A snapshot: finishing a process may forget an old one from the map.
    std::vector<std::shared_ptr<Process>> all;
    for (auto &[h, p] : processes_) all.push_back(p);
    for (auto &p : all) {
        if (!p->exited) reap(lock, *p, true);
        for (int &fd : p->out_fd) {
            if (fd >= 0) ::close(fd);
            fd = -1;
        }
        close_stdin(lock, *p);
    }
    changed_.notify_all();
}

}  // namespace harness::vm::spawn
