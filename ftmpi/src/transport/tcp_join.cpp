// The TCP transport's joining side (REBUILD):
// the listener kept open after the mesh, the hello check, joining
// connections held until admit(), and a replacement's own wire-up.
//
// A replacement of rank r (incarnation k, round R) writes its contact record
// and connects to every rank it has a record of, with a hello naming the
// destination and the incarnation it read; the destination answers with a
// hello (frame_hello_ack) once it accepted. A rank whose record is old and
// that does not answer within the deadline is dead (its record is stale):
// the replacement treats it as failed. Two replacements of the same round:
// the higher connects to the lower when it sees the lower's new record; the
// lower, if it sees the higher's new record, waits for that connection and
// connects itself when it does not come. The higher may have read the
// lower's old record: it then reads the record again once the survivors'
// state names the lower's new incarnation, and connects (reach_fellow,
// adopt_fellow; ft/recovery/join.cpp), well before the lower's wait ends.
// A same-round connection is admitted at once on both sides; any other
// joining connection waits for admit() (recovery).
#include "runtime/log.hpp"
#include "transport/sockets.hpp"
#include "transport/tcp.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <thread>

#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace ftmpi::transport {

using namespace sockets;

namespace {
constexpr size_t max_pending = 64;                // connections still owing their hello
constexpr std::chrono::seconds answer_grace{10};  // for a hello-ack, after the connect deadline
}  // namespace

Contact Contact::parse(const std::string &record) {
    Contact c;
    std::istringstream in(record);
    in >> c.address;
    if (!(in >> c.incarnation >> c.round)) c.incarnation = c.round = 0;  // a part-1 record: "host:port"
    return c;
}

std::string Contact::record() const {
    if (incarnation == 0 && round == 0) return address;  // readable by part-1 readers
    return address + " " + std::to_string(incarnation) + " " + std::to_string(round);
}

int Tcp::incarnation(int peer) const {
    if (peer == my_rank_) return my_incarnation_;
    return peer >= 0 && peer < static_cast<int>(conns_.size()) ? conns_[peer].incarnation : -1;
}

int Tcp::joining_incarnation(int peer) const {
    return peer >= 0 && peer < static_cast<int>(joining_.size()) && joining_[peer].fd >= 0 ? joining_[peer].incarnation
                                                                                           : -1;
}

bool Tcp::admit(int peer, int incarnation) {
    if (joining_incarnation(peer) != incarnation) return false;
    Joining j = joining_[peer];
    joining_[peer] = Joining{};
    if (conns_[peer].alive) lose(peer, false);  // the old incarnation's connection, if still open
    install(peer, j.fd, incarnation);
    return true;
}

void Tcp::refuse(int fd, const std::string &from, const std::string &why) {
    log::warn("rank %d: refused a connection from %s: %s", my_rank_, from.c_str(), why.c_str());
    ::close(fd);
}

void Tcp::keep_listening() {
    set_nonblocking(listen_fd_);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = listen_tag;
    epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, listen_fd_, &ev);
}

void Tcp::accept_ready() {
    while (true) {
        int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            return;  // EAGAIN, or out of descriptors: try again at the next event
        }
        if (pending_.size() >= max_pending) {
            refuse(fd, peer_name(fd), "too many connections that have not sent their hello");
            continue;
        }
        uint64_t id = next_pending_++;
        Pending &p = pending_[id];
        p.fd = fd;
        p.since = std::chrono::steady_clock::now();
        p.from = peer_name(fd);
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.u64 = pending_tag_base + id;
        epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev);
    }
}

void Tcp::close_pending(uint64_t id, const char *why) {
    auto it = pending_.find(id);
    if (it == pending_.end()) return;
    epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, it->second.fd, nullptr);
    refuse(it->second.fd, it->second.from, why);
    pending_.erase(it);
}

void Tcp::expire_pending() {
    const auto now = std::chrono::steady_clock::now();
    std::vector<uint64_t> late;
    for (auto &[id, p] : pending_)
        if (now - p.since > hello_timeout) late.push_back(id);
    for (uint64_t id : late) close_pending(id, "no hello within 5 s");
}

void Tcp::pending_ready(uint64_t id) {
    auto it = pending_.find(id);
    if (it == pending_.end()) return;
    Pending &p = it->second;
    while (p.got < sizeof(Frame)) {
        // Exactly the hello: what follows it stays in the socket for the
        // connection's reader.
        ssize_t n = ::recv(p.fd, reinterpret_cast<char *>(&p.hello) + p.got, sizeof(Frame) - p.got, MSG_DONTWAIT);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return;
        if (n <= 0) {
            close_pending(id, n == 0 ? "closed before completing its hello" : "error before completing its hello");
            return;
        }
        p.got += static_cast<size_t>(n);
    }
    epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, p.fd, nullptr);
    Pending done = std::move(p);
    pending_.erase(it);
    hello_complete(std::move(done));
}

