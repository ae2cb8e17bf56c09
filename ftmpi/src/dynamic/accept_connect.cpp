// MPI_Open_port, MPI_Close_port, MPI_Comm_accept and MPI_Comm_connect.
//
// Within one job the roots meet through the acceptor's listener
// (ports.hpp): the connecting root sends a request and waits for the
// answer, which carries the tag of their bridge. Each root then tells its
// own group the outcome (the other root's world rank and the tag, or an
// error), and both groups build the intercommunicator with
// comm::connect_groups. A port of another job is reached through its own
// socket instead (foreign.hpp); the roots' outcome then says so, and both
// groups go on there.
#include "dynamic/foreign.hpp"
#include "dynamic/port_name.hpp"
#include "dynamic/ports.hpp"

#include "internal/comm.hpp"
#include "internal/errors.hpp"
#include "internal/p2p.hpp"
#include "internal/pmpi.hpp"
#include "internal/runtime.hpp"
#include "runtime/log.hpp"

#include <atomic>
#include <cstdio>
#include <cstring>

#include <unistd.h>

namespace ftmpi::dynamic {
namespace {

// The roots' outcome, sent to the rest of their group on comm's collective
// channel (a tag no collective algorithm or constructor uses).
constexpr int announce_tag = 0x7c000000;
// connect_groups' tags for accept/connect bridges: tag, tag+1, tag+2.
constexpr int accept_bridge_tag_base = 0x20000000;

struct Outcome {
    int32_t status = MPI_SUCCESS;
    int32_t peer_world = -1;
    int32_t tag = 0;
    // Another job's group (foreign.hpp): at the acceptor, what its root
    // offered (root, size, alias base); at the connector, nothing yet.
    int32_t foreign = 0;
    int32_t offer_root = -1, offer_count = 0, offer_base = -1;
};

// Root-only state of a cross-job accept or connect: the offer's connection
// and the port's socket address (never sent to the other members).
struct RootSide {
    ForeignOffer offer;
    std::string address;
};

// A tag no other bridge between this process and `peer` uses: this
// process's counter, with a parity bit that the two processes of a pair set
// differently (the lower world rank 0, the other 1).
int fresh_bridge_tag(int peer) {
    static std::atomic<uint32_t> accepted{0};
    const uint32_t k = accepted.fetch_add(1) % 0x800000u;
    const uint32_t side = runtime::world_rank() < peer ? 0u : 1u;
    return accept_bridge_tag_base + 4 * static_cast<int>(k * 2 + side);
}

// The common argument checks of accept and connect (every member).
int check_collective_args(MPI_Comm comm, int root, MPI_Comm *newcomm) {
    if (!comm::valid(comm) || comm->inter) return MPI_ERR_COMM;
    if (newcomm == nullptr) return MPI_ERR_ARG;
    if (root < 0 || root >= comm->size) return MPI_ERR_ROOT;
    return MPI_SUCCESS;
}

// A port name this process may use: MPI_ERR_PORT with a line on stderr if not.
int parse_usable(const char *function, const char *text, PortName *out) {
    auto p = parse_port(text);
    if (!p) {
        log::error("%s: \"%.200s\" is not a port name of FT-MPI (MPI_Open_port gives them)", function,
                   text != nullptr ? text : "(null)");
        return MPI_ERR_PORT;
    }
    if (p->job != job_id()) {
        if (p->address.empty()) {
            log::error("%s: port %.200s belongs to job %s, this process to job %s, and names no address to reach "
                       "it by (its process has no network)",
                       function, text, p->job.c_str(), job_id().c_str());
            return MPI_ERR_PORT;
        }
        *out = *p;
        return MPI_SUCCESS;
    }
    if (p->world >= p2p::known_world_ranks()) {
        log::error("%s: port %.200s names process %d, which this job does not have", function, text, p->world);
        return MPI_ERR_PORT;
    }
    *out = *p;
    return MPI_SUCCESS;
}

Outcome accept_at_root(const char *port_name, RootSide *side) {
    Outcome o;
    PortName p;
    o.status = port_name == nullptr ? MPI_ERR_ARG : parse_usable("MPI_Comm_accept", port_name, &p);
    if (o.status == MPI_SUCCESS && (p.job != job_id() || p.world != runtime::world_rank())) {
        log::error("MPI_Comm_accept: port %.200s was opened by process %d, not by this one", port_name, p.world);
        o.status = MPI_ERR_PORT;
    }
    while (o.status == MPI_SUCCESS) {
        Incoming in;
        o.status = next_request(p.number, &in);
        if (o.status == MPI_ERR_PORT) log::error("MPI_Comm_accept: port %.200s is not open", port_name);
        if (o.status != MPI_SUCCESS) break;
        if (in.fd >= 0) {  // a process of another job, on the port's socket
            if (!read_offer(in.fd, &side->offer)) continue;
            o.foreign = 1;
            o.offer_root = side->offer.root;
            o.offer_count = side->offer.count;
            o.offer_base = side->offer.base;
            o.tag = fresh_bridge_tag(-1);  // the bridge joins two new numbers: any tag is free
            break;
        }
        ConnectReply reply{MPI_SUCCESS, fresh_bridge_tag(in.world)};
        MPI_Comm bridge = comm::make_bridge(in.world);
        const int err = p2p::send(&reply, sizeof reply, MPI_BYTE, 0, reply_tag(in.nonce), bridge, p2p::Channel::user);
        comm::release(bridge);
        if (err == MPI_SUCCESS) {
            o.peer_world = in.world;
            o.tag = reply.tag;
            break;
        }
        // That connector is gone: wait for the next one.
    }
    return o;
}

Outcome connect_at_root(const char *port_name, RootSide *side) {
    static std::atomic<int32_t> nonces{0};
    Outcome o;
    PortName p;
    o.status = port_name == nullptr ? MPI_ERR_ARG : parse_usable("MPI_Comm_connect", port_name, &p);
    if (o.status == MPI_SUCCESS && p.job != job_id()) {
        o.foreign = 1;  // the exchange on the port's socket follows, with every member
        side->address = p.address;
        return o;
    }
    if (o.status == MPI_SUCCESS && p.world == runtime::world_rank()) {
        // Both roots would be this process: their bridge's two directions
        // could not be told apart.
        log::error("MPI_Comm_connect: port %.200s is this process's own; connect to it from another process",
                   port_name);
        o.status = MPI_ERR_PORT;
    }
    if (o.status != MPI_SUCCESS) return o;
    ConnectRequest rq;
    rq.world = runtime::world_rank();
    rq.port = p.number;
    rq.nonce = nonces.fetch_add(1);
    ConnectReply reply{};
    MPI_Comm bridge = comm::make_bridge(p.world);
    MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    o.status = p2p::irecv(&reply, sizeof reply, MPI_BYTE, 0, reply_tag(rq.nonce), bridge, p2p::Channel::user, &reqs[0]);
    if (o.status == MPI_SUCCESS) {
        o.status = p2p::isend(&rq, sizeof rq, MPI_BYTE, 0, connect_request_tag, bridge, p2p::Channel::user, &reqs[1]);
        if (o.status != MPI_SUCCESS) PMPI_Cancel(&reqs[0]);  // no answer will come
        const int n = o.status == MPI_SUCCESS ? 2 : 1;
        const int waited = p2p::wait_all(n, reqs, MPI_STATUSES_IGNORE);  // a failure of the acceptor ends it too
        if (o.status == MPI_SUCCESS) o.status = waited;
    }
    comm::release(bridge);
    if (o.status == MPI_SUCCESS) o.status = reply.status;
    if (o.status == MPI_ERR_PORT) log::error("MPI_Comm_connect: port %.200s is not open", port_name);
    o.peer_world = p.world;
    o.tag = reply.tag;
    return o;
}

// The root's outcome reaches every member of comm.
int announce(MPI_Comm comm, int root, Outcome &o) {
    if (comm->rank != root)
        return p2p::recv(&o, sizeof o, MPI_BYTE, root, announce_tag, comm, p2p::Channel::collective, MPI_STATUS_IGNORE);
    for (int r = 0; r < comm->size; ++r)
        if (r != root)
            p2p::send(&o, sizeof o, MPI_BYTE, r, announce_tag, comm, p2p::Channel::collective);  // a dead member: go on
    return MPI_SUCCESS;
}

int accept_or_connect(bool accepting, const char *port_name, int root, MPI_Comm comm, MPI_Comm *newcomm) {
    if (int err = check_collective_args(comm, root, newcomm); err != MPI_SUCCESS) return err;
    *newcomm = MPI_COMM_NULL;
    Outcome o;
    RootSide side;
    if (comm->rank == root) o = accepting ? accept_at_root(port_name, &side) : connect_at_root(port_name, &side);
    if (int err = announce(comm, root, o); err != MPI_SUCCESS) {
        if (side.offer.fd >= 0) ::close(side.offer.fd);
        return err;
    }
    if (o.status != MPI_SUCCESS) return o.status;
    if (o.foreign != 0 && accepting) {
        if (comm->rank != root) side.offer = ForeignOffer{-1, o.offer_root, o.offer_count, o.offer_base};
        return accept_foreign(comm, root, side.offer, o.tag, newcomm);
    }
    if (o.foreign != 0) return connect_foreign(comm, root, side.address, newcomm);
    return comm::connect_groups(comm, root, o.peer_world, o.tag, newcomm);
}

}  // namespace
}  // namespace ftmpi::dynamic

