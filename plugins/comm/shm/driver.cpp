// The driver's life cycle, wire-up and waiting (see driver.hpp).
#include "driver.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace ftmpi::shm {

namespace {

size_t next_power_of_two(size_t n) {
    size_t p = 1;
    while (p < n) p <<= 1;
    return p;
}

// A size as libftmpi's settings write it: a number with an optional K, M or
// G; nullopt for anything else.
std::optional<size_t> size_from_environment(const char *name) {
    const char *v = std::getenv(name);
    if (!v || !*v) return std::nullopt;
    char *end = nullptr;
    unsigned long long n = std::strtoull(v, &end, 0);
    const int shift = *end == 'K' || *end == 'k' ? 10
        : *end == 'M' || *end == 'm'             ? 20
        : *end == 'G' || *end == 'g'             ? 30
                                                 : 0;
    if (shift != 0 && end[1] == '\0' && n <= (~0ull >> shift)) {
        n <<= shift;
        ++end;
    }
    if (!end || *end != '\0') return std::nullopt;
    return static_cast<size_t>(n);
}

}  // namespace

// This plugin is loaded into a rank but links nothing of libftmpi, so it
// reads its variables itself. libftmpi's settings table declares them
// (FTMPI_SHM_RING_BYTES and FTMPI_SHM_CMA_MIN sizes, FTMPI_SHM_CMA one of 1
// or 0) and MPI_Init refuses an invalid value before any driver is opened;
// the parser here accepts the same syntax and ignores what it does not
// understand, which matters only when the plugin runs without libftmpi (its
// unit tests).
Settings Settings::from_environment() {
    Settings s;
    if (auto n = size_from_environment("FTMPI_SHM_RING_BYTES"); n && *n > 0)
        s.ring_bytes = next_power_of_two(std::clamp<size_t>(*n, 4096, size_t{64} << 20));
    if (auto n = size_from_environment("FTMPI_SHM_CMA_MIN")) s.cma_min = *n;
    if (const char *v = std::getenv("FTMPI_SHM_CMA"); v && std::strcmp(v, "0") == 0) s.cma = false;
    s.eager_limit = std::min(s.eager_limit, s.ring_bytes / 4);
    return s;
}

Driver::Driver(const ftmpi_transport_open_args &args, const ftmpi_transport_sink &sink, const Settings &settings)
    : settings_(settings), job_(args.job ? args.job : ""), rank_(args.rank), size_(args.size),
      incarnation_(args.incarnation), round_(args.round), host_key_(host_key()) {
    // The caller's sink may be an older, shorter struct.
    std::memcpy(&sink_, &sink, std::min<size_t>(sink.struct_size, sizeof sink_));
    has_on_joined_ = sink.struct_size >= offsetof(ftmpi_transport_sink, on_joined) + sizeof sink_.on_joined &&
        sink_.on_joined != nullptr;
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

std::string Driver::address() const {
    return host_key_ + ":" + std::to_string(incarnation_) + ":" + std::to_string(round_);
}

bool Driver::reachable(const std::string &address) const {
    int incarnation = 0, round = 0;
    return parse_address(address.c_str(), &incarnation, &round);
}

// "<host key>:<incarnation>:<round>" of this host.
bool Driver::parse_address(const char *address, int *incarnation, int *round) const {
    if (!address) return false;
    const char *colon = std::strchr(address, ':');
    if (!colon || static_cast<size_t>(colon - address) != host_key_.size() ||
        host_key_.compare(0, host_key_.size(), address, host_key_.size()) != 0)
        return false;
    return std::sscanf(colon + 1, "%d:%d", incarnation, round) == 2 && *incarnation >= 0;
}

void Driver::connect(const char *const *addresses, const unsigned char *mine, int timeout_ms) {
    std::vector<int> waiting;
    for (int p = 0; p < size_; ++p) {
        if (p == rank_ || !mine || !mine[p]) continue;
        const char *a = addresses ? addresses[p] : nullptr;
        Peer &peer = peers_[static_cast<size_t>(p)];
        if (!parse_address(a, &peer.incarnation, &peer.round))
            throw std::runtime_error("rank " + std::to_string(p) + " is not on this host (address '" +
                                     std::string(a ? a : "") + "')");
        if (peer.attached) continue;
        peer.carried = true;
        peer.in_incarnation = peer.incarnation;
        waiting.push_back(p);
    }
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms < 0 ? 0 : timeout_ms);
    while (!waiting.empty()) {
        std::erase_if(waiting, [this](int p) {
            const Attach a = attach_peer(p, slot_attached);
            if (a == Attach::dead) {
                // It wired up over TCP, then died before we attached: a
                // failure, not a hang here. The next progress() still reads
                // what it wrote into our inbox (it may have sent, then
                // exited), then reports it lost; nothing is sent to it.
                Peer &dead = peers_[static_cast<size_t>(p)];
                dead.alive = dead.exited = true;
                note_reader(p);
                more_ = true;
            }
            return a != Attach::not_yet;
        });
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
    std::atomic_thread_fence(std::memory_order_seq_cst);  // pairs with wake_if_sleeping's
    bool ready = load_relaxed(h.posted) != seen_posted_ || rings_pending();
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

void Driver::drain_failed(int peer) {
    if (peer < 0 || peer >= size_) return;
    while (peers_[static_cast<size_t>(peer)].alive && drain(peer) > 0) {}
}

bool Driver::connected(int peer) const {
    if (peer < 0 || peer >= size_) return false;
    const Peer &p = peers_[static_cast<size_t>(peer)];
    return p.alive && !p.bye;
}

bool Driver::bye_received(int peer) const {
    return peer >= 0 && peer < size_ && peers_[static_cast<size_t>(peer)].bye;
}

bool Driver::flushed() const {
    return busy_peers_ == 0;
}

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
            while (::read(wake_fd_, buf, sizeof buf) > 0) {}
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
