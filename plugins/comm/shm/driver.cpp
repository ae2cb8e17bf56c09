// The driver's life cycle, wire-up and waiting (see driver.hpp).
#include "driver.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace ftmpi::shm {

namespace {

constexpr uint64_t fifo_tag = ~uint64_t{0};

int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
    return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

size_t next_power_of_two(size_t n) {
    size_t p = 1;
    while (p < n) p <<= 1;
    return p;
}

}  // namespace

Settings Settings::from_environment() {
    Settings s;
    if (const char *v = std::getenv("FTMPI_SHM_RING_BYTES"); v && *v) {
        char *end = nullptr;
        unsigned long long n = std::strtoull(v, &end, 0);
        if (end && *end == '\0' && n > 0)
            s.ring_bytes = next_power_of_two(std::clamp<size_t>(static_cast<size_t>(n), 4096, size_t{64} << 20));
    }
    if (const char *v = std::getenv("FTMPI_SHM_CMA"); v && std::strcmp(v, "0") == 0) s.cma = false;
    s.eager_limit = std::min(s.eager_limit, s.ring_bytes / 4);
    return s;
}

Driver::Driver(const ftmpi_transport_open_args &args, const ftmpi_transport_sink &sink, const Settings &settings)
    : settings_(settings), sink_(sink), job_(args.job ? args.job : ""), rank_(args.rank), size_(args.size),
      incarnation_(args.incarnation), host_key_(host_key()) {
    if (job_.empty()) throw std::runtime_error("no job id");
    if (size_ <= 0 || rank_ < 0 || rank_ >= size_ || incarnation_ < 0)
        throw std::runtime_error("rank " + std::to_string(rank_) + " of " + std::to_string(size_) + " is not valid");
    epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
    if (epoll_fd_ < 0) throw std::runtime_error(std::string("epoll_create1: ") + std::strerror(errno));
    try {
        inbox_ = create_inbox({job_, rank_, size_, incarnation_, settings_.ring_bytes, host_key_}, &wake_fd_);
    } catch (...) {
        ::close(epoll_fd_);
        throw;
    }
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = fifo_tag;
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev);
    peers_.resize(static_cast<size_t>(size_));
    for (int p = 0; p < size_; ++p) {
        Peer &peer = peers_[static_cast<size_t>(p)];
        peer.in = inbox_.slot(p);
        peer.in_ring = Ring{inbox_.ring(p), settings_.ring_bytes};
        peer.cma_send = peer.cma_recv = settings_.cma;
    }
}

Driver::~Driver() {
    for (Peer &p : peers_) {
        if (p.wake_fd >= 0) ::close(p.wake_fd);
        if (p.pidfd >= 0) ::close(p.pidfd);
        unmap(p.seg);
    }
    destroy_inbox(inbox_, job_, rank_, incarnation_);
    if (wake_fd_ >= 0) ::close(wake_fd_);
    if (epoll_fd_ >= 0) ::close(epoll_fd_);
}

std::string Driver::address() const { return host_key_ + ":" + std::to_string(incarnation_); }

bool Driver::reachable(const std::string &address) const {
    size_t colon = address.rfind(':');
    return colon != std::string::npos && address.compare(0, colon, host_key_) == 0;
}

void Driver::connect(const char *const *addresses, const unsigned char *mine, int timeout_ms) {
    std::vector<int> waiting;
    for (int p = 0; p < size_; ++p) {
        if (p == rank_ || !mine || !mine[p]) continue;
        const char *a = addresses ? addresses[p] : nullptr;
        if (!a || !*a || !reachable(a))
            throw std::runtime_error("rank " + std::to_string(p) + " is not on this host (address '" +
                                     std::string(a ? a : "") + "')");
        Peer &peer = peers_[static_cast<size_t>(p)];
        if (peer.attached) continue;
        peer.carried = true;
        peer.incarnation = std::atoi(std::strrchr(a, ':') + 1);
        waiting.push_back(p);
    }
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms < 0 ? 0 : timeout_ms);
    while (!waiting.empty()) {
        for (auto it = waiting.begin(); it != waiting.end();) {
            Peer &peer = peers_[static_cast<size_t>(*it)];
            std::string why;
            AttachResult r = attach_inbox({job_, *it, size_, peer.incarnation, host_key_}, &peer.seg, &why);
            if (r == AttachResult::refused) throw std::runtime_error("cannot attach to rank " + std::to_string(*it) + ": " + why);
            if (r == AttachResult::not_yet) {
                ++it;
                continue;
            }
            SlotControl *slot = peer.seg.slot(rank_);
            if (load_acquire(slot->state) != slot_free) {
                unmap(peer.seg);
                throw std::runtime_error("rank " + std::to_string(*it) + "'s slot for this rank is taken (duplicate rank?)");
            }
            const std::string fifo = wake_path(job_, *it, peer.incarnation);
            peer.wake_fd = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);  // RDWR: a write never raises SIGPIPE
            if (peer.wake_fd < 0) {
                unmap(peer.seg);
                throw std::runtime_error("open " + fifo + ": " + std::strerror(errno));
            }
            slot->sender_pid = static_cast<int32_t>(::getpid());
            slot->sender_incarnation = incarnation_;
            store_release(slot->state, slot_attached);
            peer.out = slot;
            peer.out_ring = Ring{peer.seg.ring(rank_), static_cast<size_t>(peer.seg.header->ring_bytes)};
            peer.out_head = load_relaxed(slot->head);
            peer.out_tail = load_acquire(slot->tail);
            peer.pid = peer.seg.header->owner_pid;
            peer.pidfd = open_pidfd(peer.pid);
            if (peer.pidfd >= 0) {
                epoll_event ev{};
                ev.events = EPOLLIN;
                ev.data.u64 = static_cast<uint64_t>(*it);
                ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, peer.pidfd, &ev);
            }
            peer.attached = peer.alive = true;
            it = waiting.erase(it);
        }
        if (waiting.empty()) break;
        if (Clock::now() >= deadline)
            throw std::runtime_error("wire-up timed out waiting for the shared-memory inbox of rank " +
                                     std::to_string(waiting.front()) + " (" + std::to_string(waiting.size()) +
                                     " rank(s) missing)");
        std::this_thread::sleep_for(std::chrono::milliseconds(1));  // its owner has not created it yet
    }
}

