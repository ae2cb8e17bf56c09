/* ftmpi/transport.h — the comm-driver interface of libftmpi.
 *
 * A comm driver moves frames between the ranks of a job. libftmpi's
 * point-to-point engine owns the frame protocol (eager, rts/cts/data,
 * sync_ack, revoke, flush, bye, abort): a driver carries a 48-byte header and
 * its payload verbatim, in order per (sender, receiver) pair, and knows
 * nothing of matching. TCP is built into libftmpi; other drivers (shared
 * memory first) are application-level HARNESS plugins that export this ops
 * table through the plugin descriptor's interface slot, named
 * FTMPI_TRANSPORT_INTERFACE with version FTMPI_TRANSPORT_VERSION.
 *
 * Per peer, the engine picks one driver from that peer's contact card (a card
 * lists one address per driver) by reachability and the order of
 * FTMPI_TRANSPORTS, so all frames to one peer go through one driver. TCP
 * connections to every peer are kept in any case: their end of file is the
 * failure signal that shared memory does not have.
 *
 * Threading: the engine serializes every call on one transport, except
 * wake(), which any thread may call at any time.
 *
 * Growth: the ops table and the argument structs start with their size; a
 * caller reads a slot only when struct_size covers it, and a driver fills a
 * slot it does not support with a function answering FTMPI_TRANSPORT_UNSUPPORTED
 * (never NULL). Pure C. */
#ifndef FTMPI_TRANSPORT_H
#define FTMPI_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FTMPI_TRANSPORT_INTERFACE "ftmpi.transport"
#define FTMPI_TRANSPORT_VERSION   1

/* Frame kinds. Only eager and data carry a payload, of `length` bytes. */
enum ftmpi_frame_kind {
    FTMPI_FRAME_HELLO = 1,
    FTMPI_FRAME_EAGER,
    FTMPI_FRAME_RTS,
    FTMPI_FRAME_CTS,
    FTMPI_FRAME_DATA,
    FTMPI_FRAME_SYNC_ACK,
    FTMPI_FRAME_BYE,
    FTMPI_FRAME_ABORT,
    FTMPI_FRAME_REVOKE,
    FTMPI_FRAME_FLUSH,
    FTMPI_FRAME_CANCEL,      /* a sender asks to take back an unmatched message */
    FTMPI_FRAME_CANCEL_REPLY /* the receiver's answer */
};

/* The header every frame starts with (host byte order: the ranks of one job
 * share an architecture). Drivers read `kind` and `length` only. */
typedef struct ftmpi_frame {
    uint8_t kind; /* enum ftmpi_frame_kind */
    uint8_t flags;
    uint16_t reserved;
    uint32_t context;
    int32_t tag;
    int32_t source;  /* the sender's world rank */
    uint64_t length; /* eager/data: payload bytes that follow */
    uint64_t sender_id;
    uint64_t receiver_id;
    uint64_t pad;
} ftmpi_frame;

static inline int ftmpi_frame_has_payload(const ftmpi_frame *f) {
    return f->kind == FTMPI_FRAME_EAGER || f->kind == FTMPI_FRAME_DATA;
}

/* Status codes of the C boundary. */
typedef enum ftmpi_transport_status {
    FTMPI_TRANSPORT_OK = 0,
    FTMPI_TRANSPORT_PENDING = 1,     /* send: payload still referenced; on_sent(token) follows */
    FTMPI_TRANSPORT_PEER_LOST = 2,   /* send: the peer is gone */
    FTMPI_TRANSPORT_UNSUPPORTED = 3, /* this driver does not provide the slot */
    FTMPI_TRANSPORT_ERROR = 4        /* see the err text */
} ftmpi_transport_status;

/* Where an arriving payload goes: its first `keep` bytes to `dst`, the rest
 * is consumed and dropped (a truncated receive). */
typedef struct ftmpi_landing {
    char *dst;
    size_t keep;
    void *cookie; /* the engine's, handed back in on_frame */
} ftmpi_landing;

/* The engine's side, called by a driver from inside progress() (and from
 * connect/admit for on_joined). A driver never calls it from another thread. */
typedef struct ftmpi_transport_sink {
    uint32_t struct_size;
    void *ctx;
    /* A frame with a payload is arriving: fill *out with where it goes. */
    void (*on_header)(void *ctx, int peer, const ftmpi_frame *f, ftmpi_landing *out);
    /* A whole frame arrived (its payload landed, if it had one). */
    void (*on_frame)(void *ctx, int peer, const ftmpi_frame *f, const ftmpi_landing *landing);
    /* A send that answered PENDING is complete: its payload is no longer read. */
    void (*on_sent)(void *ctx, uint64_t token);
    /* The peer ended before its bye: it failed. */
    void (*on_peer_lost)(void *ctx, int peer);
    /* A replacement of the peer (a newer incarnation) connected and was admitted. */
    void (*on_joined)(void *ctx, int peer);
} ftmpi_transport_sink;

