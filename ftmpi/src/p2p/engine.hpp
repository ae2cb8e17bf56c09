// The point-to-point engine: protocols, and the three pieces of state they
// work on: the matching queues (match_queues.hpp), whose turn it is to make
// progress (progress_turn.hpp) and the record of failed processes
// (failure_record.hpp).
//
// One engine per process (MPI_COMM_WORLD's job), one lock for all of its
// state. Progress is made by exactly one "poller" at a time: a user thread
// waiting in MPI (it reads the sockets itself, so a reply reaches the waiting
// thread without a thread hop), or, when no user thread has been in MPI for a
// moment, the progress thread, which then blocks in epoll so non-blocking
// operations advance outside MPI calls. A waiting thread spins for
// FTMPI_SPIN_US (polling without blocking), then blocks: in epoll if it is
// the poller, else on a condition variable the poller signals.
//
// Failures: when a peer's connection breaks before its bye, the peer is
// failed; every pending operation that needs it, and every ANY_SOURCE receive
// on a communicator that contains it, completes with MPIX_ERR_PROC_FAILED.
#pragma once

#include "internal/p2p.hpp"
#include "internal/predefined_storage.hpp"
#include "p2p/failure_record.hpp"
#include "p2p/match_queues.hpp"
#include "p2p/progress_turn.hpp"
#include "p2p/request.hpp"
#include "transport/router.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace ftmpi::p2p {

struct Settings {
    size_t eager_limit = 0;                // FTMPI_EAGER_LIMIT: larger messages use rendezvous (0: each driver's own)
    std::chrono::microseconds spin{50};    // FTMPI_SPIN_US: poll this long before blocking (from_environment)
    std::chrono::microseconds idle{1000};  // FTMPI_PROGRESS_IDLE_US: quiet time before the progress thread polls
    // FTMPI_YIELD_WHEN_IDLE (1/0): give the core away between spinning
    // steps. By default only when this host runs more of the job's ranks
    // (FTMPI_LOCAL_SIZE, from the launcher) than it has CPUs: a yield is a
    // system call, dearer than the step itself.
    bool yield_when_idle = true;
    static Settings from_environment();
};

class Engine final : public transport::Sink {
public:
    static Engine &get();

    // MPI_Init: opens the comm drivers and connects to the job's other
    // ranks (size > 1). Returns an empty string or the reason it failed.
    // `exchange` publishes this rank's card and returns every rank's: empty
    // for this rank and for the ranks that ended before they published one
    // (`ended`, with the reason). Those are left out of the connections and
    // are failed processes from the start (reported at open_reports), as is
    // a peer that `ended_since` says ended while this rank connects to it.
    struct Wired {
        std::vector<std::string> cards;
        std::vector<std::pair<int, std::string>> ended;
        std::function<bool(int peer, std::string *why)> ended_since;  // may be empty
        // A replacement's: a rank's card as it is now ("" when there is
        // none; may throw std::runtime_error), for reach_fellow. May be empty.
        std::function<std::string(int peer)> reread;
    };
    using Exchange = std::function<Wired(const std::string &card)>;
    std::string start(const transport::RouterOptions &options, const Exchange &exchange);
    // Once ftstate is initialized (MPI_Init's end): failures declared since
    // start() are reported to it, and later ones as they come. Before, a
    // report would be lost to ftstate's reset of its failure list.
    void open_reports();
    // Which driver carries frames to each peer, in one line ("shm 3, tcp 4").
    std::string transport_summary();
    // Whether frames to `world` go through shared memory (so it runs on this
    // host and can map this process's segments); true for this process.
    bool shares_memory_with(int world);
    // How a waiting call polls before it blocks (FTMPI_SPIN_US, FTMPI_YIELD_WHEN_IDLE).
    const Settings &settings() const { return settings_; }
    // MPI_Finalize: bye to every peer, wait for the byes (or the failure) of
    // those in `connected` (the processes this one shares a communicator
    // with), stop progress, close.
    void finalize(const std::vector<int> &connected);
    // MPI_Abort: tells every peer to end, then this process exits.
    [[noreturn]] void abort(int code);

