// Attaching to a peer's inbox, and REBUILD joining (see README.md, "Joining").
//
// A replacement (a newer incarnation of a failed rank) creates its own inbox
// and, in join(), claims its slot in every peer's inbox as "joining",
// continuing after the records its dead predecessor left (join_base). A
// survivor does not read a joining slot: joining_incarnation() reports it,
// and admit() makes it the peer's (reading from join_base, attaching the
// replacement's inbox). Two replacements of the same recovery round adopt
// each other's claims at once (on_joined), as TCP does.
#include "driver.hpp"

#include <poll.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace ftmpi::shm {

namespace {

int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
    return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

// Whether pid has ended: gone, or killed and not reaped yet by its parent
// (a zombie still answers kill(pid, 0); its pidfd is readable).
bool process_gone(pid_t pid) {
    if (pid <= 0) return true;
    if (const int fd = open_pidfd(pid); fd >= 0) {
        pollfd p{fd, POLLIN, 0};
        const bool ended = ::poll(&p, 1, 0) == 1;
        ::close(fd);
        return ended;
    }
    return ::kill(pid, 0) != 0 && errno == ESRCH;
}

}  // namespace

// Maps peer's inbox (of peer.incarnation) and claims our slot in it with
// `claim` (slot_attached, or slot_joining: its owner reads us once it
// admitted us). Throws when the inbox is not one we may use.
Driver::Attach Driver::attach_peer(int q, uint32_t claim) {
    Peer &peer = peers_[static_cast<size_t>(q)];
    std::string why;
    AttachResult r = attach_inbox({job_, q, size_, peer.incarnation, host_key_}, &peer.seg, &why);
    if (r == AttachResult::refused) throw std::runtime_error("cannot attach to rank " + std::to_string(q) + ": " + why);
    if (r == AttachResult::not_yet) return Attach::not_yet;
    const pid_t owner = peer.seg.header->owner_pid;
    if (process_gone(owner)) {  // a leftover of a dead rank
        unmap(peer.seg);
        return Attach::dead;
    }
    SlotControl *slot = peer.seg.slot(rank_);
    const uint32_t state = load_acquire(slot->state);
    const int holder = load_relaxed(slot->sender_incarnation);
    const bool ours = state != slot_free && holder == incarnation_ && load_relaxed(slot->sender_pid) == ::getpid();
    if (state != slot_free && !ours && holder >= incarnation_) {
        unmap(peer.seg);
        throw std::runtime_error("rank " + std::to_string(q) + "'s slot for this rank is held by incarnation " +
                                 std::to_string(holder) + " (a duplicate rank?)");
    }
    const std::string fifo = wake_path(job_, q, peer.incarnation);
    peer.wake_fd = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);  // RDWR: a write never raises SIGPIPE
    if (peer.wake_fd < 0) {
        unmap(peer.seg);
        throw std::runtime_error("open " + fifo + ": " + std::strerror(errno));
    }
    if (!ours) {
        store_relaxed(slot->sender_pid, static_cast<int32_t>(::getpid()));
        store_relaxed(slot->sender_incarnation, static_cast<int32_t>(incarnation_));
        store_relaxed(slot->sender_round, static_cast<int32_t>(round_));
        store_relaxed(slot->join_base, load_relaxed(slot->head));  // after what a predecessor left
        store_release(slot->state, claim);
    }
    peer.out = slot;
    peer.out_ring = Ring{peer.seg.ring(rank_), static_cast<size_t>(peer.seg.header->ring_bytes)};
    peer.out_head = load_relaxed(slot->head);
    peer.out_tail = load_acquire(slot->tail);
    peer.pid = owner;
    peer.pidfd = open_pidfd(owner);
    if (peer.pidfd >= 0) {
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.u64 = static_cast<uint64_t>(q);
        ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, peer.pidfd, &ev);
    }
    peer.attached = peer.alive = true;
    note_reader(q);
    peer.carried = true;
    peer.bye = peer.exited = false;
    peer.cma_send = peer.cma_recv = settings_.cma;
    if (claim == slot_joining) notify(peer);  // its owner looks at joining slots when it progresses
    return Attach::attached;
}

