#include "exit_publisher.hpp"

#include <harness/common/pack.hpp>

#include <cstddef>

namespace harness::vm::spawn {

ExitPublisher::ExitPublisher(const harness_host_api *host, std::string member_id)
    : host_(host), member_id_(std::move(member_id)) {
    thread_ = std::thread([this] { run(); });
}

ExitPublisher::~ExitPublisher() {
    stop();
}

void ExitPublisher::enqueue(const ExitReport &exit) {
    if (exit.notify_topic.empty()) return;
    std::lock_guard lock(mutex_);
    if (stopping_) {
        log(2,
            "spawn_notify: exit of handle " + std::to_string(exit.handle) + " (tag \"" + exit.tag +
                "\") not published to " + exit.notify_topic + ": the daemon is stopping");
        return;
    }
    queue_.push_back(exit);
    changed_.notify_one();
}

void ExitPublisher::stop() {
    {
        std::lock_guard lock(mutex_);
        if (stopping_ && !thread_.joinable()) return;
        stopping_ = true;
        for (const auto &exit : queue_)
            log(2,
                "spawn_notify: exit of handle " + std::to_string(exit.handle) + " (tag \"" + exit.tag +
                    "\") not published to " + exit.notify_topic + ": the daemon is stopping");
        queue_.clear();
        changed_.notify_all();
    }
    if (thread_.joinable()) thread_.join();
}

void ExitPublisher::run() {
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (stopping_) return;
        ExitReport exit = std::move(queue_.front());
        queue_.pop_front();
        lock.unlock();
        publish(exit);
        lock.lock();
    }
}

void ExitPublisher::publish(const ExitReport &exit) {
    Packer payload;
    payload.str("proc_exit")
        .str(member_id_)
        .i64(exit.handle)
        .i64(exit.pid)
        .str(exit.tag)
        .i32(exit.exit_code)
        .i32(exit.signal)
        .str(exit.mpi_state);
    Packer args;
    args.str(exit.notify_topic).bytes(payload.view());
    if (!HARNESS_HOST_HAS(host_, call_local)) {
        log(2,
            "spawn_notify: this host cannot call vm/events; exit of handle " + std::to_string(exit.handle) +
                " not published");
        return;
    }
    harness_buf out{};
    char err[512] = "";
    int status = host_->call_local(host_->host, "vm", "events", "publish", args.view().data(), args.size(), &out, err,
                                   sizeof err);
    harness_buf_free(&out);
    if (status != HARNESS_OK) {
        std::string what = "spawn_notify: publishing the exit of handle " + std::to_string(exit.handle) + " (tag \"" +
            exit.tag + "\") to " + exit.notify_topic + " failed: " + harness_status_string(status) +
            (err[0] ? std::string(": ") + err : std::string());
        // Without an events service every exit would warn; say it once at
        // warning level, then at debug.
        bool missing = status == HARNESS_ERR_NOT_FOUND || status == HARNESS_ERR_LOAD_FAILED;
        log(missing && warned_missing_ ? 0 : 2, what);
        if (missing) warned_missing_ = true;
    }
}

void ExitPublisher::log(int level, const std::string &message) {
    if (host_ && host_->log) host_->log(host_->host, level, message.c_str());
}

}  // namespace harness::vm::spawn
