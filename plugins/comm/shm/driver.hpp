// The shared-memory comm driver: one instance per open() (see README.md).
//
// Inbound: this rank's inbox segment, one ring per sender, read by
// progress(). Outbound: every carried peer's inbox, mapped at connect(), in
// which this rank writes into the ring of its own slot. What does not fit
// into a full ring waits in a per-peer queue that progress() pushes on when
// the receiver kicks us. Large data frames sent without FTMPI_SEND_COPY go by
// cross-memory attach: a descriptor in the ring, the receiver reads the
// payload with process_vm_readv and answers with a completion record.
//
// Not thread-safe except wake(): the engine serializes every other call.
#pragma once

#include "ring.hpp"
#include "segment.hpp"

#include <ftmpi/transport.h>

#include <chrono>
#include <deque>
#include <string>
#include <vector>

namespace ftmpi::shm {

using Clock = std::chrono::steady_clock;

// epoll tag of the FIFO in wait_fd (the pidfds carry their peer's rank).
constexpr uint64_t fifo_tag = ~uint64_t{0};

// Settings read once per open() from the environment.
struct Settings {
    size_t ring_bytes = 256 * 1024;  // FTMPI_SHM_RING_BYTES, rounded up to a power of two
    bool cma = true;                 // FTMPI_SHM_CMA=0: never single-copy (send by copy, refuse descriptors)
    // A quarter of the ring: 64 KiB pingpong is 6 µs eager against 16 µs by
    // rendezvous (rts, cts, then the data), and streams 3x faster.
    size_t eager_limit = 64 * 1024;
    // FTMPI_SHM_CMA_MIN: smaller data frames go through the ring. Copying
    // through the ring (both cores copy, pipelined) beat process_vm_readv up
    // to 2 MiB in ping-pong and streaming here; at 4 MiB and more a
    // streaming receiver's working set leaves the cache and one copy wins.
    size_t cma_min = size_t{4} << 20;
    static Settings from_environment();
};

// One frame (or the rest of one) waiting for room in a peer's ring.
struct Outgoing {
    bool cma = false;     // goes as a descriptor
    bool posted = false;  // cma: descriptor in the ring, awaiting the completion
    bool header_sent = false;
    ftmpi_frame header{};
    std::vector<char> owned;  // the payload's copy (FTMPI_SEND_COPY)
    std::vector<iovec> iov;   // what is still to send, from `seg`/`seg_off` on
    size_t seg = 0, seg_off = 0;
    size_t left = 0;  // payload bytes not yet in the ring
    uint64_t token = 0;
    bool report = false;  // on_sent(token) when done
    uint64_t cookie = 0;
};

struct Inbound {
    bool active = false;  // a frame's payload is still arriving in pieces
    ftmpi_frame frame{};
    ftmpi_landing landing{};
    size_t done = 0;
};

struct Peer {
    bool carried = false;  // mine[p] at connect
    bool attached = false;
    bool alive = false;
    bool bye = false;
    bool exited = false;  // its process ended (pidfd or kill(pid, 0))
    bool cma_send = true;
    bool cma_recv = true;
    int incarnation = 0;  // of its inbox we write to
    int round = 0;        // its recovery round, from its address
    // Outbound: its inbox, our slot in it.
    Mapping seg;
    SlotControl *out = nullptr;
    Ring out_ring;
    uint64_t out_head = 0;
    uint64_t out_tail = 0;  // last tail seen
    int wake_fd = -1;       // its FIFO
    pid_t pid = -1;
    int pidfd = -1;
    std::deque<Outgoing> queue;
    std::deque<std::pair<uint64_t, uint32_t>> dones;  // completions owed to it (cookie, status)
    uint64_t next_cookie = 1;
    size_t need_room = 0;  // what the blocked push needs
    // Inbound: its slot in our inbox.
    SlotControl *in = nullptr;
    Ring in_ring;
    uint64_t in_tail = 0;
    int in_incarnation = 0;  // the sender whose records we read there
    Inbound cur;
    bool kick_due = false;  // we consumed from its ring: kick it if it waits for room
};

// Tells the owner of p's inbox about an event outside the rings (room freed,
// a join): bumps its `posted` and wakes it if it sleeps.
void notify(Peer &p);
void wake_if_sleeping(Peer &p);

class Driver {
public:
    Driver(const ftmpi_transport_open_args &, const ftmpi_transport_sink &, const Settings &);
    ~Driver();
    Driver(const Driver &) = delete;
    Driver &operator=(const Driver &) = delete;

