// Owner: coll (mpicoll).
//
// Every collective algorithm is written once, as a Schedule: a list of rounds,
// each round a set of sends and receives that are posted together, followed by
// local steps (reductions, copies) that run once all of the round's messages
// are complete. The blocking call runs the schedule to the end with
// p2p::wait_all per round; the non-blocking call hands the same schedule to
// p2p::make_generalized, whose advance function posts and tests rounds without
// ever blocking. So Ibcast and Bcast share one algorithm, and a failure that
// p2p reports (MPIX_ERR_PROC_FAILED) ends both the same way: the schedule stops
// after the failed round and its error becomes the collective's.
//
// Messages travel on the communicator's collective channel with one tag per
// collective call (a per-communicator sequence number), so overlapping
// non-blocking collectives never match each other's messages.
#pragma once

#include "mpi.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

namespace ftmpi::coll {

class Schedule {
public:
    // Draws the next collective tag of comm (every member draws the same one,
    // because collectives are called in the same order on all members).
    explicit Schedule(MPI_Comm comm);
    ~Schedule();
    Schedule(const Schedule &) = delete;
    Schedule &operator=(const Schedule &) = delete;

    MPI_Comm comm() const { return comm_; }

    // Messages of the current round; peer is a rank of comm (of the remote
    // group on an intercommunicator). Zero-count messages are still sent:
    // they carry synchronization (barriers).
    void send(const void *buf, int count, MPI_Datatype type, int peer);
    void recv(void *buf, int count, MPI_Datatype type, int peer);
    // Local work run after the current round's messages completed; returns
    // an MPI error code (a failing step ends the schedule with that code).
    void then(std::function<int()> step);
    // Closes the current round; the next send/recv/then starts a new one.
    void end_round();

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
    // Non-blocking execution: a request completed by the p2p progress engine.
    // The request owns the schedule.
    static int start(std::unique_ptr<Schedule> schedule, MPI_Request *request);

private:
    struct Message {
        bool is_send;
        void *buf;
        int count;
        MPI_Datatype type;
        int peer;
    };
    struct Round {
        std::vector<Message> messages;
        std::vector<std::function<int()>> steps;
    };

    Round &current();
    int post(Round &round);            // posts round's messages into requests_
    int finish(Round &round, int err); // error of the requests, then the steps
    bool advance(MPI_Status *status);  // one non-blocking pass; true when done

    MPI_Comm comm_;
    int tag_;
    std::vector<Round> rounds_;
    bool round_open_ = false;
    std::vector<std::unique_ptr<char[]>> scratch_;
    std::vector<MPI_Datatype> held_types_;
    std::vector<MPI_Op> held_ops_;

    // Execution state.
    size_t next_ = 0;                  // next round to post
    bool posted_ = false;              // requests_ belong to round next_
    int error_ = MPI_SUCCESS;
    std::vector<MPI_Request> requests_;
    std::vector<MPI_Status> statuses_;
};

}  // namespace ftmpi::coll
