// What an MPI_Request is inside the p2p engine.
//
// A request lives from its MPI_Isend/Irecv (or *_init) until the user's
// Wait/Test/Request_free retires it; `complete` says the operation ended and
// `status` holds its result (MPI_ERROR included). All fields are guarded by
// the engine's lock.
#pragma once

#include "internal/bsend_buffer.hpp"
#include "internal/datatype.hpp"
#include "internal/p2p.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace ftmpi::p2p {

enum class RequestKind : uint8_t { send, recv, generalized };
enum class SendMode : uint8_t { standard, buffered, synchronous, ready };

}  // namespace ftmpi::p2p

struct ftmpi_request_s {
    ftmpi::p2p::RequestKind kind = ftmpi::p2p::RequestKind::send;
    ftmpi::p2p::SendMode mode = ftmpi::p2p::SendMode::standard;
    bool complete = false;
    bool persistent = false;
    bool active = false;      // started and not yet retired by Wait/Test
    bool user_freed = false;  // MPI_Request_free while pending: the engine deletes it on completion
    bool cancelled = false;
    uint64_t id = 0;  // names the request in rendezvous frames (engine's id map)
    MPI_Status status{};

    // The operation as the user gave it (kept for persistent restarts).
    void *buf = nullptr;
    MPI_Count count = 0;  // elements of type: any number, not only an int's
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_Comm comm = MPI_COMM_NULL;
    ftmpi::p2p::Channel channel = ftmpi::p2p::Channel::user;
    int rank_arg = 0;  // dest or source as a rank of comm
    int tag = 0;

    // Resolved when started.
    uint32_t context = 0;
    int peer = -1;               // world rank of dest/source; -1: MPI_ANY_SOURCE
    size_t bytes = 0;            // send: message size; recv: capacity
    const char *data = nullptr;  // send: contiguous bytes to send
    char *landing = nullptr;     // recv: where bytes go (user buffer or staging)
    std::vector<char> packed;    // send: packed copy (non-contiguous or buffered); recv: staging
    int matched_peer = -1;       // recv: world rank it matched (rendezvous pending)
    size_t bsend_reserved = 0;   // buffered: bytes held in bsend_buffer
    std::shared_ptr<ftmpi::p2p::BsendBuffer> bsend_buffer;  // buffered: the buffer the message counts against
    bool watch_failures = false;  // recv: user-channel MPI_ANY_SOURCE (ULFM: PENDING, not ended by a failure)
    bool streaming = false;       // send: data frame written from buf (on_sent completes it); not failed early
    bool cancel_asked = false;    // send: MPI_Cancel asked the receiver to take the message back
    // The engine holds a reference on comm while the operation is pending,
    // so MPI_Comm_free meanwhile leaves it usable until the operation ends.
    bool comm_held = false;

    // Generalized requests (non-blocking collectives).
    std::function<bool(MPI_Status *)> advance;
    // Runs once, without the engine's lock, when the program is done with
    // the request: Wait/Test retired it, or MPI_Request_free freed it (at
    // once, or when it completes). MPI_Grequest_start's free_fn; its code
    // becomes the retiring call's error (MPI-3.1 §12.2).
    std::function<int()> on_release;
    bool advancing = false;
    // The advance has work only after the engine took in frames or a
    // failure (make_event_driven): the progress thread may sleep until then.
    bool event_driven = false;

    // Persistent requests keep their datatype from MPI_*_init until freed:
    // the program may free its handle in between (MPI-3.1 §4.1.9).
    MPI_Datatype held_type = MPI_DATATYPE_NULL;
    // Persistent collectives (MPI_Bcast_init, …): MPI_Start runs this, which
    // starts the non-blocking collective and returns its request.
    std::function<int(MPI_Request *)> start_collective;
    // Persistent requests whose maker ends each round (make_persistent_owned).
    std::function<int(MPI_Request, std::function<bool()> *)> start_owned;

    ftmpi_request_s() = default;
    ftmpi_request_s(const ftmpi_request_s &) = delete;
    ftmpi_request_s &operator=(const ftmpi_request_s &) = delete;
    ~ftmpi_request_s() {
        if (held_type != MPI_DATATYPE_NULL) ftmpi::dt::release(held_type);
    }
};

struct ftmpi_message_s;  // p2p/engine.hpp

namespace ftmpi::p2p {

// An MPI_ANY_SOURCE receive that a member's failure ends with
// MPIX_ERR_PROC_FAILED: collective-channel ones of the collectives. Not a
// user-channel one (ULFM: Wait reports PROC_FAILED_PENDING and it stays
// pending) nor one of the fault-tolerance machinery (ft tags).
inline bool any_source_ended_by_failure(const ftmpi_request_s &r) {
    return r.channel == Channel::collective && r.tag < ft_tag_base;
}

}  // namespace ftmpi::p2p
