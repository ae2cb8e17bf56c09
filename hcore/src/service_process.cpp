#include "service_process.hpp"

#include "child_process.hpp"

#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include <cstring>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace harness::hcore {

namespace asio = boost::asio;

namespace {

constexpr std::uint32_t kMaxServiceMessage = 1u << 30;

Bytes frame(std::span<const std::uint8_t> payload) {
    Bytes b(4 + payload.size());
    harness_put_le(b.data(), payload.size(), 4);
    if (!payload.empty()) std::memcpy(b.data() + 4, payload.data(), payload.size());
    return b;
}

}  // namespace

Result<std::shared_ptr<ServiceProcess>> ServiceProcess::start(asio::io_context &io, ChildReaper &reaper,
                                                              const CallTarget &target, const harness_host_api *host,
                                                              Logger &log) {
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        return make_error(HARNESS_ERR_BUSY, std::string("socketpair: ") + std::strerror(errno));
    pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        return make_error(HARNESS_ERR_BUSY, std::string("fork: ") + std::strerror(errno));
    }
    if (pid == 0) {
        int fd = fds[1];
        prepare_child({&fd});
        serve(target, host, fd);
        ::_exit(0);
    }
    ::close(fds[1]);
    auto service = std::make_shared<ServiceProcess>(io, fds[0], pid, log);
    log.info("started service process " + std::to_string(pid) + " for " + target.plugin->name.to_string() + "/" +
             target.function->name);
    std::weak_ptr<ServiceProcess> weak = service;
    reaper.watch(pid, [weak, pid, &log](int status) {
        log.info("service process " + std::to_string(pid) + " ended (status " + std::to_string(status) + ")");
        if (auto s = weak.lock()) s->fail_all("the service process ended");
    });
    service->read_reply();
    return service;
}

ServiceProcess::ServiceProcess(asio::io_context &io, int fd, pid_t pid, Logger &log)
    : socket_(io, asio::local::stream_protocol(), fd), pid_(pid), log_(log) {}

void ServiceProcess::serve(const CallTarget &target, const harness_host_api *host, int fd) {
    for (;;) {
        std::uint8_t len_bytes[4];
        if (!read_all(fd, len_bytes, 4)) return;  // the daemon closed: exit quietly
        auto len = static_cast<std::uint32_t>(harness_get_le(len_bytes, 4));
        if (len > kMaxServiceMessage) return;
        Bytes args(len);
        if (len && !read_all(fd, args.data(), len)) return;
        Outcome o = execute_call(*target.plugin, *target.function, target.function_index, args, -1, host);
        Bytes reply = frame(encode_outcome(o));
        if (!write_all(fd, reply.data(), reply.size())) return;
    }
}

void ServiceProcess::call(Bytes args, int raw_fd, Invoker::Done done) {
    if (raw_fd >= 0)
        return done(error_outcome(HARNESS_ERR_NOT_SUPPORTED, "RAW functions cannot run in service mode yet"));
    if (!alive_) return done(error_outcome(HARNESS_ERR_CRASHED, "the service process ended"));
    pending_.push_back(std::move(done));
    to_write_.push_back(frame(args));
    write_next();
}

void ServiceProcess::write_next() {
    if (writing_ || to_write_.empty() || !alive_) return;
    writing_ = true;
    asio::async_write(socket_, asio::buffer(to_write_.front()), [self = shared_from_this()](auto ec, std::size_t) {
        self->writing_ = false;
        // fail_all (the reaper saw the exit first) already dropped the queue.
        if (!self->alive_) return;
        self->to_write_.pop_front();
        if (ec) return self->fail_all("cannot write to the service process: " + ec.message());
        self->write_next();
    });
}

void ServiceProcess::read_reply() {
    auto self = shared_from_this();
    asio::async_read(socket_, asio::buffer(length_), [self](auto ec, std::size_t) {
        if (ec) return self->fail_all("the service process closed its socket");
        auto len = static_cast<std::uint32_t>(harness_get_le(self->length_, 4));
        if (len > kMaxServiceMessage) return self->fail_all("the service process sent an oversized reply");
        self->reply_.resize(len);
        asio::async_read(self->socket_, asio::buffer(self->reply_), [self](auto ec2, std::size_t) {
            if (ec2) return self->fail_all("the service process closed its socket");
            if (self->pending_.empty()) return self->fail_all("the service process sent an unexpected reply");
            auto done = std::move(self->pending_.front());
            self->pending_.pop_front();
            auto o = decode_outcome(self->reply_);
            done(o ? std::move(o.value()) : error_outcome(o.error()));
            self->read_reply();
        });
    });
}

void ServiceProcess::fail_all(const std::string &why) {
    if (alive_) {
        alive_ = false;
        boost::system::error_code ignored;
        socket_.close(ignored);
        ::kill(pid_, SIGKILL);  // half-dead services are not trusted with more calls
    }
    auto pending = std::move(pending_);
    pending_.clear();
    to_write_.clear();
    for (auto &done : pending) done(error_outcome(HARNESS_ERR_CRASHED, why));
}

void ServiceProcess::stop() {
    if (!alive_) return;
    alive_ = false;
    boost::system::error_code ignored;
    socket_.close(ignored);
    ::kill(pid_, SIGTERM);
}

}  // namespace harness::hcore
