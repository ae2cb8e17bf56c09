// The TCP transport and processes of another job, joined to this one by
// MPI_Comm_connect/accept.
//
// Each job numbers the other job's processes after every world rank it
// knows (aliases agreed by the connecting group, dynamic/foreign.cpp): a
// frame is attributed to the connection it came on, never to the number it
// carries, so the two numberings need not agree. The connecting job's
// processes connect to every process of the accepting group with a hello
// flagged frame_hello_foreign whose source is the alias the receiver gave
// them; the receiver takes it only for an alias it expects, once.
#include "runtime/log.hpp"
#include "transport/sockets.hpp"
#include "transport/tcp.hpp"

#include <string>

#include <unistd.h>

namespace ftmpi::transport {

using namespace sockets;

void Tcp::expect_foreign(int peer) {
    if (peer < 0 || peer >= max_world_ranks) return;
    grow(peer + 1);
    if (expected_foreign_.size() < conns_.size()) expected_foreign_.resize(conns_.size(), 0);
    expected_foreign_[static_cast<size_t>(peer)] = 1;
}

void Tcp::take_foreign(const Pending &p) {
    const Frame &h = p.hello;
    const int src = h.source;
    if (src < 0 || src >= static_cast<int>(expected_foreign_.size()) || !expected_foreign_[static_cast<size_t>(src)])
        return refuse(p.fd, p.from, "a hello from another job for number " + std::to_string(src) + ", not expected");
    if (h.length != static_cast<uint64_t>(my_rank_) || h.receiver_id != static_cast<uint64_t>(my_incarnation_))
        return refuse(p.fd, p.from, "a hello from another job meant for another process");
    if (conns_[src].ever) return refuse(p.fd, p.from, "a hello from another job for a number in use");
    Frame ack = make_hello(my_rank_, 0);
    ack.flags = frame_hello_ack | frame_hello_foreign;
    ack.length = static_cast<uint64_t>(src);
    if (!io_all(p.fd, &ack, sizeof ack, true, std::chrono::steady_clock::now() + std::chrono::seconds(1)))
        return refuse(p.fd, p.from, "closed before the hello answer");
    expected_foreign_[static_cast<size_t>(src)] = 0;
    install(src, p.fd, h.tag);
    sink_.on_joined(src);
}

int Tcp::reach_foreign(const std::string &record, int their_world, int alias_there,
                       std::chrono::steady_clock::time_point deadline, int *incarnation) const {
    const Contact contact = Contact::parse(record);
    sockaddr_in sa{};
    try {
        sa = parse_address(contact.address);
    } catch (const std::exception &) {
        return -1;
    }
    // Its listener is open since its MPI_Init: a refused connect means it is gone.
    const int fd = connect_before(sa, deadline);
    if (fd < 0) return -1;
    Frame hello = make_hello(their_world, contact.incarnation), ack{};
    hello.source = alias_there;
    hello.flags = frame_hello_foreign;
    if (io_all(fd, &hello, sizeof hello, true, deadline) && io_all(fd, &ack, sizeof ack, false, deadline) &&
        ack.kind == FrameKind::hello && ack.sender_id == hello_magic && (ack.flags & frame_hello_ack) &&
        (ack.flags & frame_hello_foreign) && ack.source == their_world &&
        ack.length == static_cast<uint64_t>(alias_there)) {
        *incarnation = ack.tag;
        return fd;
    }
    ::close(fd);
    return -1;
}

bool Tcp::adopt_foreign(int peer, int fd, int incarnation) {
    if (peer < 0 || peer >= max_world_ranks) {
        ::close(fd);
        return false;
    }
    grow(peer + 1);
    if (conns_[peer].ever) {
        ::close(fd);
        return false;
    }
    install(peer, fd, incarnation);
    return true;
}

}  // namespace ftmpi::transport
