// job_process.hpp — one process of a job as ftmpirun follows it: the
// controller connection to a daemon, a helper command run to its end, the
// thread that forwards a process's output and reports its end, and the one
// that copies our stdin to rank 0. Both threads wait on a daemon; the
// controller ends such a wait through a ConnectionStop once nothing the job
// needs can come of it.
#pragma once

#include "job.hpp"
#include "job_io.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace harness::ftmpirun {

Result<spawn_client::SpawnClient> open_client(const Endpoint &tcp, const VmKey &key);

// Runs a helper command on a daemon to its end (mkdir/rm of the wire-up
// directory); returns its exit code, or why it could not run.
Result<int> run_helper(spawn_client::SpawnClient &c, const std::vector<std::string> &argv);

// Lets the controller end another thread's wait on a daemon at once: the
// output long poll of a process whose daemon the VM declared failed would
// otherwise last its poll plus the request timeout (15 s) on a host that no
// longer answers, and the job's end waits for that thread. stop() shuts the
// waiting thread's socket down, which completes its pending receive with an
// error; the thread attaches its connection's socket after opening it and
// detaches it before closing it, so the socket stopped is always its own.
class ConnectionStop {
public:
    void stop();
    bool stopped() const;
    // False when stopped already (the thread gives up instead of waiting).
    bool attach(int fd);
    void detach();
    // Detaches when the scope ends, before the connection it follows closes.
    struct DetachOnExit {
        ConnectionStop &stop;
        ~DetachOnExit() { stop.detach(); }
    };

private:
    mutable std::mutex mutex_;
    int fd_ = -1;
    bool stopped_ = false;
};

// One process of the job: an original rank, a replacement or a process
// MPI_Comm_spawn added (rank: its world rank in the job).
struct Process {
    int rank = 0;
    int incarnation = 0;
    RankPlace place;
    std::int64_t handle = 0;
    bool done = false;            // its end was recorded
    bool lost_published = false;  // rank_lost went out for it
    std::string lost_why;         // non-empty: its daemon was declared failed
    int fenced_by = -1;           // ≥ 0: killed at that rank's request
    bool discarded = false;       // killed by ftmpirun because its spawn failed: its
                                  // end is no failure
    std::string moved_why;        // non-empty: killed because a slide moves its rank to
                                  // another host
    int standby = -1;             // ≥ 0: started as hot standby k
    bool promoted = false;        // a standby that became a rank's replacement
    // Ends its follower's wait: shared by the controller's copy and the
    // follower's.
    std::shared_ptr<ConnectionStop> following = std::make_shared<ConnectionStop>();

    bool waiting_standby() const { return standby >= 0 && !promoted; }
    std::string label() const {
        if (waiting_standby()) return "standby" + std::to_string(standby);
        return incarnation ? std::to_string(rank) + "." + std::to_string(incarnation) : std::to_string(rank);
    }
};

// Follows one process's output to its end, then reports how it ended; once
// p.following is stopped it returns without a report (the controller has
// accounted for the process).
void follow_process(std::size_t index, Process p, const VmKey &key, Printer &printer, Inbox &inbox);

// Copies our stdin to rank 0 until EOF, or until told to stop (stop set,
// then wake_fd written to and connection stopped).
void forward_stdin(const RankPlace &where, std::int64_t handle, const VmKey &key, int wake_fd,
                   const std::atomic<bool> &stop, ConnectionStop &connection);

}  // namespace harness::ftmpirun