void Driver::wake() {
    char one = 1;
    [[maybe_unused]] ssize_t n = ::write(wake_fd_, &one, 1);
}

int Driver::prepare_wait() {
    check_events();
    if (more_ || !lost_.empty()) return 1;
    SegmentHeader &h = *inbox_.header;
    store_seq(h.sleeping, 1u);
    bool ready = load_seq(h.posted) != seen_posted_;
    // Queued sends: the receivers kick us when they free room (want_space),
    // but room that is there already is work now.
    for (size_t i = 0; i < peers_.size() && !ready; ++i) {
        Peer &p = peers_[i];
        if (p.alive && busy(p) && p.need_room > 0 && (!p.dones.empty() || !p.queue.front().posted) &&
            room(p, p.need_room) >= p.need_room)
            ready = true;
    }
    if (ready) {
        std::atomic_ref<uint32_t>(h.sleeping).store(0, std::memory_order_relaxed);
        return 1;
    }
    armed_ = true;
    return 0;
}

void Driver::drop(int peer) {
    if (peer < 0 || peer >= size_) return;
    Peer &p = peers_[static_cast<size_t>(peer)];
    if (!p.alive) return;
    const bool was_busy = busy(p);
    p.alive = false;
    p.queue.clear();
    p.dones.clear();
    queue_changed(p, was_busy);
    if (p.cur.active) --partial_in_;
    p.cur = Inbound{};
    if (p.pidfd >= 0) {
        ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, p.pidfd, nullptr);
        ::close(p.pidfd);
        p.pidfd = -1;
    }
}

bool Driver::connected(int peer) const {
    if (peer < 0 || peer >= size_) return false;
    const Peer &p = peers_[static_cast<size_t>(peer)];
    return p.alive && !p.bye;
}

bool Driver::bye_received(int peer) const {
    return peer >= 0 && peer < size_ && peers_[static_cast<size_t>(peer)].bye;
}

bool Driver::flushed() const { return busy_peers_ == 0; }

int Driver::incarnation(int peer) const {
    if (peer == rank_) return incarnation_;
    if (peer < 0 || peer >= size_ || !peers_[static_cast<size_t>(peer)].attached) return -1;
    return peers_[static_cast<size_t>(peer)].incarnation;
}

void Driver::queue_changed(Peer &p, bool was_busy) {
    bool now = busy(p);
    if (now && !was_busy) ++busy_peers_;
    if (!now && was_busy) --busy_peers_;
}

// The FIFO and the pidfds: drains wake bytes, marks peers whose process ended.
void Driver::check_events() {
    epoll_event events[16];
    int n = ::epoll_wait(epoll_fd_, events, 16, 0);
    for (int i = 0; i < n; ++i) {
        if (events[i].data.u64 == fifo_tag) {
            char buf[256];
            while (::read(wake_fd_, buf, sizeof buf) > 0) {
            }
            continue;
        }
        Peer &p = peers_[static_cast<size_t>(events[i].data.u64)];
        ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, p.pidfd, nullptr);
        ::close(p.pidfd);
        p.pidfd = -1;
        p.exited = true;
        more_ = true;
    }
    last_liveness_ = Clock::now();
}

// For peers without a pidfd (old kernels): kill(pid, 0).
void Driver::check_liveness() {
    check_events();
    for (Peer &p : peers_) {
        if (p.alive && p.pidfd < 0 && p.pid > 0 && ::kill(p.pid, 0) != 0 && errno == ESRCH) {
            p.exited = true;
            more_ = true;
        }
    }
}

void Driver::lose(int peer) {
    Peer &p = peers_[static_cast<size_t>(peer)];
    if (!p.alive) return;
    const bool report = !p.bye;
    drop(peer);
    if (report) lost_.push_back(peer);
}

void Driver::report_lost() {
    while (!lost_.empty()) {
        int peer = lost_.back();
        lost_.pop_back();
        sink_.on_peer_lost(sink_.ctx, peer);
    }
}

}  // namespace ftmpi::shm