void Tcp::hello_complete(Pending p) {
    const Frame &h = p.hello;
    const int n = static_cast<int>(conns_.size());
    if (h.kind != FrameKind::hello || h.sender_id != hello_magic) return refuse(p.fd, p.from, "not an FT-MPI hello");
    const int src = h.source, inc = h.tag;
    if (h.flags & frame_hello_foreign) return take_foreign(p);
    if ((h.flags & frame_hello_spawned) && take_spawned(p)) return;
    if (src < 0 || src >= n || src == my_rank_)
        return refuse(p.fd, p.from,
                      "hello from rank " + std::to_string(src) + ", not a peer of rank " + std::to_string(my_rank_));
    if (h.length != static_cast<uint64_t>(my_rank_))
        return refuse(p.fd, p.from, "hello meant for rank " + std::to_string(h.length));
    if (h.receiver_id != static_cast<uint64_t>(my_incarnation_))
        return refuse(p.fd, p.from,
                      "hello from rank " + std::to_string(src) + " meant for incarnation " +
                          std::to_string(static_cast<int64_t>(h.receiver_id)) + " of this rank (a stale record)");
    if (inc < 0 || inc <= conns_[src].incarnation || inc <= joining_[src].incarnation)
        return refuse(p.fd, p.from,
                      "stale incarnation " + std::to_string(inc) + " of rank " + std::to_string(src) + " (known: " +
                          std::to_string(std::max(conns_[src].incarnation, joining_[src].incarnation)) + ")");
    Frame ack = make_hello(src, inc);
    ack.flags = frame_hello_ack;
    if (!io_all(p.fd, &ack, sizeof ack, true, std::chrono::steady_clock::now() + std::chrono::seconds(1)))
        return refuse(p.fd, p.from, "closed before the hello answer");
    if (my_incarnation_ > 0 && static_cast<int>(h.context) == my_round_) {
        // A fellow replacement of this round: both are new, nothing to agree.
        if (conns_[src].alive) lose(src, false);
        install(src, p.fd, inc);
        sink_.on_joined(src);
        return;
    }
    if (joining_[src].fd >= 0) ::close(joining_[src].fd);  // an older replacement that never got admitted
    joining_[src] = Joining{p.fd, inc};
    // Not in epoll: its frames wait in the socket until admit().
}

// Connects to `peer` as a replacement would and waits for its answer.
// Returns the fd (blocking) or -1.
int Tcp::handshake(int peer, const Contact &contact, std::chrono::steady_clock::time_point deadline, bool retry,
                   int *incarnation) const {
    sockaddr_in sa{};
    try {
        sa = parse_address(contact.address);
    } catch (const std::exception &) {
        return -1;
    }
    while (true) {
        int fd = connect_before(sa, deadline);
        if (fd >= 0) {
            // Something accepted: a live process (a dead one's port refuses).
            // Its engine answers when it next polls, which on a loaded host
            // may take a while: a longer wait than for the connect.
            const auto answer_deadline = deadline + answer_grace;
            Frame hello = make_hello(peer, contact.incarnation), ack{};
            if (io_all(fd, &hello, sizeof hello, true, answer_deadline) &&
                io_all(fd, &ack, sizeof ack, false, answer_deadline) && ack.kind == FrameKind::hello &&
                (ack.flags & frame_hello_ack) && ack.sender_id == hello_magic && ack.source == peer &&
                ack.length == static_cast<uint64_t>(my_rank_)) {
                *incarnation = ack.tag;
                return fd;
            }
            ::close(fd);
            return -1;  // it answered but refused us (or is not that rank): no retry
        }
        if (!retry || std::chrono::steady_clock::now() >= deadline) return -1;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

std::vector<int> Tcp::join_mesh(int my_rank, const std::vector<std::string> &records,
                                std::chrono::milliseconds per_peer) {
    my_rank_ = my_rank;
    const int n = static_cast<int>(records.size());
    conns_.clear();
    conns_.resize(n);
    backlogged_ = 0;
    joining_.assign(n, Joining{});
    std::vector<int> failed, wait_for;
    std::vector<Contact> contacts(n);
    for (int q = 0; q < n; ++q) {
        if (q == my_rank) continue;
        if (records[q].empty()) {
            failed.push_back(q);
            continue;
        }
        contacts[q] = Contact::parse(records[q]);
        const bool same_round = my_round_ > 0 && contacts[q].round >= my_round_;
        if (same_round && q > my_rank) {
            wait_for.push_back(q);  // it connects to us
            continue;
        }
        int inc = 0;
        int fd = handshake(q, contacts[q], std::chrono::steady_clock::now() + per_peer, same_round, &inc);
        if (fd < 0) {
            failed.push_back(q);
            continue;
        }
        install(q, fd, inc);
    }
    keep_listening();
    // Fellow replacements above us: their connections arrive through the
    // listener (auto-admitted); if one does not come, it read our old record.
    const auto deadline = std::chrono::steady_clock::now() + per_peer;
    wait_for_peers(wait_for, deadline);
    for (int q : wait_for) {
        if (conns_[q].alive) continue;
        int inc = 0;
        int fd = handshake(q, contacts[q], std::chrono::steady_clock::now() + per_peer, true, &inc);
        if (fd < 0 || conns_[q].alive) {  // it may have come meanwhile
            if (fd >= 0) ::close(fd);
            if (!conns_[q].alive) failed.push_back(q);
            continue;
        }
        install(q, fd, inc);
    }
    return failed;
}

int Tcp::reach_fellow(int peer, const std::string &record, std::chrono::steady_clock::time_point deadline,
                      int *incarnation) const {
    // No retry: the fellow listened before it wrote this record, so a
    // refused connect means it is gone.
    return handshake(peer, Contact::parse(record), deadline, false, incarnation);
}

bool Tcp::adopt_fellow(int peer, int fd, int incarnation) {
    if (peer < 0 || peer >= static_cast<int>(conns_.size()) ||
        (conns_[peer].alive && conns_[peer].incarnation >= incarnation)) {
        // Its own connection was taken here meanwhile: keep that one. (It
        // connects only when ours has not come, and then refuses ours.)
        ::close(fd);
        return false;
    }
    if (conns_[peer].alive) lose(peer, false);  // the old incarnation's, if still open
    install(peer, fd, incarnation);
    return true;
}

}  // namespace ftmpi::transport
