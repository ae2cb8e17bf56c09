// A communicator's shared-memory collective state and its set-up (node.hpp
// says when and how), and the waiting every shared-memory collective does.
#pragma once

#include "node_segment.hpp"

#include "internal/comm.hpp"
#include "mpi.h"

#include <cstdint>

namespace ftmpi::coll::node {

struct State {
    enum class Status : uint8_t { on, off };
    Status status = Status::off;
    Segment segment;
    uint64_t last = 0;  // the number of the last collective run through the segment
};

// The largest message the segment's buffers carry (FTMPI_COLL_SHM_BYTES);
// 0 when shared-memory collectives are off.
size_t capacity();

// Whether comm may use the segment for a call at all, before any set-up:
// an intracommunicator of 2..64 members without gaps, not strict.
// Every member answers alike.
bool shaped_for(MPI_Comm comm);

// At a call's start: comm's state, set up at its first call (collective:
// every member calls it at the same collective). Null when comm does not
// use shared memory, is revoked or has a member known failed (*err
// MPI_SUCCESS: run the schedules, which say which error), or when the
// set-up failed (*err says why: a member failed during it; the call fails
// with that). *epoch: p2p's failure count the checks saw, for Call.
State *enter(MPI_Comm comm, uint64_t *epoch, int *err);

// One shared-memory collective: draws comm's collective tag and number
// (so a later call that takes the schedules on some members still lines up
// with the others), and waits for the segment's words with the failure
// checks of node.hpp.
class Call {
public:
    // `slot_bytes`: what this member's slot holds in this collective (it
    // picks the ring).
    Call(MPI_Comm comm, State &state, uint64_t epoch, size_t slot_bytes);
    const Segment &segment() const { return segment_; }
    // Member m's data of this collective.
    char *data(int m) const { return segment_.data(m, n_, ring_); }
    uint64_t number() const { return n_; }
    int me() const { return me_; }
    int members() const { return members_; }

    // Waits until member m arrived at barrier n (or a later one); an MPI code.
    int await_arrived(int m);
    // Waits until member m's data of collective n is in its slot.
    int await_data(int m);
    // Waits until every member other than this one finished the
    // collective that last used the slot collective n writes (n - the
    // ring's depth).
    int await_slot_free();
    // This member arrived at barrier n / put its data of collective n in
    // its slot / finished reading collective n: the words others wait for.
    void arrive();
    void publish();
    void finish();

private:
    // Waits until ready() (a word member m writes) holds.
    template <class Ready>
    int wait(int m, Ready &&ready);
    int failure_code();  // MPI_SUCCESS, or why waiting must end

    MPI_Comm comm_;
    const Segment &segment_;
    uint64_t n_;
    Ring ring_;
    int me_, members_;
    uint64_t failures_seen_;
};

}  // namespace ftmpi::coll::node
