// The transport router: every comm driver of this process behind one
// interface for the point-to-point engine.
//
// Each rank publishes a card (card.hpp) with an address per driver it
// opened. Per peer, the router picks the first driver of the preference
// list (FTMPI_TRANSPORTS, default "shm,tcp") that both have and that says
// the peer is reachable; every frame to that peer goes through it, so the
// per-pair order the protocol relies on holds. Receiving, it takes frames
// from every driver.
//
// TCP is always open and connected to every peer, whatever carries the
// frames: the end of file of a peer's connection is how its death is seen
// when the frames go through a medium without one (shared memory). Before
// such a loss is reported, the other drivers are drained, and a peer that
// said bye through any driver ended normally.
//
// Progress: one epoll set holds each driver's wait_fd and the router's own
// wake eventfd. A non-blocking step makes no system call for drivers that
// are polled in memory (shared memory); TCP is looked at on each step while
// it carries some peer's frames, otherwise every few steps (for the end of
// file that means a failure). Not thread-safe, like a driver: the engine
// serializes every call with its lock, except wake().
#pragma once

#include "transport/card.hpp"
#include "transport/driver.hpp"
#include "transport/sink.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace ftmpi::transport {

struct RouterOptions {
    std::string job;
    int rank = 0, size = 1;
    int incarnation = 0, round = 0;
    std::string listen_host;
    // Driver names in order of preference; "tcp" is opened in any case.
    std::vector<std::string> preference{"shm", "tcp"};
    // Ops tables of the plugin drivers that could be loaded (by name).
    std::vector<const ftmpi_transport_ops *> plugins;
    // FTMPI_RANKS_PER_NODE: when > 0, ranks in different blocks of this many
    // consecutive ranks are treated as on different nodes (only TCP between
    // them), so one host can run a job whose peers use different drivers.
    int ranks_per_node = 0;
    // Open the drivers and publish a card even as the job's only process,
    // so processes it spawns can connect (a launcher that can spawn).
    bool reachable_alone = false;
    // A process added by MPI_Comm_spawn: the world rank of the first of the
    // processes spawned with it (its MPI_COMM_WORLD's rank 0), else -1.
    int first_sibling = -1;
    // A spawned process: world ranks below first_sibling that are no
    // process of the job (FTMPI_WORLD_GAPS): not connected, not failed.
    std::vector<int> absent;
};

class Router {
public:
    explicit Router(Sink &sink);
    ~Router();
    Router(const Router &) = delete;
    Router &operator=(const Router &) = delete;

    // Opens the drivers and returns this process's card text. A plugin
    // driver that fails to open is left out with a line on stderr; TCP
    // failing throws std::runtime_error.
    std::string open(const RouterOptions &);
    // Chooses a driver per peer from the cards (cards[r] is rank r's) and
    // connects: every peer over TCP, then each other driver its peers. A
    // peer with an empty card (it ended during the wire-up) is reached by
    // none: it is routed to TCP, which leaves it out of the mesh; so is a
    // peer that `ended` says ended while TCP waited for it.
    // Throws std::runtime_error with the reason.
    void connect(const std::vector<std::string> &cards, std::chrono::milliseconds timeout, const PeerEnded &ended = {});
    // A replacement's wire-up (REBUILD), over TCP to every peer: returns the
    // ranks found dead.
    std::vector<int> join(const std::vector<std::string> &cards, std::chrono::milliseconds per_peer);
    // A replacement reaching a fellow replacement of its round after the
    // wire-up, from the fellow's card read again: the incarnation the card
    // names (0 for a card without one); the handshake, which may be called
    // without the engine's lock (it touches only a new socket): the fd or
    // -1; and adopt_fellow, with the lock: the fd becomes the fellow's
    // connection (false, fd closed, when the fellow's own came first).
    static int card_incarnation(const std::string &card);
    int reach_fellow(int peer, const std::string &card, std::chrono::steady_clock::time_point deadline,
                     int *incarnation) const;
    bool adopt_fellow(int peer, int fd, int incarnation);

