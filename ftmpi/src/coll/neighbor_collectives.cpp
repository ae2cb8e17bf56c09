// Neighbourhood collectives (MPI-3.1 §7.6): MPI_Neighbor_allgather(v),
// _alltoall(v,w) and their non-blocking forms, on Cartesian, graph and
// distributed-graph communicators. One schedule round: a send to every
// out-neighbour and a receive from every in-neighbour, on the collective
// channel under the call's tag. Neighbours are listed as §7.6 orders them:
// Cartesian, per dimension the negative then the positive neighbour
// (MPI_PROC_NULL borders keep their buffer slot but move nothing); graph,
// MPI_Graph_neighbors' order both ways; distributed graph, sources in and
// destinations out.
#include "api_common.hpp"
#include "buffers.hpp"

#include <vector>

namespace ftmpi::coll {
namespace {

struct Neighbors {
    std::vector<int> in, out;
    // The order in which the receives are posted. On a periodic dimension
    // of size 1 or 2 both neighbours are the same process, whose messages
    // arrive in its send order (negative first); the message it sent to its
    // negative neighbour belongs in our positive slot, so per dimension the
    // positive slot's receive is posted first.
    std::vector<int> recv_order;
};

int neighbors_of(MPI_Comm comm, Neighbors *n) {
    int kind = MPI_UNDEFINED;
    if (PMPI_Topo_test(comm, &kind) != MPI_SUCCESS || kind == MPI_UNDEFINED) return MPI_ERR_TOPOLOGY;
    if (kind == MPI_CART) {
        int ndims = 0;
        PMPI_Cartdim_get(comm, &ndims);
        for (int d = 0; d < ndims; ++d) {
            int source = MPI_PROC_NULL, dest = MPI_PROC_NULL;
            PMPI_Cart_shift(comm, d, 1, &source, &dest);
            n->in.push_back(source);
            n->in.push_back(dest);
            n->recv_order.push_back(2 * d + 1);
            n->recv_order.push_back(2 * d);
        }
        n->out = n->in;
        return MPI_SUCCESS;
    }
    if (kind == MPI_GRAPH) {
        int rank = 0, count = 0;
        PMPI_Comm_rank(comm, &rank);
        PMPI_Graph_neighbors_count(comm, rank, &count);
        n->in.resize(static_cast<size_t>(count));
        if (count > 0) PMPI_Graph_neighbors(comm, rank, count, n->in.data());
        n->out = n->in;
    } else {
        int indegree = 0, outdegree = 0, weighted = 0;
        PMPI_Dist_graph_neighbors_count(comm, &indegree, &outdegree, &weighted);
        n->in.resize(static_cast<size_t>(indegree));
        n->out.resize(static_cast<size_t>(outdegree));
        std::vector<int> in_w(static_cast<size_t>(indegree) + 1), out_w(static_cast<size_t>(outdegree) + 1);
        PMPI_Dist_graph_neighbors(comm, indegree, n->in.data(), weighted ? in_w.data() : MPI_UNWEIGHTED, outdegree,
                                  n->out.data(), weighted ? out_w.data() : MPI_UNWEIGHTED);
    }
    for (size_t i = 0; i < n->in.size(); ++i) n->recv_order.push_back(static_cast<int>(i));
    return MPI_SUCCESS;
}

// Where block i of a buffer is, per neighbour: its displacement in bytes.
using Place = std::function<const char *(size_t i)>;
using PlaceMut = std::function<char *(size_t i)>;
using Typed = std::function<std::pair<int, MPI_Datatype>(size_t i)>;

void build_exchange(Schedule &s, const Neighbors &n, const Place &send_at, const Typed &send_what,
                    const PlaceMut &recv_at, const Typed &recv_what) {
    for (size_t i = 0; i < n.out.size(); ++i) {
        if (n.out[i] == MPI_PROC_NULL) continue;
        const auto [count, type] = send_what(i);
        s.hold(type);
        s.send(send_at(i), count, type, s.view_rank(n.out[i]));
    }
    for (int slot : n.recv_order) {
        const auto i = static_cast<size_t>(slot);
        if (n.in[i] == MPI_PROC_NULL) continue;
        const auto [count, type] = recv_what(i);
        s.hold(type);
        s.recv(recv_at(i), count, type, s.view_rank(n.in[i]));
    }
    s.end_round();
}

int check_topology(MPI_Comm comm, Neighbors *n) {
    if (comm->inter) return MPI_ERR_COMM;
    return neighbors_of(comm, n);
}

const char *at(const void *buf, MPI_Aint bytes) {
    return static_cast<const char *>(buf) + bytes;
}
char *at(void *buf, MPI_Aint bytes) {
    return static_cast<char *>(buf) + bytes;
}

// The five collectives as (checks, build) pairs for blocking()/nonblocking().
// Allgather and alltoall: one count and type each way; alltoall sends each
// out-neighbour its own block, allgather the whole send buffer to all.
template <bool BlockPerNeighbor>
struct Uniform {
    const void *sbuf;
    int scount;
    MPI_Datatype stype;
    void *rbuf;
    int rcount;
    MPI_Datatype rtype;
    int check(MPI_Comm comm, Neighbors *n) const {
        return first_error(check_data(scount, stype), check_data(rcount, rtype), check_topology(comm, n));
    }
    void build(Schedule &s, const Neighbors &n) const {
        build_exchange(
            s, n,
            [&](size_t i) {
                return BlockPerNeighbor ? element(sbuf, static_cast<MPI_Aint>(i) * scount, stype)
                                        : static_cast<const char *>(sbuf);
            },
            [&](size_t) { return std::pair(scount, stype); },
            [&](size_t i) { return element(rbuf, static_cast<MPI_Aint>(i) * rcount, rtype); },
            [&](size_t) { return std::pair(rcount, rtype); });
    }
};
using Allgather = Uniform<false>;
using Alltoall = Uniform<true>;

struct Allgatherv {
    const void *sbuf;
    int scount;
    MPI_Datatype stype;
    void *rbuf;
    const int *rcounts;
    const int *displs;
    MPI_Datatype rtype;
    int check(MPI_Comm comm, Neighbors *n) const {
        if (int e = first_error(check_data(scount, stype), check_topology(comm, n))) return e;
        if (!n->in.empty() && displs == nullptr) return MPI_ERR_ARG;
        return check_counts(static_cast<int>(n->in.size()), rcounts, rtype);
    }
    void build(Schedule &s, const Neighbors &n) const {
        build_exchange(
            s, n, [&](size_t) { return static_cast<const char *>(sbuf); },
            [&](size_t) { return std::pair(scount, stype); }, [&](size_t i) { return element(rbuf, displs[i], rtype); },
            [&](size_t i) { return std::pair(rcounts[i], rtype); });
    }
};

struct Alltoallv {
    const void *sbuf;
    const int *scounts;
    const int *sdispls;
    MPI_Datatype stype;
    void *rbuf;
    const int *rcounts;
    const int *rdispls;
    MPI_Datatype rtype;
    int check(MPI_Comm comm, Neighbors *n) const {
        if (int e = check_topology(comm, n)) return e;
        if ((!n->out.empty() && sdispls == nullptr) || (!n->in.empty() && rdispls == nullptr)) return MPI_ERR_ARG;
        return first_error(check_counts(static_cast<int>(n->out.size()), scounts, stype),
                           check_counts(static_cast<int>(n->in.size()), rcounts, rtype));
    }
    void build(Schedule &s, const Neighbors &n) const {
        build_exchange(
            s, n, [&](size_t i) { return element(sbuf, sdispls[i], stype); },
            [&](size_t i) { return std::pair(scounts[i], stype); },
            [&](size_t i) { return element(rbuf, rdispls[i], rtype); },
            [&](size_t i) { return std::pair(rcounts[i], rtype); });
    }
};

// Alltoallw: per-neighbour types, displacements in bytes.
struct Alltoallw {
    const void *sbuf;
    const int *scounts;
    const MPI_Aint *sdispls;
    const MPI_Datatype *stypes;
    void *rbuf;
    const int *rcounts;
    const MPI_Aint *rdispls;
    const MPI_Datatype *rtypes;
    int check(MPI_Comm comm, Neighbors *n) const {
        if (int e = check_topology(comm, n)) return e;
        const auto side = [](size_t k, const int *counts, const MPI_Aint *displs, const MPI_Datatype *types) {
            if (k > 0 && (counts == nullptr || displs == nullptr || types == nullptr)) return MPI_ERR_ARG;
            for (size_t i = 0; i < k; ++i)
                if (int e = check_data(counts[i], types[i])) return e;
            return MPI_SUCCESS;
        };
        return first_error(side(n->out.size(), scounts, sdispls, stypes), side(n->in.size(), rcounts, rdispls, rtypes));
    }
    void build(Schedule &s, const Neighbors &n) const {
        build_exchange(
            s, n, [&](size_t i) { return at(sbuf, sdispls[i]); },
            [&](size_t i) { return std::pair(scounts[i], stypes[i]); }, [&](size_t i) { return at(rbuf, rdispls[i]); },
            [&](size_t i) { return std::pair(rcounts[i], rtypes[i]); });
    }
};

template <class C>
int run_blocking(const char *fn, MPI_Comm comm, const C &c) {
    Neighbors n;
    return blocking(
        fn, comm, [&] { return c.check(comm, &n); }, [&](Schedule &s) { c.build(s, n); }, Strict::none);
}

template <class C>
int run_nonblocking(const char *fn, MPI_Comm comm, MPI_Request *request, const C &c) {
    Neighbors n;
    return nonblocking(
        fn, comm, request, [&] { return c.check(comm, &n); }, [&](Schedule &s) { c.build(s, n); }, Strict::none);
}

}  // namespace
}  // namespace ftmpi::coll

