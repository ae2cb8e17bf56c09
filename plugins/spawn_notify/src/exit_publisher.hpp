// exit_publisher.hpp — publishes process exits to vm/events, off the monitor.
//
// A process spawned with a notify_topic has its exit published as
// `str "proc_exit", str member_id, i64 handle, i64 pid, str tag,
// i32 exit_code, i32 signal` (VM_SERVICES.md). Publishing waits for the
// events service to make the event durable, so it runs on a thread of its own
// and never delays the detection of the next exit. When vm/events is not
// there, the exit is logged and spawn_notify carries on.
#pragma once

#include "process_table.hpp"

#include <harness/common/plugin.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

namespace harness::vm::spawn {

class ExitPublisher {
public:
    ExitPublisher(const harness_host_api *host, std::string member_id);
    ~ExitPublisher();
    ExitPublisher(const ExitPublisher &) = delete;
    ExitPublisher &operator=(const ExitPublisher &) = delete;

    // Queues the exit when it has a topic; never blocks.
    void enqueue(const ExitReport &exit);
    // Stops the thread. Exits still queued are logged, not published: this
    // runs in the plugin's fini, while the daemon holds its plugin registry
    // locked, so calling another plugin from here could deadlock.
    void stop();

private:
    void run();
    void publish(const ExitReport &exit);
    void log(int level, const std::string &message);

    const harness_host_api *host_;
    std::string member_id_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<ExitReport> queue_;
    bool stopping_ = false;
    bool warned_missing_ = false;
    std::thread thread_;
};

}  // namespace harness::vm::spawn
