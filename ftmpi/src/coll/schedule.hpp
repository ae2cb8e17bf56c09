// Every collective algorithm is written once, as a Schedule: a list of rounds,
// each round a set of sends and receives that are posted together, followed by
// local steps (reductions, copies) that run once all of the round's messages
// are complete. The blocking call runs the schedule to the end with
// p2p::wait_all per round; the non-blocking call hands the same schedule to
// p2p::make_generalized, whose advance function posts and tests rounds without
// ever blocking. So Ibcast and Bcast share one algorithm and fail the same way.
//
// Failures (ftmpi/FT_CONTRACTS.md, "Collectives under failures"): once a
// round fails (a peer failed, the communicator was revoked, a marker came in)
// the schedule does NOT stop. It goes on through every remaining round in
// *degraded* mode: receives are still posted (so a peer's rendezvous send can
// finish), every send becomes an error marker (a message of the wrong size:
// 0 bytes where data was due, 1 byte where 0 were), and local steps are
// skipped. A receiver that gets a marker fails the same way. So every live
// member still sends everything it owes, nobody waits forever on a live peer
// that gave up, and the error reaches every process whose result depends on
// the failed one. The failure-free path is unchanged but for one size
// comparison per received message.
//
// Ranks: algorithms work on the *live view* of the communicator: size() and
// rank() count only live members, and peers passed to send/recv are view
// ranks. On a communicator without gaps (the normal case) the view is the
// communicator itself. On a BLANK communicator (group->world[i] == -1 marks
// a gap, FT_CONTRACTS.md "Recovery") the view is the dense list of live
// ranks, and comm_rank() maps a view rank back to the comm rank that indexes
// the user's buffers, so gap positions are never touched.
//
// Messages travel on the communicator's collective channel with one tag per
// collective call (a per-communicator sequence number), so overlapping
// non-blocking collectives never match each other's messages.
#pragma once

#include "internal/ft.hpp"
#include "mpi.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace ftmpi::coll {

class Schedule {
public:
    // Draws the next collective tag of comm (every member draws the same one,
    // because collectives are called in the same order on all members).
    explicit Schedule(MPI_Comm comm);
    // The same over an explicit view: `live` lists the comm ranks taking
    // part, in increasing order, this process's among them (strict Bcast
    // retries over the survivors).
    Schedule(MPI_Comm comm, std::vector<int> live);
    ~Schedule();
    Schedule(const Schedule &) = delete;
    Schedule &operator=(const Schedule &) = delete;

    MPI_Comm comm() const { return comm_; }

    // The live view (see above). On an intercommunicator it is the local
    // group as is, and peers are ranks of the remote group.
    int size() const { return size_; }
    int rank() const { return rank_; }
    bool has_gaps() const { return !live_.empty(); }
    // The comm rank of view rank v (identity without gaps).
    int comm_rank(int v) const { return live_.empty() ? v : live_[static_cast<size_t>(v)]; }
    // The view rank of comm rank c, or -1 when c is a gap.
    int view_rank(int c) const;

    // Messages of the current round; peer is a view rank (a rank of the
    // remote group on an intercommunicator). Zero-count messages are still
    // sent: they carry synchronization (barriers).
    void send(const void *buf, int count, MPI_Datatype type, int peer);
    void recv(void *buf, int count, MPI_Datatype type, int peer);
    // Local work run after the current round's messages completed; returns
    // an MPI error code (a failing step ends the schedule with that code).
    void then(std::function<int()> step);
    // The two steps nearly every algorithm has (steps.hpp), kept as data so
    // that they allocate nothing: inout = in op inout, and coll::copy.
    void then_reduce(MPI_Op op, const void *in, void *inout, int count, MPI_Datatype type);
    void then_copy(const void *src, int scount, MPI_Datatype stype, void *dst, int rcount, MPI_Datatype rtype);
    // Closes the current round; the next send/recv/then starts a new one.
    void end_round();
    // Strict collectives: a last round that agrees (ft::agree / ft::iagree)
    // over the live members on "the schedule succeeded here", so the call
    // succeeds everywhere or fails everywhere. It runs in degraded mode too.
    void agree_at_end();

    // Memory owned by the schedule, alive until it is destroyed.
    char *scratch(size_t bytes);
    // Room for `count` elements of `type`, returned as the buffer address to
    // pass with (count, type): the allocation starts at that address + true_lb.
    char *scratch_for(int count, MPI_Datatype type);

