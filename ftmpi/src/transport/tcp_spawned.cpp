// The TCP transport and processes that MPI_Comm_spawn adds to a running job.
//
// A spawned process has a world rank no process of the job has used before.
// It connects to every process that was in the job when it started, as a
// REBUILD replacement does, but with frame_hello_spawned in its hello: a
// receiver makes room for the new rank and takes the connection at once,
// since there is no older incarnation to agree about. Siblings (spawned
// together) connect higher to lower, like the first mesh.
#include "runtime/log.hpp"
#include "transport/sockets.hpp"
#include "transport/tcp.hpp"

#include <algorithm>
#include <string>

namespace ftmpi::transport {

using namespace sockets;

void Tcp::grow(int n) {
    if (n <= size()) return;
    conns_.resize(static_cast<size_t>(n));
    joining_.resize(static_cast<size_t>(n));
}

bool Tcp::take_spawned(const Pending &p) {
    const Frame &h = p.hello;
    const int src = h.source;
    if (src >= max_world_ranks) {
        refuse(p.fd, p.from,
               "hello from world rank " + std::to_string(src) + ", beyond the limit of " +
                   std::to_string(max_world_ranks));
        return true;
    }
    if (src < 0 || src == my_rank_ || h.tag != 0 || h.length != static_cast<uint64_t>(my_rank_) ||
        h.receiver_id != static_cast<uint64_t>(my_incarnation_))
        return false;  // the ordinary checks refuse it with the reason
    grow(src + 1);
    if (conns_[src].ever || joining_[src].fd >= 0) return false;  // a rank in use is never taken over
    Frame ack = make_hello(src, 0);
    ack.flags = frame_hello_ack;
    if (!io_all(p.fd, &ack, sizeof ack, true, std::chrono::steady_clock::now() + std::chrono::seconds(1))) {
        refuse(p.fd, p.from, "closed before the hello answer");
        return true;
    }
    install(src, p.fd, 0);
    sink_.on_joined(src);
    return true;
}

void Tcp::wait_for_peers(const std::vector<int> &peers, std::chrono::steady_clock::time_point deadline,
                         const PeerEnded &ended) {
    // A peer that ended meanwhile is not waited for (its connection never comes).
    std::vector<char> gone(conns_.size(), 0);
    auto missing = [&] {
        return std::any_of(peers.begin(), peers.end(), [&](int q) {
            if (!conns_[q].alive && !gone[q] && ended && ended(q)) gone[q] = 1;
            return !conns_[q].alive && !gone[q];
        });
    };
    while (missing() && std::chrono::steady_clock::now() < deadline) {
        int left = static_cast<int>(
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count());
        process_events(wait_events(std::max(1, std::min(left, 50))));
    }
}

std::vector<int> Tcp::join_spawned(int my_rank, const std::vector<std::string> &records, int first_sibling,
                                   std::chrono::milliseconds per_peer, std::chrono::milliseconds siblings,
                                   const PeerEnded &ended) {
    my_rank_ = my_rank;
    spawned_ = true;
    const int n = static_cast<int>(records.size());
    conns_.clear();
    conns_.resize(static_cast<size_t>(n));
    backlogged_ = 0;
    joining_.assign(static_cast<size_t>(n), Joining{});
    keep_listening();
    std::vector<int> failed, higher;
    for (int q = 0; q < n; ++q) {
        if (q == my_rank) continue;
        if (records[q].empty()) {  // it ended before it published its contact
            failed.push_back(q);
            continue;
        }
        if (q > my_rank && q >= first_sibling) {
            higher.push_back(q);  // it connects to us
            continue;
        }
        // A process of the job answers at once or is dead (its port
        // refuses, or its host does not answer within per_peer); a sibling
        // may still be starting, so it is retried.
        const bool sibling = q >= first_sibling;
        const auto deadline = std::chrono::steady_clock::now() + (sibling ? siblings : per_peer);
        int inc = 0;
        int fd = handshake(q, Contact::parse(records[q]), deadline, sibling, &inc);
        if (fd < 0) {
            failed.push_back(q);
            continue;
        }
        install(q, fd, inc);
    }
    wait_for_peers(higher, std::chrono::steady_clock::now() + siblings, ended);
    for (int q : higher)
        if (!conns_[q].alive) failed.push_back(q);
    return failed;
}

}  // namespace ftmpi::transport
