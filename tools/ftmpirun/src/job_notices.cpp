#include "job_notices.hpp"

namespace harness::ftmpirun {

namespace {
constexpr std::chrono::milliseconds kPublishRetry{1000};
}  // namespace

JobNotices::JobNotices(const JobSpec &spec, Printer &printer)
    : topic_("job/" + std::to_string(spec.job_id)), printer_(printer), link_(spec.vm, spec.key) {}

void JobNotices::publish(const Bytes &event, const std::string &what) {
    Notice notice{event, what};
    // Later notices wait for earlier ones: the ranks read them in order.
    if (waiting_.empty() && try_publish(notice, true)) return;
    waiting_.push_back(std::move(notice));
    if (!retry_at_) retry_at_ = Clock::now() + kPublishRetry;
}

void JobNotices::retry() {
    if (!retry_at_ || Clock::now() < *retry_at_) return;
    while (!waiting_.empty() && try_publish(waiting_.front(), false)) {
        printer_.note("published " + waiting_.front().what + " on a later try");
        waiting_.pop_front();
    }
    retry_at_.reset();
    if (!waiting_.empty()) retry_at_ = Clock::now() + kPublishRetry;
}

bool JobNotices::try_publish(const Notice &notice, bool first_try) {
    auto r = link_.publish(topic_, notice.event);
    if (!r && first_try)
        printer_.note("cannot publish " + notice.what + " on " + topic_ + " yet: " + r.error().describe() +
                      "; trying again every " + std::to_string(kPublishRetry.count() / 1000) + " s");
    return r.ok();
}

}  // namespace harness::ftmpirun