    // Keeps a user type or op alive while a non-blocking collective uses it.
    void hold(MPI_Datatype type);
    void hold(MPI_Op op);

    // Blocking execution: returns MPI_SUCCESS or the first error.
    int run();
    // No round sends, receives or agrees (a communicator of one, nothing
    // to move): nothing in the run would notice a revoked communicator.
    bool talks_to_nobody() const;
    // Non-blocking execution: a request completed by the p2p progress engine.
    // The request owns the schedule.
    static int start(std::unique_ptr<Schedule> schedule, MPI_Request *request);

    // The comm ranks of comm's members this process knows to have failed
    // (the contribution to an agreement).
    static std::vector<int> known_failed(MPI_Comm comm);

private:
    struct Message {
        bool is_send;
        void *buf;
        int count;
        MPI_Datatype type;
        int peer;      // comm rank (already mapped from the view)
        size_t bytes;  // data bytes: a receive of a different size is a marker
    };
    struct Step {
        enum class Kind : uint8_t { reduce, copy, call } kind = Kind::call;
        MPI_Op op = MPI_OP_NULL;  // reduce
        const void *src = nullptr;
        void *dst = nullptr;
        int count = 0;
        MPI_Datatype type = MPI_DATATYPE_NULL;
        int dst_count = 0;  // copy
        MPI_Datatype dst_type = MPI_DATATYPE_NULL;
        std::function<int()> call;
        int run() const;
    };
    struct Round {
        std::vector<Message> messages;
        std::vector<Step> steps;
        size_t largest_receive = 0;  // bytes: a round of small receives posts its sends first
        bool agreement = false;
    };
    // The vectors a schedule fills. A schedule hands them, emptied but with
    // their capacity, to the next one its thread builds: a short collective
    // then allocates nothing for its rounds, messages and requests.
    struct Storage {
        std::vector<Round> rounds;  // rounds[0 .. used) belong to the schedule
        std::vector<MPI_Request> requests;
        std::vector<MPI_Status> statuses;
    };
    struct Pool {
        std::vector<Storage> free;
        ~Pool();
    };
    // This thread's pool; null once it is destroyed (a schedule freed while
    // the thread exits).
    static Pool *storage_pool();
    static void take_storage(Storage &into);
    static void give_back_storage(Storage &&from, size_t used);
    void adopt_storage();
    // The final agreement of a strict collective (schedule_agreement.cpp).
    struct Agreement {
        ft::Agreement value;
        MPI_Request request = MPI_REQUEST_NULL;
        bool started = false;
    };

    Round &current();
    Round &add_round();
    void add_step(Step &&step);
    int post(Round &round, bool degraded);  // posts round's messages into requests_; first post error
    int received_error(const Round &round, int waited) const;
    int finish(Round &round);  // the steps, unless degraded
    int agree_blocking();
    bool agree_advance();              // true when the agreement completed
    bool advance(MPI_Status *status);  // one non-blocking pass; true when done

    MPI_Comm comm_;
    int tag_;
    int size_ = 0, rank_ = 0;
    std::vector<int> live_;      // view rank -> comm rank; empty = identity
    std::vector<Round> rounds_;  // only the first rounds_used_ are this schedule's
    size_t rounds_used_ = 0;
    bool round_open_ = false;
    // Scratch of a few elements (a short reduction's incoming value) comes
    // from inside the schedule, larger scratch from the heap.
    alignas(std::max_align_t) char small_scratch_[128];
    size_t small_scratch_used_ = 0;
    std::vector<std::unique_ptr<char[]>> scratch_;
    std::vector<MPI_Datatype> held_types_;
    std::vector<MPI_Op> held_ops_;

    // Execution state.
    size_t next_ = 0;               // next round to post
    bool posted_ = false;           // requests_ belong to round next_
    bool posted_degraded_ = false;  // ... and were posted in degraded mode
    int post_error_ = MPI_SUCCESS;  // ... and this failed to post
    int error_ = MPI_SUCCESS;
    std::vector<MPI_Request> requests_;
    std::vector<MPI_Status> statuses_;
    std::unique_ptr<Agreement> agreement_;
};

}  // namespace ftmpi::coll