using namespace ftmpi::coll;

extern "C" {

int MPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm) noexcept {
    return run_blocking("MPI_Neighbor_allgather", comm,
                        Allgather{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype});
}
FTMPI_PMPI(Neighbor_allgather)

int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) noexcept {
    return run_nonblocking("MPI_Ineighbor_allgather", comm, request,
                           Allgather{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype});
}
FTMPI_PMPI(Ineighbor_allgather)

int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) noexcept {
    return run_blocking("MPI_Neighbor_allgatherv", comm,
                        Allgatherv{sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype});
}
FTMPI_PMPI(Neighbor_allgatherv)

int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request) noexcept {
    return run_nonblocking("MPI_Ineighbor_allgatherv", comm, request,
                           Allgatherv{sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype});
}
FTMPI_PMPI(Ineighbor_allgatherv)

int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm) noexcept {
    return run_blocking("MPI_Neighbor_alltoall", comm,
                        Alltoall{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype});
}
FTMPI_PMPI(Neighbor_alltoall)

int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) noexcept {
    return run_nonblocking("MPI_Ineighbor_alltoall", comm, request,
                           Alltoall{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype});
}
FTMPI_PMPI(Ineighbor_alltoall)

int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                           void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                           MPI_Comm comm) noexcept {
    return run_blocking("MPI_Neighbor_alltoallv", comm,
                        Alltoallv{sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype});
}
FTMPI_PMPI(Neighbor_alltoallv)

int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request *request) noexcept {
    return run_nonblocking("MPI_Ineighbor_alltoallv", comm, request,
                           Alltoallv{sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype});
}
FTMPI_PMPI(Ineighbor_alltoallv)

int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) noexcept {
    return run_blocking("MPI_Neighbor_alltoallw", comm,
                        Alltoallw{sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes});
}
FTMPI_PMPI(Neighbor_alltoallw)

int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                            MPI_Request *request) noexcept {
    return run_nonblocking("MPI_Ineighbor_alltoallw", comm, request,
                           Alltoallw{sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes});
}
FTMPI_PMPI(Ineighbor_alltoallw)

}  // extern "C"
