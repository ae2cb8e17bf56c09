// Owner: core (mpicore). TCP transport: one connection per pair of ranks.
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
#pragma once

#include "transport/frame.hpp"

#include <chrono>
#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <vector>

struct epoll_event;

namespace ftmpi::transport {

// Room for one epoll_wait's events (epoll_event stays out of this header).
struct epoll_event_buffer {
    alignas(8) unsigned char bytes[32 * 12];
};

// Where an arriving payload goes: its first `keep` bytes to `dst`, the rest
// is read and dropped (a truncated receive).
struct Landing {
    char *dst = nullptr;
    size_t keep = 0;
    void *cookie = nullptr;  // the sink's, handed back in on_frame
};

class Sink {
public:
    virtual ~Sink() = default;
    // An eager or data frame's header arrived; say where its payload goes.
    virtual Landing on_header(int peer, const Frame &) = 0;
    // A whole frame arrived (payload landed, if it had one).
    virtual void on_frame(int peer, const Frame &, const Landing &) = 0;
    // A send that returned `pending` is now fully written.
    virtual void on_sent(uint64_t token) = 0;
    // The connection to `peer` broke before its bye: the peer failed.
    virtual void on_peer_lost(int peer) = 0;
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
    // already), accepting the higher ones. Throws std::runtime_error with a
    // clear reason when a peer cannot be reached before the timeout.
    void connect_mesh(int my_rank, const std::vector<std::string> &addresses, std::chrono::milliseconds timeout);

    enum class SendResult { done, pending, peer_lost };
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

    bool connected(int peer) const;        // alive and not yet said bye
    bool bye_received(int peer) const;
    bool flushed() const;                  // nothing queued for any peer
    int size() const { return static_cast<int>(conns_.size()); }

private:
    struct Outgoing {
        Frame header;
        std::vector<char> owned;           // the payload's copy, if copied
        const char *payload = nullptr;
        size_t length = 0;
        size_t offset = 0;                 // bytes of header+payload written
        uint64_t token = 0;
        bool report = false;               // on_sent(token) when written
    };
    struct Conn {
        int fd = -1;
        bool alive = false;
        bool bye = false;
        bool want_out = false;             // EPOLLOUT armed
        // read side
        std::unique_ptr<char[]> rbuf;
        size_t rpos = 0, rlen = 0;
        bool in_payload = false;
        Frame current{};
        Landing landing;
        size_t done = 0;                   // payload bytes consumed
        // write side
        std::deque<Outgoing> out;
    };

    void read_ready(int peer);
    bool payload_step(int peer, Conn &c);
    void frame_complete(int peer, Conn &c);
    void flush(int peer);
    void set_out_interest(int peer, bool on);
    void lose(int peer, bool failure);

    Sink &sink_;
    int my_rank_ = -1;
    int listen_fd_ = -1;
    int epoll_fd_ = -1;
    int wake_fd_ = -1;
    std::vector<Conn> conns_;
    std::vector<int> lost_;                // peers lost, reported by the next process_events()
    epoll_event_buffer events_;
};

}  // namespace ftmpi::transport
