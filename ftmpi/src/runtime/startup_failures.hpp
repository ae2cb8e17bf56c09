// The failure notices a rank hears while the job wires up, so that the
// wire-up never waits for a rank that is already dead.
//
// After MPI_Init the notifier (ft/notifier.cpp) reads the job's topic
// job/<FTMPI_JOB> in vm/events; during MPI_Init nothing did, and a rank
// killed before it published its contact made every other rank wait for
// the wire-up timeout. StartupFailures reads the same topic from its start
// while the wire-up waits: a `proc_exit` of a rank (any status: a rank that
// ended never publishes nor connects), its `rank_lost` (its daemon failed)
// or a `fence` marks that rank as ended, with the reason the notifier would
// give. The wire-up leaves an ended rank out, and MPI_Init declares it a
// failed process (ABORT: the job ends; the fault-tolerant modes: the job
// starts without it).
//
// It connects to the local daemon only when first asked to look (a wire-up
// that finds every contact at once never pays for it), and only for a job
// under a VM (FTMPI_JOB and HARNESS_HCORE set). Without a daemon or an
// events service it knows nothing, and the wire-up ends by its timeout as
// before.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace ftmpi::runtime {

struct JobInfo;

class StartupFailures {
public:
    explicit StartupFailures(const JobInfo &job);
    ~StartupFailures();
    StartupFailures(const StartupFailures &) = delete;
    StartupFailures &operator=(const StartupFailures &) = delete;

    // Takes in the notices published since the last look, waiting up to
    // `wait` for one when there is none. Returns true when it learned that
    // a rank ended. Never throws: a daemon that cannot be asked makes it
    // stop looking.
    bool look(std::chrono::milliseconds wait);
    // Why `rank` ended ("killed by signal 9 (SIGKILL) on member …"), or
    // nullptr while nothing says it did.
    const std::string *ended(int rank) const;
    // Every rank known to have ended, with the reason.
    const std::map<int, std::string> &all() const { return ended_; }
    // Whether `rank` is known to have ended (its reason in *why), looking at
    // the notices again when the last look is older than the wire-up slice:
    // for loops that retry often (a connect to a rank's port).
    bool ended_now(int rank, std::string *why);

private:
    struct Link;
    std::string topic_;
    int self_ = 0, size_ = 0;
    bool usable_ = true;  // false once the daemon or its events service could not be asked
    std::int64_t after_ = 0;
    std::chrono::steady_clock::time_point last_look_{};
    std::unique_ptr<Link> link_;
    std::map<int, std::string> ended_;
};

}  // namespace ftmpi::runtime
