#include "job_notices.hpp"

#include "vm_link.hpp"

namespace harness::ftmpirun {

namespace {
constexpr std::chrono::milliseconds kPublishRetry{1000};
}  // namespace

JobNotices::JobNotices(const JobSpec &spec, Printer &printer)
    : printer_(printer), publisher_([this, &spec] { run(spec); }) {}

JobNotices::~JobNotices() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    publisher_.join();
}

void JobNotices::publish(const Bytes &event, const std::string &what) {
    {
        std::lock_guard lock(mutex_);
        waiting_.push_back({event, what});
    }
    changed_.notify_all();
}

std::size_t JobNotices::backlog() const {
    std::lock_guard lock(mutex_);
    return waiting_.size();
}

void JobNotices::run(const JobSpec &spec) {
    VmLink link(spec.vm, spec.key);
    const std::string topic = "job/" + std::to_string(spec.job_id);
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [&] { return stop_ || !waiting_.empty(); });
        if (stop_) return;
        Notice notice = waiting_.front();  // stays queued until published: later ones wait behind it
        lock.unlock();
        auto r = link.publish(topic, notice.event);
        if (r && notice.failed_before) printer_.note("published " + notice.what + " on a later try");
        if (!r && !notice.failed_before)
            printer_.note("cannot publish " + notice.what + " on " + topic + " yet: " + r.error().describe() +
                          "; trying again every " + std::to_string(kPublishRetry.count() / 1000) + " s");
        lock.lock();
        if (r) {
            waiting_.pop_front();
        } else {
            waiting_.front().failed_before = true;
            if (changed_.wait_for(lock, kPublishRetry, [&] { return stop_; })) return;
        }
    }
}

}  // namespace harness::ftmpirun
