// Partitioned communication (MPI-4.0 chapter 4) inside libftmpi: what a
// partitioned request is and how the bindings find it (README.md).
//
// A partitioned request is a persistent request of the p2p engine whose
// rounds it ends itself (p2p::make_persistent_owned): MPI_Start(all),
// Wait/Test and Request_free treat it like any persistent request. Each
// MPI_Start calls Partitioned::start, which begins a round: the send is one
// p2p isend of the whole buffer once the last partition is ready and the
// matching receive is known (matching.hpp), the receive one p2p irecv
// posted at MPI_Start. Both travel on the communicator's collective
// channel under the receive's own data tag, so they match only each other,
// never a program's MPI_Send/MPI_Recv nor another partitioned request.
#pragma once

#include "mpi.h"
#include "part/matching.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace ftmpi::part {

struct Partitioned {
    bool send = true;
    void *buf = nullptr;
    int partitions = 0;
    int elements = 0;  // of the whole buffer: partitions * count
    MPI_Datatype type = MPI_DATATYPE_NULL;
    int peer = MPI_PROC_NULL;  // dest or source, a rank of comm
    int tag = 0;
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Request self = MPI_REQUEST_NULL;  // the persistent request the program holds

    // Matching (matching.hpp), set at init: the place among the inits of
    // (peer, tag); a receive's own data tag; a send's mailbox.
    int seq = 0;
    std::shared_ptr<Mailbox> mailbox;

    // Guarded by mu. A round is active from MPI_Start until its message is
    // out (send) or in (receive).
    std::mutex mu;
    bool active = false;
    uint64_t round = 0;           // MPI_Start calls so far
    int data_tag = -1;            // a send's: -1 until the receive's handshake arrived
    bool handshake_sent = false;  // a receive's, at its first MPI_Start
    int handshake[2] = {0, 0};    // {seq, data_tag}, while it is being sent
    std::vector<char> ready;      // send: the partitions marked ready this round
    int ready_count = 0;
    // The round's isend or irecv until it completed, and a receive's
    // handshake send until it completed.
    MPI_Request op = MPI_REQUEST_NULL;
    MPI_Request handshake_op = MPI_REQUEST_NULL;
    bool posted = false;  // send: the round's isend was posted
    bool done = false;    // the round ended (complete_round was called)

    Partitioned() = default;
    Partitioned(const Partitioned &) = delete;
    Partitioned &operator=(const Partitioned &) = delete;
    // Holds `type` (the program may free its handle after the init call,
    // as for any persistent request) and gives it back when the request goes.
    void hold(MPI_Datatype held);
    ~Partitioned();

    // MPI_Start: begins a round; *drive advances it from the progress
    // engine until it ended. Returns an MPI error class (then no round).
    int start(const std::shared_ptr<Partitioned> &self_state, std::function<bool()> *drive);
    // Moves the round on as far as it can without blocking (mu held, under
    // p2p::AdvancesDeferred): takes in the handshake, sends once every
    // partition is ready, tests the message; ends the round (completes the
    // persistent request) when its message is out or in. True once ended.
    bool advance_locked();

private:
    void end_round(MPI_Status status);
};

// The request's partitioned state, or nullptr for any other request.
std::shared_ptr<Partitioned> find(MPI_Request request);
// Makes the persistent request of `state` (MPI_Psend_init, MPI_Precv_init).
int make_request(std::shared_ptr<Partitioned> state, MPI_Request *request);

}  // namespace ftmpi::part