void Driver::release_outbound(Peer &p) {
    if (p.wake_fd >= 0) ::close(p.wake_fd);
    p.wake_fd = -1;
    if (p.pidfd >= 0) {
        ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, p.pidfd, nullptr);
        ::close(p.pidfd);
        p.pidfd = -1;
    }
    unmap(p.seg);
    p.out = nullptr;
    p.attached = false;
}

void Driver::join(const char *const *addresses, const unsigned char *mine, int per_peer_ms, unsigned char *lost) {
    for (int q = 0; q < size_; ++q) {
        if (q == rank_ || !mine || !mine[q]) continue;
        Peer &peer = peers_[static_cast<size_t>(q)];
        if (!parse_address(addresses ? addresses[q] : nullptr, &peer.incarnation, &peer.round)) {
            if (lost) lost[q] = 1;
            continue;
        }
        peer.in_incarnation = peer.incarnation;
        const auto deadline = Clock::now() + std::chrono::milliseconds(per_peer_ms < 0 ? 0 : per_peer_ms);
        Attach a;
        while ((a = attach_peer(q, slot_joining)) == Attach::not_yet && Clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));  // its inbox is not there yet
        if (a != Attach::attached && lost) lost[q] = 1;
    }
}

int Driver::joining_incarnation(int peer) const {
    if (peer < 0 || peer >= size_ || peer == rank_) return -1;
    SlotControl &s = *inbox_.slot(peer);
    if (load_acquire(s.state) != slot_joining) return -1;
    const int inc = load_relaxed(s.sender_incarnation);
    return inc > peers_[static_cast<size_t>(peer)].incarnation ? inc : -1;
}

bool Driver::admit(int peer, int incarnation) {
    if (joining_incarnation(peer) != incarnation) return false;
    return adopt(peer, incarnation, slot_attached);
}

// Makes the joining claim of peer's `incarnation` in our inbox the peer's:
// the old incarnation is dropped, the new one's inbox attached, and its
// records read from where it started.
bool Driver::adopt(int q, int incarnation, uint32_t claim) {
    Peer &peer = peers_[static_cast<size_t>(q)];
    SlotControl &s = *inbox_.slot(q);
    if (peer.incarnation != incarnation || !peer.attached) {
        if (peer.alive) drop(q);  // the old incarnation: no report, the engine knows
        release_outbound(peer);
        peer.incarnation = incarnation;
        const auto deadline = Clock::now() + std::chrono::seconds(2);
        Attach a;
        try {
            while ((a = attach_peer(q, claim)) == Attach::not_yet && Clock::now() < deadline)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));  // created before it claimed: rare
        } catch (const std::exception &) {
            a = Attach::dead;
        }
        if (a != Attach::attached) return false;
    }
    if (load_relaxed(s.sender_incarnation) != peer.in_incarnation) {
        if (peer.cur.active) --partial_in_;
        peer.cur = Inbound{};
        peer.in_tail = load_relaxed(s.join_base);
        store_release(s.tail, peer.in_tail);
        peer.in_incarnation = incarnation;
    }
    store_release(s.state, slot_attached);
    peer.kick_due = consumed_ = true;
    more_ = true;
    return true;
}

// A replacement adopts the claims of fellow replacements of its round at once.
void Driver::check_joiners() {
    if (incarnation_ == 0 || round_ == 0) return;
    for (int q = 0; q < size_; ++q) {
        if (q == rank_) continue;
        SlotControl &s = *inbox_.slot(q);
        if (load_acquire(s.state) != slot_joining || load_relaxed(s.sender_round) != round_) continue;
        const int inc = load_relaxed(s.sender_incarnation);
        Peer &peer = peers_[static_cast<size_t>(q)];
        if (peer.alive && inc == peer.in_incarnation) continue;  // we joined it ourselves: read already
        if (adopt(q, inc, slot_joining) && has_on_joined_) sink_.on_joined(sink_.ctx, q);
    }
}

}  // namespace ftmpi::shm
