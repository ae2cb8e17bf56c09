// Partitioned communication (MPI-4.0 chapter 4) inside libftmpi: what a
// partitioned request is and how the bindings find it (README.md).
//
// A partitioned request is a persistent request of the p2p engine
// (p2p::make_persistent_collective): MPI_Start(all), Wait/Test and
// Request_free treat it like any persistent request. Each MPI_Start calls
// Partitioned::start, which makes the round's inner request; the send
// itself is one p2p isend of the whole buffer once the last partition is
// ready, the receive one p2p irecv posted at MPI_Start. Both travel on the
// communicator's collective channel under a tag of their own, so they
// match only each other, never a program's MPI_Send/MPI_Recv.
#pragma once

#include "comm/agree.hpp"
#include "mpi.h"

#include <memory>
#include <mutex>
#include <vector>

namespace ftmpi::part {

// The collective-channel tag of a partitioned message with user tag `tag`
// (0..MPI_TAG_UB): above the collectives' sequence tags and the comm part's
// MPI_Comm_create_group range, below its agreements and the
// fault-tolerance machinery's (internal/p2p.hpp ft_tag_base).
constexpr int max_user_tag = 0x0fffffff;  // MPI_TAG_UB (comm/attributes.cpp)
constexpr int tag_base = 0x60000000;
static_assert(tag_base > comm::create_group_tag_base + max_user_tag + 2 &&
                  tag_base + max_user_tag < comm::announce_and_idup_floor,
              "partitioned tags overlap another reserved range of the collective channel");

struct Partitioned {
    bool send = true;
    void *buf = nullptr;
    int partitions = 0;
    int elements = 0;  // of the whole buffer: partitions * count
    MPI_Datatype type = MPI_DATATYPE_NULL;
    int peer = MPI_PROC_NULL;  // dest or source, a rank of comm
    int tag = 0;
    MPI_Comm comm = MPI_COMM_NULL;

    // Guarded by mu. A round is active from MPI_Start until its message is
    // out (send: the last MPI_Pready) or in (receive).
    std::mutex mu;
    bool active = false;
    std::vector<char> ready;  // send: the partitions marked ready this round
    int ready_count = 0;
    MPI_Request op = MPI_REQUEST_NULL;  // the round's isend or irecv until it completed
    bool done = false;                  // the round's isend or irecv completed: `result` holds its status
    MPI_Status result{};

    Partitioned() = default;
    Partitioned(const Partitioned &) = delete;
    Partitioned &operator=(const Partitioned &) = delete;
    // Holds `type` (the program may free its handle after the init call,
    // as for any persistent request) and gives it back when the request goes.
    void hold(MPI_Datatype held);
    ~Partitioned();

    // MPI_Start: begins a round; *inner completes when the round's message
    // has gone out or arrived. Returns an MPI error class (then no round).
    int start(const std::shared_ptr<Partitioned> &self, MPI_Request *inner);
    // Tests op (mu held); true once the round's message is out or in.
    bool test_locked();
};

// The request's partitioned state, or nullptr for any other request.
std::shared_ptr<Partitioned> find(MPI_Request request);
// Makes the persistent request of `state` (MPI_Psend_init, MPI_Precv_init).
int make_request(std::shared_ptr<Partitioned> state, MPI_Request *request);

}  // namespace ftmpi::part
