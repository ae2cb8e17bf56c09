// The frames ranks exchange over TCP.
//
// Every message starts with one fixed 48-byte header in host byte order
// (ranks of one job run on hosts of one architecture). A small message is
// one `eager` frame carrying its payload. A large one is a rendezvous:
// `rts` (the size, no payload) → the receiver matches it and answers `cts`
// → the sender streams one `data` frame straight from the user's buffer into
// the receiver's. `sync_ack` completes a synchronous-mode eager send once it
// matched. `bye` says the sender is finalizing (so its EOF afterwards is not
// a failure); `abort` ends the job.
//
// `hello` opens a connection (hello_magic in sender_id, so a stray client is
// told apart): source = the sender's world rank, tag = its incarnation,
// context = its recovery round, length = the destination's world rank and
// receiver_id = the destination's incarnation as the sender read it from the
// contact record. A connection accepted after the mesh (a REBUILD
// replacement joining) is answered with a hello carrying frame_hello_ack.
// A process that MPI_Comm_spawn added to the job sets frame_hello_spawned:
// a receiver that has no connection for its world rank yet takes it at once.
// A process of another job that MPI_Comm_connect/accept joined to this one
// sets frame_hello_foreign: its source is the number the receiver gave it
// (an alias after the receiver's own world ranks, tcp_foreign.cpp), and the
// answer names the receiver's own world rank in source and the alias in
// length.
#pragma once

#include "ftmpi/transport.h"

#include <cstddef>
#include <cstdint>

namespace ftmpi::transport {

// revoke/flush: context only. cancel: a sender takes back the message it
// announced (sender_id) if no receive matched it yet; cancel_reply answers,
// with frame_cancelled when it was taken back.
enum class FrameKind : uint8_t {
    hello = 1,
    eager,
    rts,
    cts,
    data,
    sync_ack,
    bye,
    abort,
    revoke,
    flush,
    cancel,
    cancel_reply
};

enum FrameFlags : uint8_t {
    frame_sync = 1,            // eager: the sender waits for sync_ack (MPI_Ssend)
    frame_hello_ack = 2,       // hello: the answer of a rank that accepted a joining connection
    frame_cancelled = 4,       // cancel_reply: the message was taken back
    frame_hello_spawned = 8,   // hello: from a process MPI_Comm_spawn added to the job, new to the receiver
    frame_hello_foreign = 16,  // hello: from a process of another job, at a number the receiver expects
};

constexpr uint64_t hello_magic = 0x46544d5049484c4full;  // "FTMPIHLO"
// The most world ranks a job may reach, spawned processes included: a hello
// or a notice cannot make a process allocate without bound.
constexpr int max_world_ranks = 1 << 16;

struct Frame {
    FrameKind kind;
    uint8_t flags = 0;
    uint16_t reserved = 0;
    uint32_t context = 0;  // communicator context (+1 for collectives)
    int32_t tag = 0;
    int32_t source = 0;        // sender's world rank
    uint64_t length = 0;       // eager/data: payload bytes that follow; rts: message size; abort: code
    uint64_t sender_id = 0;    // rts, sync eager: the send request; echoed by cts/sync_ack
    uint64_t receiver_id = 0;  // cts: the receive request; echoed by data
    uint64_t pad = 0;
};
static_assert(sizeof(Frame) == 48, "the header is part of the wire format");
// The C drivers see the same header as ftmpi_frame.
static_assert(sizeof(Frame) == sizeof(ftmpi_frame) && offsetof(Frame, length) == offsetof(ftmpi_frame, length) &&
              offsetof(Frame, pad) == offsetof(ftmpi_frame, pad));
static_assert(static_cast<int>(FrameKind::flush) == FTMPI_FRAME_FLUSH &&
              static_cast<int>(FrameKind::data) == FTMPI_FRAME_DATA &&
              static_cast<int>(FrameKind::cancel_reply) == FTMPI_FRAME_CANCEL_REPLY);

inline const ftmpi_frame *as_c(const Frame *f) {
    return reinterpret_cast<const ftmpi_frame *>(f);
}
inline const Frame *as_cpp(const ftmpi_frame *f) {
    return reinterpret_cast<const Frame *>(f);
}

}  // namespace ftmpi::transport
