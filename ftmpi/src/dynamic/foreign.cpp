// Accept/connect between two jobs (foreign.hpp).
#include "dynamic/foreign.hpp"

#include "dynamic/port_name.hpp"

#include "internal/comm.hpp"
#include "internal/p2p.hpp"
#include "internal/runtime.hpp"
#include "runtime/log.hpp"
#include "transport/sockets.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <vector>

namespace ftmpi::dynamic {
namespace {

using Clock = std::chrono::steady_clock;
namespace sockets = transport::sockets;

// The roots' messages on the port's socket, in host byte order (the two jobs
// run on hosts of one architecture, as the frames assume).
constexpr int32_t offer_magic = 0x46545858;   // "FTXX"
constexpr int32_t answer_magic = 0x46545859;  // "FTXY"
constexpr int32_t wire_version = 1;
constexpr size_t job_bytes = 64;  // a job id, NUL-padded
struct Offer {
    int32_t magic = offer_magic;
    int32_t version = wire_version;
    int32_t root = -1;
    int32_t count = 0;
    int32_t base = -1;
    char job[job_bytes] = {};
};
struct Answer {
    int32_t magic = answer_magic;
    int32_t status = MPI_SUCCESS;
    int32_t root = -1;
    int32_t count = 0;
    int32_t base = -1;
    int32_t tag = 0;
    char job[job_bytes] = {};
};
// One member of a group, in its comm's rank order.
struct Member {
    int32_t world = -1;
    int32_t known = 0;      // its known_world_ranks(): the alias base is above every member's
    char record[120] = {};  // its TCP contact record, "" without a network
};
static_assert(sizeof(Member) == 128);

// Collective-channel tags of comm (the dynamic part's range, above the announce tag).
constexpr int members_tag = 0x7c000010;
constexpr int ready_tag = 0x7c000020;
// The roots' messages come from running processes: a few seconds is plenty.
constexpr std::chrono::seconds exchange_time{10};
// How long the processes of the accepting group wait for the connections of
// the connecting group's processes, which are running too.
constexpr int connections_ms = 20000;
// No job has more processes (transport::max_world_ranks).
constexpr int max_group = 1 << 16;

Member me() {
    Member m;
    m.world = runtime::world_rank();
    m.known = p2p::known_world_ranks();
    const std::string record = p2p::own_contact();
    if (record.size() < sizeof m.record) std::memcpy(m.record, record.c_str(), record.size());
    return m;
}

// Every member's Member, in comm rank order, and the alias base (above every
// world rank any member knows). An MPI code.
int gather_members(MPI_Comm comm, int root, std::vector<Member> *members, int *base) {
    const Member mine = me();
    std::vector<unsigned char> all;
    if (int err = comm::gather_to_all(comm, root, members_tag, &mine, sizeof mine, all); err != MPI_SUCCESS) return err;
    members->assign(all.size() / sizeof(Member), Member{});
    std::memcpy(static_cast<void *>(members->data()), all.data(), members->size() * sizeof(Member));
    *base = 0;
    bool networked = true;
    for (const Member &m : *members) {
        *base = std::max(*base, m.known);
        networked = networked && m.record[0] != '\0';
    }
    if (!networked) {
        if (comm->rank == root)
            log::error("MPI_Comm_accept/MPI_Comm_connect: a process of this group has no network (a process started "
                       "without a launcher): it cannot reach another job");
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

bool send_all(int fd, const void *data, size_t len) {
    return sockets::io_all(fd, const_cast<void *>(data), len, true, Clock::now() + exchange_time);
}
bool receive_all(int fd, void *data, size_t len) {
    return sockets::io_all(fd, data, len, false, Clock::now() + exchange_time);
}

// Waits for the first byte of the acceptor's answer: as long as it takes the
// other job to call MPI_Comm_accept (the standard lets connect block until
// then); false when the connection ends (the port closed, its process died).
bool wait_readable(int fd) {
    while (true) {
        pollfd p{fd, POLLIN, 0};
        const int n = ::poll(&p, 1, 1000);
        if (n > 0) return (p.revents & POLLIN) != 0;
        if (n < 0 && errno != EINTR) return false;
    }
}

void copy_job(char (&to)[job_bytes]) {
    std::memcpy(to, job_id().data(), std::min(job_id().size(), job_bytes - 1));
}
std::string job_of(const char (&from)[job_bytes]) {
    return std::string(from, strnlen(from, job_bytes));
}

// Text among ints, for share_from_root (its length, then one int per character).
void append_text(std::vector<int> &v, const std::string &text) {
    v.push_back(static_cast<int>(text.size()));
    for (char c : text) v.push_back(static_cast<unsigned char>(c));
}
bool take_text(const std::vector<int> &v, size_t *at, std::string *text) {
    if (*at >= v.size() || v[*at] < 0 || v.size() - *at - 1 < static_cast<size_t>(v[*at])) return false;
    const size_t n = static_cast<size_t>(v[(*at)++]);
    text->clear();
    for (size_t i = 0; i < n; ++i) text->push_back(static_cast<char>(v[(*at)++]));
    return true;
}

std::vector<int> numbers(int base, int count) {
    std::vector<int> v;
    for (int i = 0; i < count; ++i) v.push_back(base + i);
    return v;
}

// The connecting root's exchange on the port's socket. An MPI code; fills
// *answer and *remote.
int exchange_as_connector(const std::string &address, const Offer &offer, const std::vector<Member> &group,
                          Answer *answer, std::vector<Member> *remote) {
    sockaddr_in sa{};
    try {
        sa = sockets::parse_address(address);
    } catch (const std::exception &) {
        return MPI_ERR_PORT;
    }
    const int fd = sockets::connect_before(sa, Clock::now() + exchange_time);
    if (fd < 0) {
        log::error("MPI_Comm_connect: the port's socket %s refuses connections: the port is closed", address.c_str());
        return MPI_ERR_PORT;
    }
    sockets::set_keepalive(fd);  // a wait for the accept ends if the acceptor's host dies silently
    int status = MPI_SUCCESS;
    if (!send_all(fd, &offer, sizeof offer) || !send_all(fd, group.data(), group.size() * sizeof(Member)) ||
        !wait_readable(fd) || !receive_all(fd, answer, sizeof *answer) || answer->magic != answer_magic) {
        log::error("MPI_Comm_connect: the port at %s was closed (or its process ended) before accepting",
                   address.c_str());
        status = MPI_ERR_PORT;
    } else if (answer->status != MPI_SUCCESS) {
        status = answer->status;
    } else if (answer->count < 1 || answer->count > max_group || answer->root < 0 || answer->root >= answer->count ||
               answer->base < 0) {
        status = MPI_ERR_INTERN;
    } else {
        remote->assign(static_cast<size_t>(answer->count), Member{});
        if (!receive_all(fd, remote->data(), remote->size() * sizeof(Member))) status = MPI_ERR_PORT;
    }
    ::close(fd);
    return status;
}

// The connecting root's request read by the accepting root; the offered group's
// members are read after it, into *remote.
bool read_request(int fd, ForeignOffer *out, std::vector<Member> *remote) {
    Offer offer;
    if (!receive_all(fd, &offer, sizeof offer) || offer.magic != offer_magic || offer.version != wire_version ||
        offer.count < 1 || offer.count > max_group || offer.root < 0 || offer.root >= offer.count || offer.base < 0)
        return false;
    remote->assign(static_cast<size_t>(offer.count), Member{});
    if (!receive_all(fd, remote->data(), remote->size() * sizeof(Member))) return false;
    out->fd = fd;
    out->root = offer.root;
    out->count = offer.count;
    out->base = offer.base;
    out->job = job_of(offer.job);
    out->worlds.clear();
    for (const Member &m : *remote) out->worlds.push_back(m.world);
    return !out->job.empty() && out->job != job_id();
}

}  // namespace

bool read_offer(int fd, ForeignOffer *out) {
    std::vector<Member> remote;  // the accepting side needs only their number
    if (read_request(fd, out, &remote)) return true;
    log::warn("MPI_Comm_accept: a connection to the port's socket (%s) did not send a connect request: ignored",
              sockets::peer_name(fd).c_str());
    ::close(fd);
    return false;
}

int accept_foreign(MPI_Comm comm, int root, const ForeignOffer &offer, int tag, MPI_Comm *newcomm) {
    const bool at_root = comm->rank == root;
    std::vector<Member> group;
    int base = 0;
    int err = gather_members(comm, root, &group, &base);
    const std::vector<int> theirs = numbers(base, offer.count);  // the connecting group, numbered here
    // Who they are in their job, from the root: the order of processes
    // both jobs see alike (p2p::process_before) needs it.
    std::vector<int> who;
    if (at_root) {
        append_text(who, offer.job);
        who.insert(who.end(), offer.worlds.begin(), offer.worlds.end());
    }
    if (err == MPI_SUCCESS) err = comm::share_from_root(comm, root, who);
    std::string their_job;
    size_t at = 0;
    if (err == MPI_SUCCESS && (!take_text(who, &at, &their_job) || who.size() - at != static_cast<size_t>(offer.count)))
        err = MPI_ERR_INTERN;
    if (err == MPI_SUCCESS) {
        std::vector<p2p::ForeignPeer> peers;
        for (int j = 0; j < offer.count; ++j) {
            p2p::ForeignPeer f;
            f.peer = theirs[static_cast<size_t>(j)];
            f.world = who[at + static_cast<size_t>(j)];
            f.job = their_job;
            f.job_first = their_job < job_id();
            peers.push_back(std::move(f));
        }
        p2p::expect_foreign(peers);
        // Every member expects the connections before the root answers.
        const char ready = 1;
        std::vector<unsigned char> all;
        err = comm::gather_to_all(comm, root, ready_tag, &ready, sizeof ready, all);
    }
    if (at_root) {
        Answer answer;
        answer.status = err;
        answer.root = root;
        answer.count = comm->size;
        answer.base = base;
        answer.tag = tag;
        copy_job(answer.job);
        if (!send_all(offer.fd, &answer, sizeof answer) ||
            (err == MPI_SUCCESS && !send_all(offer.fd, group.data(), group.size() * sizeof(Member))))
            log::warn("MPI_Comm_accept: the connecting root of the other job did not take the answer");
        ::close(offer.fd);
    }
    if (err != MPI_SUCCESS) return err;
    // A process of the other group that never connects is a failed member
    // of the new intercommunicator, as a spawned process would be.
    p2p::wait_connected(theirs, connections_ms, "a process of the other job did not connect in time");
    const std::vector<int> mine_there = numbers(offer.base, comm->size);
    return comm::connect_groups(comm, root, base + offer.root, tag, newcomm, &mine_there);
}

int connect_foreign(MPI_Comm comm, int root, const std::string &address, MPI_Comm *newcomm) {
    std::vector<Member> group;
    int base = 0;
    int err = gather_members(comm, root, &group, &base);
    // The root's outcome for every member: status, the other side's alias
    // base, root, size and bridge tag, then its members as ints.
    std::vector<int> outcome;
    if (comm->rank == root) {
        Answer answer;
        std::vector<Member> remote;
        if (err == MPI_SUCCESS) {
            Offer offer;
            offer.root = root;
            offer.count = comm->size;
            offer.base = base;
            copy_job(offer.job);
            err = exchange_as_connector(address, offer, group, &answer, &remote);
        }
        outcome = {err, answer.base, answer.root, answer.count, answer.tag};
        if (err == MPI_SUCCESS) {
            append_text(outcome, job_of(answer.job));
            const size_t at = outcome.size(), ints = remote.size() * sizeof(Member) / sizeof(int);
            outcome.resize(at + ints);
            std::memcpy(outcome.data() + at, remote.data(), remote.size() * sizeof(Member));
        }
    }
    if (int shared = comm::share_from_root(comm, root, outcome); shared != MPI_SUCCESS) return shared;
    if (outcome.size() < 5) return MPI_ERR_INTERN;
    if (outcome[0] != MPI_SUCCESS) return outcome[0];
    const int their_base = outcome[1], their_root = outcome[2], count = outcome[3], tag = outcome[4];
    size_t at = 5;
    std::string their_job;
    if (count < 1 || !take_text(outcome, &at, &their_job) || their_job.empty() || their_job == job_id() ||
        outcome.size() - at != static_cast<size_t>(count) * sizeof(Member) / sizeof(int))
        return MPI_ERR_INTERN;
    std::vector<Member> remote(static_cast<size_t>(count));
    std::memcpy(static_cast<void *>(remote.data()), outcome.data() + at, remote.size() * sizeof(Member));
    std::vector<p2p::ForeignPeer> peers;
    for (int j = 0; j < count; ++j) {
        p2p::ForeignPeer f;
        f.peer = base + j;
        f.world = remote[static_cast<size_t>(j)].world;
        f.alias_there = their_base + comm->rank;
        f.record.assign(remote[static_cast<size_t>(j)].record,
                        strnlen(remote[static_cast<size_t>(j)].record, sizeof(Member::record)));
        f.job = their_job;
        f.job_first = their_job < job_id();
        peers.push_back(std::move(f));
    }
    p2p::reach_foreign(peers, connections_ms);  // those not reached are failed members
    const std::vector<int> mine_there = numbers(their_base, comm->size);
    return comm::connect_groups(comm, root, base + their_root, tag, newcomm, &mine_there);
}

}  // namespace ftmpi::dynamic
