// TCP transport: one connection per pair of ranks.
//
// The transport moves frames (frame.hpp) and knows nothing of matching: it
// asks its Sink where an arriving payload should land (so a matched receive
// is filled straight from the socket) and reports finished frames, sends
// that completed later, and peers that went away. It is not thread-safe:
// its owner (the p2p engine) serializes every call with one lock, except
// wake(), which any thread may call at any time.
//
// Sockets are non-blocking after the mesh is built; a send writes what the
// socket takes at once and queues the rest (EPOLLOUT finishes it in poll()).
//
// Fault tolerance: the listening socket stays open after the mesh,
// so a REBUILD replacement (a newer incarnation of a failed rank) can connect
// at any time. Its connection is held "joining" — not read — until admit()
// makes it the peer's connection; two replacements of the same round admit
// each other at once. A connection that does not open with a valid hello
// (stray client, garbage, a stale incarnation) is refused with a line on
// stderr. Connected sockets never time out by themselves (a network stall is
// covered by TCP retransmission); TCP keepalive ends a connection to a dead
// host after about 45 s, well after the VM declared it failed.
#pragma once

#include "transport/frame.hpp"
#include "transport/sink.hpp"

#include <chrono>
#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

struct epoll_event;

namespace ftmpi::transport {

// Epoll tags: peers are 0..n-1; the listener and accepted connections whose
// hello is not complete yet (tcp_join.cpp) have tags of their own.
constexpr uint64_t listen_tag = ~uint64_t{0} - 1;
constexpr uint64_t pending_tag_base = uint64_t{1} << 62;
// A connecting peer gets this long to complete its hello.
constexpr std::chrono::seconds hello_timeout{5};

// Room for one epoll_wait's events (epoll_event stays out of this header).
struct epoll_event_buffer {
    alignas(8) unsigned char bytes[32 * 12];
};

// One rank's contact record: "host:port incarnation round" (part 1 records
// were "host:port": incarnation and round 0).
struct Contact {
    std::string address;
    int incarnation = 0;
    int round = 0;
    static Contact parse(const std::string &record);
    std::string record() const;
};

class Tcp {
public:
    explicit Tcp(Sink &sink);
    ~Tcp();
    Tcp(const Tcp &) = delete;
    Tcp &operator=(const Tcp &) = delete;

    // Listens on `host`, port chosen by the kernel; returns "host:port".
    std::string listen(const std::string &host);
    // Connects to every other rank: to the lower ranks (which listen
    // already), accepting the higher ones. A peer whose address is empty
    // (it ended before it published one) is left out, and so is one that
    // `ended` says ended while the mesh waited for it (those are returned).
    // Throws std::runtime_error with a clear reason when a peer cannot be
    // reached before the timeout.
    std::vector<int> connect_mesh(int my_rank, const std::vector<std::string> &addresses,
                                  std::chrono::milliseconds timeout, const PeerEnded &ended = {});

    // ---- REBUILD joining ----
    // This process's incarnation and recovery round (0, 0 unless it is a
    // replacement); set before connecting.
    void set_identity(int incarnation, int round) {
        my_incarnation_ = incarnation;
        my_round_ = round;
    }
    // A replacement's wire-up: connects to every rank whose record it has
    // (records[r] empty: unknown), skipping those it cannot reach within
    // `per_peer` (dead ranks: returned, to be treated as failed). Fellow
    // replacements of the same round connect lower ← higher; see tcp.cpp.
    std::vector<int> join_mesh(int my_rank, const std::vector<std::string> &records,
                               std::chrono::milliseconds per_peer);
    // A fellow replacement of this round reached after the wire-up, from
    // its record read again (join_mesh had its old one): the handshake
    // alone, on a new socket; returns the fd (and the incarnation that
    // answered) or -1. Touches no connection state, so the engine may call
    // it without its lock while the poller accepts; adopt_fellow, under the
    // lock, then makes the fd the peer's connection: false (fd closed) when
    // the fellow connected here meanwhile at that incarnation or later.
    int reach_fellow(int peer, const std::string &record, std::chrono::steady_clock::time_point deadline,
                     int *incarnation) const;
    bool adopt_fellow(int peer, int fd, int incarnation);
    // ---- Processes added by MPI_Comm_spawn ----
    // A spawned process's wire-up: connects to every process of the job
    // below `first_sibling` that has a record (those that do not answer
    // within `per_peer` are returned as failed), to its lower siblings, and
    // takes the connections of its higher ones. Its hellos carry
    // frame_hello_spawned, so the others add it when it connects. Each
    // process of the job gets `per_peer` to answer, siblings `siblings`; a
    // higher sibling that `ended` says ended is not waited for.
    std::vector<int> join_spawned(int my_rank, const std::vector<std::string> &records, int first_sibling,
                                  std::chrono::milliseconds per_peer, std::chrono::milliseconds siblings,
                                  const PeerEnded &ended = {});
    // Room for peers 0..n-1 (a spawned process's hello grows it too).
    void grow(int n);

    // ---- Processes of another job (tcp_foreign.cpp) ----
    // The acceptor's side: a hello flagged frame_hello_foreign for `peer`
    // (a number this process gave a process of the other job) is taken, once.
    void expect_foreign(int peer);
    // The connector's side: the handshake with a process of the other job
    // at `record` (its contact record), whose own world rank is
    // `their_world` and which knows this process as `alias_there`. Returns
    // the fd (and the incarnation that answered) or -1; touches no state
    // (callable without the engine's lock).
    int reach_foreign(const std::string &record, int their_world, int alias_there,
                      std::chrono::steady_clock::time_point deadline, int *incarnation) const;
    // The answered fd becomes `peer`'s connection; false (fd closed) when
    // that number was ever used.
    bool adopt_foreign(int peer, int fd, int incarnation);

