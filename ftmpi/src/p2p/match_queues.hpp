// The engine's matching state: receives posted and not matched yet, messages
// that arrived before their receive, operations that wait for a peer's reply
// (found by id from the peer's frames), and per peer the receive or
// unexpected message whose payload is being read now. Guarded by the
// engine's lock; the protocols that move entries between these queues are in
// matching.cpp.
#pragma once

#include "p2p/request.hpp"

#include <cstdint>
#include <list>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ftmpi::p2p {

// An allocator whose resize() leaves new elements uninitialised: an
// unexpected payload is overwritten by the transport at once, so zeroing it
// first is wasted work on every large eager message that arrives early.
template <class T>
struct UninitializedAllocator : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = UninitializedAllocator<U>;
    };
    UninitializedAllocator() = default;
    template <class U>
    UninitializedAllocator(const UninitializedAllocator<U> &) noexcept {}
    template <class U>
    void construct(U *p) noexcept {
        ::new (static_cast<void *>(p)) U;
    }
    template <class U, class... Args>
    void construct(U *p, Args &&...args) {
        ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...);
    }
};

// A message that arrived before its receive was posted (or an RTS for one).
struct Unexpected {
    uint32_t context = 0;
    int source = 0;  // world rank
    int tag = 0;
    size_t size = 0;          // bytes of the message
    bool rendezvous = false;  // only the RTS is here; data follows a CTS
    bool sync = false;        // the sender waits for sync_ack
    uint64_t sender_id = 0;
    std::vector<char, UninitializedAllocator<char>> data;  // eager payload
    MPI_Request local_sender = nullptr;                    // a synchronous send to self, completed at match
    // An eager payload still arriving is already queued (so a receive posted
    // meanwhile finds it, in order); a receive that matches it claims it and
    // gets the data when the last byte is in.
    bool complete = true;
    MPI_Request claimed = nullptr;
};

struct MatchQueues {
    std::list<MPI_Request> posted;
    std::list<Unexpected> unexpected;
    std::unordered_map<uint64_t, MPI_Request> by_id;
    std::vector<MPI_Request> arriving;              // per peer: the receive whose payload is being read
    std::vector<Unexpected *> arriving_unexpected;  // per peer: its entry in `unexpected` being filled

    void reset(int peers);
    void grow(int peers);  // room for world ranks MPI_Comm_spawn added
    // A new incarnation of `peer`: nothing of the old one is arriving.
    void renew_peer(int peer);
    // Gives r an id the peer's replies (CTS, data, acks) name it by.
    uint64_t register_id(MPI_Request r);
    void forget_id(MPI_Request r);
    // The first posted receive that matches, in posting order; with
    // `remove`, taken off the queue.
    MPI_Request find_posted(uint32_t context, int source, int tag, bool remove);
    // The first unexpected message a receive for (context, source, tag)
    // matches (source -1: any), or unexpected.end(); with `whole`, only one
    // whose payload is all in (a probe).
    std::list<Unexpected>::iterator find_unexpected(uint32_t context, int source, int tag, bool whole = false);
    void erase_unexpected(const Unexpected *u);
    // A transport is still writing into r's buffer (its payload is arriving).
    bool receiving_into(MPI_Request r) const;

private:
    uint64_t next_id_ = 1;
};

}  // namespace ftmpi::p2p
