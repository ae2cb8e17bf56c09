// The live state behind /events: one thread, running only while someone
// listens, that gathers {"vm": hostinfo's JSON, "jobs": /api/jobs} and
// gathers it again as soon as a DRD record under vm/ or a job's cominfo
// record changes (vm/drd `watch`, the long poll cominfo --watch uses), and
// at least every kRefresh (liveness and loaded plugins are not DRD records).
// However many browsers listen, the VM is asked once per change.
#pragma once

#include "http_server.hpp"
#include "vm_source.hpp"

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace harness::web {

class Feed {
public:
    static constexpr std::chrono::milliseconds kRefresh{2000};

    Feed(VmSource source, LogFn log);
    ~Feed();
    Feed(const Feed &) = delete;
    Feed &operator=(const Feed &) = delete;

    struct State {
        std::uint64_t version = 0;  // 0: nothing gathered yet
        std::shared_ptr<const std::string> json;
    };
    // Waits until the state is newer than `seen`, or `wait` passes; returns
    // the current state either way.
    State next(std::uint64_t seen, std::chrono::milliseconds wait);

    // A listener while it lives: the thread gathers only while there is one.
    class Listener {
    public:
        explicit Listener(Feed &feed);
        ~Listener();
        Listener(const Listener &) = delete;
        Listener &operator=(const Listener &) = delete;

    private:
        Feed &feed_;
    };

private:
    void run();
    void publish(std::string json);
    // Waits for a relevant change, kRefresh, the last listener leaving, or
    // stop; false when the connection failed.
    bool wait_for_change(hlib::VirtualMachine &vm, std::int64_t *index);

    VmSource source_;
    LogFn log_;
    std::mutex mutex_;
    std::condition_variable changed_;  // state_ or listeners_ or stop_
    State state_;
    int listeners_ = 0;
    bool stop_ = false;
    std::thread thread_;
};

// True for the DRD keys whose change the view shows: vm/… (members,
// services, claims, publications) and the ranks' ftmpi/<job>/cominfo/<rank>.
bool relevant_key(const std::string &key);

}  // namespace harness::web