    int rank() const { return rank_; }
    int size() const { return size_; }
    bool failed(int world) const;
    // A failure learned from outside the transport (the VM's notice, a
    // replacement's admission); any thread. Queued and the poller woken, so
    // the failure is applied before any further frame is processed; then
    // applied (and reported to ftstate) by this thread too.
    void declare_failed(int world);

    // Operations (each takes the lock).
    // Start a send or receive described by r; `refused` (an error code)
    // completes it at once with that error instead (Wait reports it).
    // *completed (if given) says, as seen under the lock, whether r already
    // completed: a blocking call then has nothing to wait for.
    int post(MPI_Request r, int refused = MPI_SUCCESS, bool *completed = nullptr);
    int cancel(MPI_Request r);
    void release(MPI_Request r);  // MPI_Request_free
    // Probe: finds the first matching unexpected message; with `take`,
    // removes it into *out (MPI_Mprobe). Blocks when `block`.
    // ANY_SOURCE: returns probe_again once a failure was reported after
    // `any_source_epoch` (a reported_epoch() value), so the caller asks ftstate.
    int probe(int source_world, int tag, MPI_Comm comm, uint32_t context, bool block, bool take, int *flag,
              MPI_Status *status, std::unique_ptr<Unexpected> *out, uint64_t any_source_epoch);
    static constexpr int probe_again = -1;
    int receive_message(MPI_Request r, std::unique_ptr<Unexpected> message);  // MPI_Mrecv/Imrecv
    MPI_Request make_generalized(std::function<bool(MPI_Status *)> advance, bool event_driven = false);
    // Ends an active request now with `status` (p2p::complete_round); does
    // nothing to one already complete.
    void complete_now(MPI_Request r, const MPI_Status &status);

    // Waiting: `done` is evaluated under the lock.
    void wait_until(const std::function<bool()> &done);
    void progress();  // one non-blocking step (MPI_Test*)
    // The same step for a thread that blocks elsewhere between steps: it
    // does not count as a user polling, so the progress thread still takes
    // over the waiting for frames meanwhile.
    void progress_between_sleeps();
    std::mutex &mutex() { return mu_; }
    // Posted receives not matched yet, and messages nobody received yet (queue_lengths.cpp).
    std::pair<std::size_t, std::size_t> queue_lengths();

    // Buffered sends (internal/bsend_buffer.hpp, buffer.cpp). `slot` is the
    // process's (process_buffer()), a communicator's or a session's; attach
    // makes it when null. Detach and flush wait until every message counted
    // against it has left; detach of a slot with nothing attached gives
    // null and 0. iflush_buffer: a request that completes then.
    std::shared_ptr<BsendBuffer> &process_buffer() { return process_bsend_; }
    int attach_buffer(std::shared_ptr<BsendBuffer> &slot, void *buffer, size_t size);
    int detach_buffer(std::shared_ptr<BsendBuffer> &slot, void **buffer, size_t *size);
    void flush_buffer(std::shared_ptr<BsendBuffer> &slot);
    MPI_Request iflush_buffer(std::shared_ptr<BsendBuffer> &slot);

    // ---- Fault tolerance (ftmpi/FT_CONTRACTS.md) ----
    // Declared failures so far; and the number already reported to
    // ft::on_failure (waiters that ask ftstate about a failure wait on this one).
    uint64_t failure_epoch() const { return failures_.failure_epoch(); }
    // Requests completed so far (p2p::completions).
    uint64_t completions() const { return completions_.load(std::memory_order_acquire); }
    uint64_t reported_epoch() const { return failures_.reported_epoch(); }
    void settle_reports();  // p2p::settle_failure_reports
    bool said_bye(int world);
    int revoke(MPI_Comm comm);
    bool context_revoked(uint32_t context);
    bool revoked_locked(MPI_Comm comm) const;  // lock held: comm revoked here or by a frame
    void forget_context(uint32_t context);
    void fail_pending(MPI_Comm comm, int code);
    int flush(const std::vector<int> &worlds, uint32_t context);
    void purge(uint32_t context);
    // A blocking MPI_ANY_SOURCE receive stopped by a failure: takes r back if
    // nothing matched it yet (true); false if it matched (it will complete).
    bool withdraw(MPI_Request r);
    // r is a posted receive nothing matched yet (a failure may stop it).
    bool awaiting_match(MPI_Request r);