    // A process added by MPI_Comm_spawn: connects over TCP only to every
    // process of the job (cards[r] is world rank r's; each gets `per_peer`)
    // and to its siblings, which start at `first_sibling` (`siblings`);
    // returns the ranks found dead.
    std::vector<int> join_spawned(const std::vector<std::string> &cards, int first_sibling,
                                  std::chrono::milliseconds per_peer, std::chrono::milliseconds siblings,
                                  const PeerEnded &ended = {});
    // Room for peers 0..n-1: the world ranks MPI_Comm_spawn added, reached
    // over TCP (a spawned process's connection also makes room for it).
    void grow(int n);
    int size() const { return size_; }

    // Processes of another job, reached over TCP at numbers after this
    // job's (tcp_foreign.cpp): this process's own TCP contact record (for
    // the other job), the accepting side's expectation of a connection at
    // `peer`, and the connecting side's handshake (without the engine's
    // lock: a new socket only) and adoption of the answered socket.
    const std::string &tcp_record() const { return tcp_record_; }
    void expect_foreign(int peer);
    int reach_foreign(const std::string &record, int their_world, int alias_there,
                      std::chrono::steady_clock::time_point deadline, int *incarnation) const;
    bool adopt_foreign(int peer, int fd, int incarnation);

    SendResult send(int peer, const Frame &, const void *payload, size_t len, bool copy, uint64_t token);
    size_t eager_limit(int peer) const;

    // Every call but wait_events and wake is made with the engine's lock
    // held. prepare_wait: before blocking; false when a driver has work now
    // (then wait with timeout 0). wait_events: epoll on every driver's fd.
    bool prepare_wait();
    int wait_events(int timeout_ms);
    void process_events(int n);
    void wake();

    // Before a failed peer is dropped: what it sent before it failed and can
    // be read now is delivered (no loss is reported from inside).
    void drain(int peer);
    void drop(int peer);
    bool connected(int peer) const;
    bool bye_received(int peer) const;
    bool flushed() const;
    int incarnation(int peer) const;
    int joining_incarnation(int peer) const;
    bool admit(int peer, int incarnation);

    // "shm" or "tcp": the driver carrying frames to `peer`.
    const std::string &route_name(int peer) const;
    // One line: which drivers carry how many peers ("shm 3, tcp 4").
    std::string summary() const;

private:
    struct Port;  // a driver's C sink context
    Driver &route(int peer) { return drivers_[static_cast<size_t>(route_[peer])]; }
    const Driver &route(int peer) const { return drivers_[static_cast<size_t>(route_[peer])]; }
    static std::vector<Card> parse_cards(const std::vector<std::string> &texts);
    void choose_routes(const std::vector<Card> &cards);
    // A joining process (replacement, spawned) reaches every peer over TCP:
    // routes them all there and returns the parsed cards.
    std::vector<Card> route_all_over_tcp(const std::vector<std::string> &texts);
    // Each rank's address for driver d ("" when its card has none); the
    // pointers live as long as `cards`.
    std::vector<const char *> addresses_for(const std::vector<Card> &cards, const Driver &d) const;
    void lost_from(size_t driver, int peer);  // a driver's on_peer_lost

    Sink &sink_;
    int rank_ = 0, size_ = 1;
    int ranks_per_node_ = 0;
    std::vector<Driver> drivers_;  // [0] is TCP
    std::vector<std::unique_ptr<Port>> ports_;
    std::vector<int> route_;  // per peer: index into drivers_
    int epoll_fd_ = -1, wake_fd_ = -1;
    std::vector<size_t> order_;                              // drivers_ indices by preference
    unsigned steps_ = 0;                                     // steps, for the occasional look at an idle TCP
    std::chrono::steady_clock::time_point last_tcp_look_{};  // of a spinning step's periodic look
    bool blocked_ = false;                                   // the last wait_events blocked in epoll
    bool woken_ = false;                                     // and the wake eventfd was among its events
    std::string tcp_record_;                                 // this process's TCP address in its card
};

}  // namespace ftmpi::transport
