// A stand-in for the parts of libftmpi a collective Schedule runs on
// (internal/p2p.hpp's isend/irecv/wait_all/test_all/make_generalized,
// comm::world_rank_of, ft::member_failed, ft::agree/iagree), so the
// Schedule and the algorithms can be tested in one process without the
// real engine or any socket.
//
// A World is p simulated ranks, each running on a thread of its own with a
// communicator object of its own. Messages are eager: a send is copied (with
// the real datatype engine) and completes at once; a receive matches in
// (source, tag) FIFO order and is told MPI_ERR_TRUNCATE when the message is
// larger than its buffer. Ranks listed as dead never run; operations that
// need one complete with MPIX_ERR_PROC_FAILED, as the real engine does once
// a failure is declared. Every wait has a deadline: a schedule that would
// hang returns kHung instead, so the test fails instead of stalling.
#pragma once

#include "internal/comm.hpp"
#include "mpi.h"

#include <functional>
#include <memory>
#include <vector>

namespace fake {

// What a wait returns when its deadline passed: the schedule hung.
constexpr int kHung = -12345;

class World {
public:
    World(int size, std::vector<int> dead);
    ~World();
    World(const World &) = delete;
    World &operator=(const World &) = delete;

    int size() const { return size_; }
    bool dead(int rank) const;
    // Runs body(comm) on a thread per live rank, with that rank's
    // communicator, and joins them all.
    void run(const std::function<void(MPI_Comm)> &body);

private:
    int size_;
    std::vector<int> dead_;
    std::vector<std::unique_ptr<ftmpi_comm_s>> comms_;
    std::vector<std::unique_ptr<ftmpi_group_s>> groups_;
};

}  // namespace fake