    // ---- REBUILD joining (p2p/joins.cpp) ----
    // This process's incarnation and recovery round (a replacement's
    // FTMPI_INCARNATION / FTMPI_ROUND); set before start(). A replacement's
    // start() connects to every rank it has a record of (Router::join).
    void set_identity(int incarnation, int round);
    int wait_joined(const std::vector<int> &worlds, const std::vector<int> &incarnations, int deadline_ms);
    void admit(int world, int incarnation);
    int peer_incarnation(int world);
    // A fellow replacement of this round, expected at `incarnation`, that
    // this process is not connected to (it read the fellow's old card):
    // reads the fellow's card again until it names that incarnation, then
    // connects. True once connected to it at that incarnation, by this
    // connection or by the fellow's own; false at `deadline`, when `gone`
    // says the fellow failed, or when its new address does not answer.
    bool reach_fellow(int world, int incarnation, std::chrono::steady_clock::time_point deadline,
                      const std::function<bool()> &gone);

    // ---- Processes added by MPI_Comm_spawn (p2p/spawned.cpp) ----
    // Makes room for `worlds` (not connected, not failed until they connect
    // or fail) and waits until each is connected, said bye or failed, or the
    // deadline passes: the ones still missing then are declared failed.
    void wait_connected(const std::vector<int> &worlds, int deadline_ms,
                        const char *why = "a spawned process did not connect in time");

    // ---- Processes of another job (p2p/foreign.cpp) ----
    std::string own_contact();
    void expect_foreign(const std::vector<ForeignPeer> &peers);
    void reach_foreign(const std::vector<ForeignPeer> &peers, std::chrono::steady_clock::time_point deadline);
    bool has_foreign();
    bool process_before(int a, int b);

private:
    Engine() = default;
    using Lock = std::unique_lock<std::mutex>;

    // transport::Sink (called with the lock held, by the poller)
    transport::Landing on_header(int peer, const transport::Frame &) override;
    void on_frame(int peer, const transport::Frame &, const transport::Landing &) override;
    void on_sent(uint64_t token) override;
    void on_peer_lost(int peer) override;
    void on_joined(int peer) override;  // joins.cpp
    void renew_peer(int peer);          // joins.cpp: a new incarnation's per-peer state (lock held)
    void wake_all();                    // joins.cpp: every waiter re-checks (a deadline passed)
    // Not the progress thread, and not inside a generalized request's
    // advance function (the engine's own work, whoever runs it).
    bool called_by_user() const;
    // joins.cpp: wait_until, also ended when `deadline` passes (`done` then
    // decides); returns done()'s last answer.
    bool wait_until_deadline(std::chrono::steady_clock::time_point deadline, const std::function<bool()> &done);
    void grow_locked(int n);  // spawned.cpp
    // Numbers given to processes of another job (foreign.cpp): the VM never
    // reports them, so a broken connection to one is its failure at once.
    std::vector<char> foreign_;
    bool is_foreign(int peer) const {
        return peer >= 0 && peer < static_cast<int>(foreign_.size()) && foreign_[static_cast<size_t>(peer)];
    }
    void mark_foreign_locked(const ForeignPeer &f);
    struct ForeignIdentity {
        std::string job;
        int world = -1;
        bool job_first = false;
    };
    // Per number given to another job's process. Its own (leaf) mutex:
    // process_before is asked by the agreements under their own locks.
    std::mutex identity_mu_;
    std::map<int, ForeignIdentity> foreign_identity_;
    // "a process of job J (its world rank W there)", or "" for a process of this job.
    std::string foreign_name(int peer);
    int my_incarnation_ = 0, my_round_ = 0;                   // set_identity
    std::function<std::string(int)> reread_card_;             // Wired::reread, set by start()
    static std::chrono::milliseconds join_connect_timeout();  // FTMPI_JOIN_CONNECT_MS