using ftmpi::comm::raise_unattached;

extern "C" int MPI_Open_port(MPI_Info info, char *port_name) noexcept {
    const char *fn = "MPI_Open_port";
    if (port_name == nullptr) return raise_unattached(MPI_ERR_ARG, fn);
    if (info != MPI_INFO_NULL && !ftmpi::comm::valid(info)) return raise_unattached(MPI_ERR_INFO, fn);
    return raise_unattached(ftmpi::comm::code_of([&] {
                                int number = -1;
                                std::string address;
                                int err = ftmpi::dynamic::open_port(&number, &address);
                                if (err != MPI_SUCCESS) return err;
                                const std::string name = ftmpi::dynamic::format_port(
                                    {ftmpi::dynamic::job_id(), ftmpi::runtime::world_rank(), number, address});
                                std::snprintf(port_name, MPI_MAX_PORT_NAME, "%s", name.c_str());
                                return MPI_SUCCESS;
                            }),
                            fn);
}
FTMPI_PMPI(Open_port)

extern "C" int MPI_Close_port(const char *port_name) noexcept {
    const char *fn = "MPI_Close_port";
    if (port_name == nullptr) return raise_unattached(MPI_ERR_ARG, fn);
    auto p = ftmpi::dynamic::parse_port(port_name);
    if (!p || p->job != ftmpi::dynamic::job_id() || p->world != ftmpi::runtime::world_rank() ||
        ftmpi::dynamic::close_port(p->number) != MPI_SUCCESS) {
        ftmpi::log::error("MPI_Close_port: %.200s is not an open port of this process", port_name);
        return raise_unattached(MPI_ERR_PORT, fn);
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Close_port)

extern "C" int MPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                               MPI_Comm *newcomm) noexcept {
    (void)info;  // no hints are understood
    return ftmpi::comm::guarded(comm, "MPI_Comm_accept", [&] {
        return ftmpi::dynamic::accept_or_connect(true, port_name, root, comm, newcomm);
    });
}
FTMPI_PMPI(Comm_accept)

extern "C" int MPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                                MPI_Comm *newcomm) noexcept {
    (void)info;
    return ftmpi::comm::guarded(comm, "MPI_Comm_connect", [&] {
        return ftmpi::dynamic::accept_or_connect(false, port_name, root, comm, newcomm);
    });
}
FTMPI_PMPI(Comm_connect)