/* What a driver is opened with. */
typedef struct ftmpi_transport_open_args {
    uint32_t struct_size;
    const char *job;         /* job id: names what the driver creates, so jobs stay apart */
    int rank;                /* this process's world rank */
    int size;                /* ranks in the job */
    int incarnation;         /* 0, or a REBUILD replacement's incarnation */
    int round;               /* the replacement's recovery round */
    const char *listen_host; /* for network drivers: the address to listen on */
} ftmpi_transport_open_args;

typedef struct ftmpi_transport ftmpi_transport; /* a driver's own state */

#define FTMPI_SEND_COPY 1u /* the caller's payload may change after send returns */

typedef struct ftmpi_transport_ops {
    uint32_t struct_size;
    uint32_t version; /* FTMPI_TRANSPORT_VERSION */
    const char *name; /* "tcp", "shm": the word used in cards and FTMPI_TRANSPORTS */

    int (*open)(const ftmpi_transport_open_args *args, const ftmpi_transport_sink *sink, ftmpi_transport **out,
                char *err, size_t errlen);
    void (*close)(ftmpi_transport *t);

    /* This process's address for the card (text without ';' or '='). */
    int (*address)(ftmpi_transport *t, char *buf, size_t len);
    /* Nonzero when this driver can carry frames to a process with `address`. */
    int (*reachable)(ftmpi_transport *t, const char *address);
    /* The largest payload sent eagerly to peers of this driver. */
    size_t (*eager_limit)(ftmpi_transport *t);

    /* Wire-up: addresses[r] is rank r's address for this driver ("" or NULL:
     * none); `mine` nonzero for the peers this driver carries. Returns when
     * every carried peer is connected, or fails with the reason in err. */
    int (*connect)(ftmpi_transport *t, const char *const *addresses, const unsigned char *mine, int timeout_ms,
                   char *err, size_t errlen);

    /* Sends a header and its payload (iov, iovcnt; the total is f->length for
     * frames with a payload). OK: done (or the rest copied, with
     * FTMPI_SEND_COPY); PENDING: on_sent(token) follows; PEER_LOST. */
    int (*send)(ftmpi_transport *t, int peer, const ftmpi_frame *f, const struct iovec *iov, int iovcnt, unsigned flags,
                uint64_t token);

    /* Progress. wait_fd: readable when there is something to do (-1: none;
     * the engine then polls). prepare_wait: called before blocking on
     * wait_fd; nonzero means work is already pending, do not block.
     * progress: handles what is ready without blocking; returns how much. */
    int (*wait_fd)(ftmpi_transport *t);
    int (*prepare_wait)(ftmpi_transport *t);
    int (*progress)(ftmpi_transport *t);
    void (*wake)(ftmpi_transport *t);

    /* A peer known failed by other means: close without on_peer_lost. */
    void (*drop)(ftmpi_transport *t, int peer);
    int (*connected)(ftmpi_transport *t, int peer); /* alive and no bye yet */
    int (*bye_received)(ftmpi_transport *t, int peer);
    int (*flushed)(ftmpi_transport *t); /* nothing queued for any peer */

    /* REBUILD joining. A replacement's wire-up: connects to every rank whose
     * address it has, writing 1 into lost[r] for those that cannot be
     * reached within per_peer_ms (dead). */
    int (*join)(ftmpi_transport *t, const char *const *addresses, const unsigned char *mine, int per_peer_ms,
                unsigned char *lost, char *err, size_t errlen);
    /* The incarnation used for `peer`, of a joining connection held for it
     * (-1: none), and admitting it (OK, or ERROR when none is held). */
    int (*incarnation)(ftmpi_transport *t, int peer);
    int (*joining_incarnation)(ftmpi_transport *t, int peer);
    int (*admit)(ftmpi_transport *t, int peer, int incarnation);

    /* Before a peer known failed is dropped: delivers what it sent and this
     * side can read without waiting. A loss found meanwhile is reported by
     * the next progress, never from inside. A table whose struct_size ends
     * before this slot has none. */
    void (*drain)(ftmpi_transport *t, int peer);
} ftmpi_transport_ops;

#ifdef __cplusplus
}
#endif

#endif /* FTMPI_TRANSPORT_H */