    int post_send(MPI_Request r);
    int post_recv(MPI_Request r);
    int send_local(MPI_Request r);
    void take_unexpected(MPI_Request r, Unexpected &&u);
    void deliver(MPI_Request r, const char *data, size_t len);
    void finish_recv(MPI_Request r, size_t received, int error);
    void finish(MPI_Request r, int error);
    void finish_cancelled(MPI_Request r);
    void cancel_send(MPI_Request r);  // lock held
    void on_cancel_frame(int peer, const transport::Frame &f);
    bool any_member_failed(MPI_Comm comm) const;
    void send_control(int peer, transport::Frame f);

    void poll_step(Lock &lk, bool block);
    void run_advances(Lock &lk);
    void progress_thread_main();
    void wait_locked(Lock &lk, const std::function<bool()> &done);

    std::mutex mu_;  // guards all of the engine's state, match_, turn_ and failures_ included
    Settings settings_;
    int rank_ = 0, size_ = 1;
    bool running_ = false;
    // The drivers are open: the job has other processes, or may get some
    // (MPI_Comm_spawn) and this process is reachable for them.
    bool networked_ = false;
    std::unique_ptr<transport::Router> net_;
    std::thread progress_thread_;
    std::thread::id progress_thread_id_;  // set by that thread, under the lock
    bool stopping_ = false;

    MatchQueues match_;
    ProgressTurn turn_;
    FailureRecord failures_;
    std::vector<MPI_Request> generalized_;
    std::atomic<uint64_t> completions_{0};  // finish() calls, read without the lock

    // Buffered sends: the process's buffer, and the one a send from comm uses.
    std::shared_ptr<BsendBuffer> process_bsend_ = std::make_shared<BsendBuffer>();
    std::shared_ptr<BsendBuffer> buffer_for(MPI_Comm comm);  // lock held

    // ---- Fault tolerance state and helpers (failures.cpp, revoke.cpp, flush.cpp) ----
    void apply_injected();                                          // lock held
    void declare_failed_locked(int world, const std::string &why);  // lock held
    void report(Lock &lk);                                          // calls ftstate without the lock
    bool revoked_at_post(const ftmpi_request_s &r) const;           // lock held
    // Completes the pending operations `pred` selects with `code` (lock held).
    void fail_ops_if(const std::function<bool(const ftmpi_request_s &)> &pred, int code);
    void on_revoke_frame(uint32_t context);           // lock held
    void on_flush_frame(int peer, uint32_t context);  // lock held
    void release_held(Lock &lk);                      // drops to_release_'s references without the lock
    void send_revoke(MPI_Comm comm);                  // lock held

    bool draining_ = false;                // declare_failed_locked is taking in a failed peer's last frames
    std::vector<MPI_Request> stalled_;     // sends to suspected peers, waiting for the verdict
    std::set<uint32_t> revoked_contexts_;  // contexts revoked here or by a frame (forwarded once)
    // Its size, read without the lock: most programs never revoke, and then
    // is_revoked (asked by every one-sided operation) takes no lock.
    std::atomic<size_t> revoked_count_{0};
    std::vector<MPI_Comm>
        to_release_;  // references to drop without the lock: comms a revoke frame found, and those of completed operations
    std::map<std::pair<int, uint32_t>, uint64_t> flush_arrived_, flush_waited_;  // (peer, context) markers
};

}  // namespace ftmpi::p2p

struct ftmpi_message_s {
    std::unique_ptr<ftmpi::p2p::Unexpected> message;
    MPI_Comm comm = MPI_COMM_NULL;
};
// The fixed-size storage of MPI_MESSAGE_NO_PROC (internal/predefined_storage.hpp).
FTMPI_PREDEFINED_STORAGE(ftmpi_predefined_message_u, ftmpi_message_s, 128);
