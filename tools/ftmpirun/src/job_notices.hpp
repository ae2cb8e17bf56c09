// job_notices.hpp — the notices ftmpirun publishes on the job's topic for
// its ranks (rank_lost, respawned, respawn_failed). A thread of their own
// publishes them in order, so the controller never waits on the VM's events.
// The ranks cannot go on without them (a wire-up waits for rank_lost), so
// one that cannot be published — the VM's events wait for a DRD election,
// or for a quorum — is tried again every second until it is, or until the
// job ends.
#pragma once

#include "job.hpp"
#include "job_io.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

namespace harness::ftmpirun {

class JobNotices {
public:
    JobNotices(const JobSpec &spec, Printer &printer);
    ~JobNotices();  // stops; notices still waiting are dropped (the job is over)

    // Queues a notice behind those not published yet; returns at once.
    void publish(const Bytes &event, const std::string &what);
    // How many notices wait to be published (the one being tried included).
    std::size_t backlog() const;

private:
    struct Notice {
        Bytes event;
        std::string what;
        bool failed_before = false;
    };
    void run(const JobSpec &spec);

    Printer &printer_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Notice> waiting_;  // oldest first
    bool stop_ = false;
    std::thread publisher_;
};

}  // namespace harness::ftmpirun
