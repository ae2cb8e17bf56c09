// job_notices.hpp — the failure notices ftmpirun publishes on the job's
// topic (rank_lost, …). The ranks cannot go on without them (a wire-up
// waits for rank_lost), so one that cannot be published — the VM's events
// wait for a DRD election, or for a quorum — is kept and tried again every
// second, in order, until it is. Used by the controller's thread only.
#pragma once

#include "job.hpp"
#include "job_io.hpp"
#include "vm_link.hpp"

#include <chrono>
#include <deque>
#include <optional>
#include <string>

namespace harness::ftmpirun {

class JobNotices {
public:
    using Clock = std::chrono::steady_clock;

    JobNotices(const JobSpec &spec, Printer &printer);

    // Publishes now, or queues behind the notices still waiting.
    void publish(const Bytes &event, const std::string &what);
    // When the waiting notices are tried again (none: nothing waits).
    std::optional<Clock::time_point> retry_due() const { return retry_at_; }
    // Tries the waiting notices again once their time came.
    void retry();

private:
    struct Notice {
        Bytes event;
        std::string what;
    };
    // Says why only the first time a notice fails (its retries would repeat it).
    bool try_publish(const Notice &notice, bool first_try);

    std::string topic_;
    Printer &printer_;
    VmLink link_;
    std::deque<Notice> waiting_;  // oldest first
    std::optional<Clock::time_point> retry_at_;
};

}  // namespace harness::ftmpirun