    // The incarnation of the connection used for `peer` (this process's own
    // for peer == my rank), and of a joining connection held for it (-1: none).
    int incarnation(int peer) const;
    int joining_incarnation(int peer) const;
    // Makes the joining connection of `peer`'s `incarnation` its connection
    // (closing the old one without a report). False when none is held.
    bool admit(int peer, int incarnation);

    using SendResult = transport::SendResult;
    // Sends a frame and its payload. `done`: written, or the unwritten rest
    // copied (only when `copy`); `pending`: the payload is still referenced
    // and on_sent(token) follows; `peer_lost`: the peer is gone.
    SendResult send(int peer, const Frame &, const void *payload, size_t len, bool copy, uint64_t token);

    // Polling is split so that the waiting needs no lock: one thread (the
    // engine's current poller) calls wait_events() without the engine's lock,
    // then process_events() with it. wait_events waits up to timeout_ms
    // (-1: until something happens or wake()) and returns the number of events.
    int wait_events(int timeout_ms);
    void process_events(int n);
    // Makes a poll() blocked in another thread return soon.
    void wake();

    // Closes the connection to a peer known to have failed by other means,
    // without reporting it through on_peer_lost (the caller handles that).
    void drop(int peer) { lose(peer, false); }
    // Reads what the peer's socket holds now (before drop of a failed peer);
    // an end of file found is reported by the next process_events.
    void drain(int peer) {
        if (peer >= 0 && peer < static_cast<int>(conns_.size()) && conns_[peer].alive) read_ready(peer);
    }

    bool connected(int peer) const;  // alive and not yet said bye
    bool bye_received(int peer) const;
    bool flushed() const;  // nothing queued for any peer
    int size() const { return static_cast<int>(conns_.size()); }
    int epoll_fd() const { return epoll_fd_; }  // readable when wait_events would return events
    int my_incarnation() const { return my_incarnation_; }
    int my_round() const { return my_round_; }

private:
    struct Outgoing {
        Frame header;
        std::vector<char> owned;  // the payload's copy, if copied
        const char *payload = nullptr;
        size_t length = 0;
        size_t offset = 0;  // bytes of header+payload written
        uint64_t token = 0;
        bool report = false;  // on_sent(token) when written
    };
    struct Conn {
        int fd = -1;
        int incarnation = 0;  // of the process at the other end
        bool alive = false;
        bool bye = false;
        bool want_out = false;  // EPOLLOUT armed
        bool ever = false;      // was installed once: a spawned process's hello cannot take it
        // read side
        std::unique_ptr<char[]> rbuf;
        size_t rpos = 0, rlen = 0;
        bool in_payload = false;
        Frame current{};
        Landing landing;
        size_t done = 0;  // payload bytes consumed
        // write side
        std::deque<Outgoing> out;
    };

    void read_ready(int peer);
    bool payload_step(int peer, Conn &c);
    void frame_complete(int peer, Conn &c);
    void flush(int peer);
    void set_out_interest(int peer, bool on);
    void lose(int peer, bool failure);
    // Joining (tcp_join.cpp).
    struct Pending {  // accepted, hello not yet complete
        int fd = -1;
        Frame hello{};
        size_t got = 0;
        std::chrono::steady_clock::time_point since;
        std::string from;  // "ip:port", for the log
    };
    struct Joining {  // a valid hello, waiting for admit()
        int fd = -1;
        int incarnation = -1;
    };
    Frame make_hello(int to, int to_incarnation) const;
    int handshake(int peer, const Contact &, std::chrono::steady_clock::time_point deadline, bool retry,
                  int *incarnation) const;
    void wait_for_peers(const std::vector<int> &peers, std::chrono::steady_clock::time_point deadline,
                        const PeerEnded &ended = {});
    void keep_listening();
    void accept_ready();
    void pending_ready(uint64_t id);
    void close_pending(uint64_t id, const char *why);
    void expire_pending();
    void hello_complete(Pending p);
    bool take_spawned(const Pending &p);  // tcp_spawned.cpp
    void take_foreign(const Pending &p);  // tcp_foreign.cpp
    void install(int peer, int fd, int incarnation);
    void refuse(int fd, const std::string &from, const std::string &why);

    Sink &sink_;
    int my_rank_ = -1;
    int listen_fd_ = -1;
    int epoll_fd_ = -1;
    int wake_fd_ = -1;
    std::vector<Conn> conns_;
    int backlogged_ = 0;                     // live connections with frames queued (want_out): flushed() in O(1)
    std::vector<std::pair<int, int>> lost_;  // (peer, incarnation) lost, reported by the next process_events()
    int my_incarnation_ = 0, my_round_ = 0;
    bool spawned_ = false;  // this process was added by MPI_Comm_spawn (join_spawned)
    std::unordered_map<uint64_t, Pending> pending_;
    uint64_t next_pending_ = 0;
    std::vector<Joining> joining_;
    std::vector<char> expected_foreign_;  // per peer: a foreign hello for it is awaited
    epoll_event_buffer events_;
};

}  // namespace ftmpi::transport
