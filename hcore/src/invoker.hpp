// Indirect invocation: where a call runs (the seed paper's four methods).
//
//   inline   on the daemon's I/O thread — no thread wake-up at all, the
//            fastest path, but a slow function stalls the daemon;
//   thread   a new thread per call, the reply posted back to the I/O thread;
//   fork     a forked process per call, the outcome returned through a pipe;
//   service  a forked long-lived process per function, fed calls over a
//            socketpair (service_process.hpp).
// Completions always run on the I/O thread. A crashed handler process gives
// HARNESS_ERR_CRASHED with its signal; nothing here can hang a caller forever
// on a dead handler, because EOF on the pipe/socket completes the call.
#pragma once

#include "call_execution.hpp"
#include "child_reaper.hpp"

#include <boost/asio/io_context.hpp>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace harness::hcore {

class ServiceProcess;

struct CallTarget {
    const LoadedPlugin *plugin = nullptr;
    const harness_function *function = nullptr;
    std::size_t function_index = 0;
};

class Invoker {
public:
    using Done = std::function<void(Outcome)>;

    Invoker(boost::asio::io_context &io, ChildReaper &reaper, const harness_host_api *host, Logger &log);
    ~Invoker();

    // mode must not be DEFAULT (resolve it first). raw_fd is -1 unless RAW.
    void invoke(const CallTarget &target, harness_mode mode, Bytes args, int raw_fd, Done done);

    // Waits (bounded) for running threads and stops the services.
    void shutdown();

private:
    void run_in_thread(const CallTarget &target, Bytes args, int raw_fd, Done done);
    void run_in_fork(const CallTarget &target, Bytes args, int raw_fd, Done done);
    void run_in_service(const CallTarget &target, Bytes args, int raw_fd, Done done);

    boost::asio::io_context &io_;
    ChildReaper &reaper_;
    const harness_host_api *host_;
    Logger &log_;
    std::atomic<int> threads_running_{0};
    std::map<const harness_function *, std::shared_ptr<ServiceProcess>> services_;
};

}  // namespace harness::hcore
