// A forked long-lived process that serves every call of one function (the
// paper's "multi-invocation service"). Requests go over a socketpair framed
// as  u32 length | args ; replies come back as  u32 length | outcome  in the
// same order. The service runs calls one at a time; callers queue. If it
// dies, every pending call completes with HARNESS_ERR_CRASHED and the next
// call starts a new service.
#pragma once

#include "invoker.hpp"

#include <boost/asio/local/stream_protocol.hpp>

#include <deque>

namespace harness::hcore {

class ServiceProcess : public std::enable_shared_from_this<ServiceProcess> {
public:
    static Result<std::shared_ptr<ServiceProcess>> start(boost::asio::io_context &io, ChildReaper &reaper,
                                                         const CallTarget &target, const harness_host_api *host,
                                                         Logger &log);
    ServiceProcess(boost::asio::io_context &io, int fd, pid_t pid, Logger &log);

    void call(Bytes args, int raw_fd, Invoker::Done done);
    bool alive() const { return alive_; }
    void stop();  // closes the socket; the service exits on EOF (or is killed with the daemon)

private:
    static void serve(const CallTarget &target, const harness_host_api *host, int fd);  // in the child
    void write_next();
    void read_reply();
    void fail_all(const std::string &why);

    boost::asio::local::stream_protocol::socket socket_;
    pid_t pid_;
    Logger &log_;
    bool alive_ = true;
    bool writing_ = false;
    std::deque<Bytes> to_write_;
    std::deque<Invoker::Done> pending_;
    std::uint8_t length_[4];
    Bytes reply_;
};

}  // namespace harness::hcore
