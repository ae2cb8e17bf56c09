#include "invoker.hpp"

#include "child_process.hpp"
#include "service_process.hpp"

#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>

#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace harness::hcore {

namespace asio = boost::asio;

Invoker::Invoker(asio::io_context &io, ChildReaper &reaper, const harness_host_api *host, Logger &log)
    : io_(io), reaper_(reaper), host_(host), log_(log) {}

Invoker::~Invoker() {
    shutdown();
}

void Invoker::invoke(const CallTarget &target, harness_mode mode, Bytes args, int raw_fd, Done done) {
    switch (mode) {
    case HARNESS_MODE_INLINE:
        done(execute_call(*target.plugin, *target.function, target.function_index, args, raw_fd, host_));
        return;
    case HARNESS_MODE_THREAD: run_in_thread(target, std::move(args), raw_fd, std::move(done)); return;
    case HARNESS_MODE_FORK: run_in_fork(target, std::move(args), raw_fd, std::move(done)); return;
    case HARNESS_MODE_SERVICE: run_in_service(target, std::move(args), raw_fd, std::move(done)); return;
    default: done(error_outcome(HARNESS_ERR_INVALID_ARGUMENT, "unknown invocation mode")); return;
    }
}

void Invoker::run_in_thread(const CallTarget &target, Bytes args, int raw_fd, Done done) {
    ++threads_running_;
    try {
        std::thread([this, target, args = std::move(args), raw_fd, done]() mutable {
            Outcome o = execute_call(*target.plugin, *target.function, target.function_index, args, raw_fd, host_);
            asio::post(io_, [done = std::move(done), o = std::move(o)]() mutable { done(std::move(o)); });
            --threads_running_;
        }).detach();
    } catch (const std::system_error &e) {
        --threads_running_;
        done(error_outcome(HARNESS_ERR_BUSY, std::string("cannot start a thread: ") + e.what()));
    }
}

namespace {

std::string describe_wait_status(int status) {
    if (WIFSIGNALED(status)) return std::string("killed by signal ") + strsignal(WTERMSIG(status));
    if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
    return "ended";
}

// Collects a forked handler's outcome: the pipe's content and its exit status.
struct ForkedCall : std::enable_shared_from_this<ForkedCall> {
    ForkedCall(asio::io_context &io, int fd, Invoker::Done d) : pipe(io, fd), done(std::move(d)) {}
    asio::posix::stream_descriptor pipe;
    Invoker::Done done;
    Bytes received;
    std::uint8_t chunk[4096];
    bool eof = false, exited = false;
    int wait_status = 0;

    void read() {
        pipe.async_read_some(asio::buffer(chunk), [self = shared_from_this()](auto ec, std::size_t n) {
            self->received.insert(self->received.end(), self->chunk, self->chunk + n);
            if (ec) {
                self->eof = true;
                self->finish();
            } else {
                self->read();
            }
        });
    }
    void finish() {
        if (!eof || !exited || !done) return;
        auto d = std::move(done);
        auto o = decode_outcome(received);
        if (o && WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0) return d(std::move(o.value()));
        d(error_outcome(HARNESS_ERR_CRASHED, "the forked handler " + describe_wait_status(wait_status)));
    }
};

}  // namespace

void Invoker::run_in_fork(const CallTarget &target, Bytes args, int raw_fd, Done done) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        return done(error_outcome(HARNESS_ERR_BUSY, std::string("pipe: ") + std::strerror(errno)));
    pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        return done(error_outcome(HARNESS_ERR_BUSY, std::string("fork: ") + std::strerror(errno)));
    }
    if (pid == 0) {
        int out = fds[1];
        if (raw_fd >= 0) {
            prepare_child({&out, &raw_fd});
        } else {
            prepare_child({&out});
        }
        Outcome o = execute_call(*target.plugin, *target.function, target.function_index, args, raw_fd, host_);
        Bytes encoded = encode_outcome(o);
        bool ok = write_all(out, encoded.data(), encoded.size());
        ::_exit(ok ? 0 : 1);
    }
    ::close(fds[1]);
    auto call = std::make_shared<ForkedCall>(io_, fds[0], std::move(done));
    call->read();
    reaper_.watch(pid, [call](int status) {
        call->exited = true;
        call->wait_status = status;
        call->finish();
    });
}

void Invoker::run_in_service(const CallTarget &target, Bytes args, int raw_fd, Done done) {
    auto &service = services_[target.function];
    if (!service || !service->alive()) {
        auto started = ServiceProcess::start(io_, reaper_, target, host_, log_);
        if (!started) return done(error_outcome(started.error()));
        service = std::move(started.value());
    }
    service->call(std::move(args), raw_fd, std::move(done));
}

void Invoker::shutdown() {
    for (auto &[f, s] : services_) s->stop();
    services_.clear();
    // Threads run plugin code; give them a bounded time before the plugins go.
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (threads_running_.load() > 0 && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (threads_running_.load() > 0)
        log_.warning(std::to_string(threads_running_.load()) + " call threads still running at shutdown");
}

}  // namespace harness::hcore
