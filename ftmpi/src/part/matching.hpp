// How partitioned requests match (MPI-4.0 §4.2.2): a send and a receive of
// the same (peer, tag, communicator) match in the order of their
// MPI_Psend_init and MPI_Precv_init calls, once, at the first MPI_Start,
// and stay matched for every later round, whatever order the requests are
// started in.
//
// Each request learns its place in that order at init (`seq`: the n-th
// MPI_Psend_init to (dest, tag) on the communicator, the n-th
// MPI_Precv_init from (source, tag)). A receive also gets a data tag of its
// own on the collective channel, unique among this process's partitioned
// receives on the communicator. At its first MPI_Start it sends its sender
// a handshake {seq, data tag} under handshake_tag(tag); the sender's
// Mailbox for (dest, tag) takes handshakes in whatever order they arrive
// and gives each send request the data tag of the receive with its seq.
// Every round's message then travels under that tag, so it lands only in
// its own receive.
#pragma once

#include "comm/agree.hpp"
#include "internal/p2p.hpp"
#include "mpi.h"

#include <map>
#include <memory>
#include <mutex>
#include <utility>

namespace ftmpi::part {

// Collective-channel tags: handshakes under handshake_tag_base + user tag
// (0..MPI_TAG_UB), data under data_tag_base + a receive's number. Above
// the collectives' sequence tags and the comm part's MPI_Comm_create_group
// range, below its announce/idup tags and agreements and the
// fault-tolerance machinery's (internal/p2p.hpp ft_tag_base).
constexpr int max_user_tag = 0x0fffffff;  // MPI_TAG_UB (comm/attributes.cpp)
constexpr int handshake_tag_base = 0x60000000;
constexpr int data_tag_base = handshake_tag_base + max_user_tag + 1;
constexpr int data_tags = comm::announce_and_idup_floor - data_tag_base;
static_assert(handshake_tag_base > comm::create_group_tag_base + max_user_tag + 2 && data_tags > 0,
              "partitioned tags overlap another reserved range of the collective channel");

// A sender's view of the handshakes from `dest` under one user tag.
class Mailbox {
public:
    Mailbox(MPI_Comm comm, int dest, int tag) : comm_(comm), dest_(dest), tag_(tag) {}
    Mailbox(const Mailbox &) = delete;
    Mailbox &operator=(const Mailbox &) = delete;

    // The data tag of the receive that send `seq` matches: MPI_SUCCESS with
    // *data_tag set once its handshake arrived, -1 while not; an error
    // class once handshakes can no longer arrive (the peer failed, the
    // communicator was revoked). Never blocks. Keeps a receive for the next
    // handshake posted only while a caller still waits for its own.
    // Call under p2p::AdvancesDeferred.
    int lookup(int seq, int *data_tag);

private:
    std::mutex mu_;
    MPI_Comm comm_;
    int dest_;
    int tag_;
    MPI_Request pending_ = MPI_REQUEST_NULL;  // the receive of the next handshake
    int incoming_[2] = {0, 0};                // {seq, data tag}
    std::map<int, int> arrived_;              // seq -> data tag, for sends that did not ask yet
    int error_ = MPI_SUCCESS;
};

// A communicator's partitioned inits so far (ftmpi_comm_s::partitioned).
class CommMatching {
public:
    // A new send to (dest, tag): its place among them, and the mailbox of
    // their handshakes.
    int next_send(MPI_Comm comm, int dest, int tag, std::shared_ptr<Mailbox> *mailbox);
    // A new receive from (source, tag): its place among them, and a data tag
    // of its own.
    int next_recv(int source, int tag, int *data_tag);

private:
    std::mutex mu_;
    std::map<std::pair<int, int>, int> sends_;  // (dest, tag) -> inits so far
    std::map<std::pair<int, int>, int> recvs_;  // (source, tag) -> inits so far
    std::map<std::pair<int, int>, std::shared_ptr<Mailbox>> mailboxes_;
    int next_data_ = 0;
};

// comm's matching state, made at its first partitioned init.
std::shared_ptr<CommMatching> matching_of(MPI_Comm comm);

}  // namespace ftmpi::part