    std::string address() const;
    bool reachable(const std::string &address) const;
    size_t eager_limit() const { return settings_.eager_limit; }
    // Throws std::runtime_error with the reason.
    void connect(const char *const *addresses, const unsigned char *mine, int timeout_ms);
    int send(int peer, const ftmpi_frame &, const iovec *iov, int iovcnt, unsigned flags, uint64_t token);
    int wait_fd() const { return epoll_fd_; }
    int prepare_wait();
    int progress();
    void wake();
    void drop(int peer);
    // Delivers what a failed peer published before it is dropped; losses
    // found here are reported by the next progress().
    void drain_failed(int peer);
    bool connected(int peer) const;
    bool bye_received(int peer) const;
    bool flushed() const;
    int incarnation(int peer) const;
    // REBUILD joining (driver_join.cpp). Throws std::runtime_error with the reason.
    void join(const char *const *addresses, const unsigned char *mine, int per_peer_ms, unsigned char *lost);
    int joining_incarnation(int peer) const;
    bool admit(int peer, int incarnation);

private:
    // driver_join.cpp
    enum class Attach { attached, not_yet, dead };
    Attach attach_peer(int peer, uint32_t claim);
    void release_outbound(Peer &);
    bool adopt(int peer, int incarnation, uint32_t claim);
    void check_joiners();
    bool parse_address(const char *address, int *incarnation, int *round) const;
    // driver_send.cpp
    bool try_write(Peer &, Outgoing &);
    bool write_cma(Peer &, Outgoing &);
    bool push_dones(Peer &);
    void push_queue(int peer);
    void want_room(Peer &, size_t need);
    size_t room(Peer &, size_t need);
    void publish(Peer &);
    void queue_changed(Peer &, bool was_busy);
    void on_cma_done(int peer, uint64_t cookie, uint32_t status);
    // driver_recv.cpp
    int drain(int peer);
    // The end of what peer's ring holds for us (a replaced sender's ring: only
    // what the old one wrote), and whether any ring holds records not read yet.
    static uint64_t readable_head(const Peer &p);
    bool rings_pending() const;
    // Lists a peer that became alive: rings_pending() looks at these only.
    void note_reader(int peer);
    void deliver(Peer &, uint64_t pos, size_t n);
    void finish_inbound(int peer);
    bool read_cma(int peer, const ftmpi_frame &, const CmaDescriptor &, uint64_t cookie);
    void check_events();
    void check_liveness();
    void lose(int peer);
    void kick_senders();
    void report_lost();

    static bool busy(const Peer &p) { return !p.queue.empty() || !p.dones.empty(); }
    ftmpi_frame_kind kind_of(const ftmpi_frame &f) const { return static_cast<ftmpi_frame_kind>(f.kind); }

    Settings settings_;
    ftmpi_transport_sink sink_{};
    std::string job_;
    int rank_ = 0, size_ = 0, incarnation_ = 0, round_ = 0;
    std::string host_key_;
    Mapping inbox_;
    int wake_fd_ = -1;   // our FIFO, O_RDWR
    int epoll_fd_ = -1;  // the FIFO and every peer's pidfd
    std::vector<Peer> peers_;
    // Peers that were ever alive (on this host): the idle check in a spinning
    // progress() reads their heads, not every rank of the job.
    std::vector<int> readers_;
    uint64_t seen_posted_ = 0;
    bool has_on_joined_ = false;  // the sink is new enough to have on_joined
    bool armed_ = false;          // prepare_wait ran: check the FIFO and pidfds on the next progress
    bool more_ = false;
    bool consumed_ =
        false;  // some ring's tail moved: kick_senders() has work      // a drain stopped at its budget, or an exit awaits handling
    int busy_peers_ = 0;  // peers with queued sends or owed completions
    int partial_in_ = 0;  // inbound frames waiting for pieces
    Clock::time_point last_liveness_{};
    std::vector<int> lost_;  // to report through on_peer_lost at the end of progress()
};

}  // namespace ftmpi::shm
