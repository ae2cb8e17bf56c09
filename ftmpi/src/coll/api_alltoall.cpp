// MPI_Alltoall(v,w) and their I-forms. All three run
// the Alltoallw algorithms; Alltoall and Alltoallv turn their element
// displacements into bytes first. On an intercommunicator block j is
// exchanged with remote rank j (every per-rank array has the remote group's
// size) and MPI_IN_PLACE is refused (MPI_ERR_BUFFER).
#include "algorithms.hpp"
#include "api_common.hpp"
#include "buffers.hpp"
#include "node.hpp"
#include "select.hpp"

#include <climits>
#include <vector>

namespace ftmpi::coll {
namespace {

// Alltoallw's arguments, owned, for the forms that have fewer.
struct Layout {
    std::vector<int> scounts, sdispls, rcounts, rdispls;
    std::vector<MPI_Datatype> stypes, rtypes;
};

int check_types(int n, const int counts[], const int displs[], const MPI_Datatype types[]) {
    if (n > 0 && (counts == nullptr || displs == nullptr || types == nullptr)) return MPI_ERR_ARG;
    for (int i = 0; i < n; ++i)
        if (int err = check_data(counts[i], types[i]); err != MPI_SUCCESS) return err;
    return MPI_SUCCESS;
}

int check_alltoallw(MPI_Comm comm, const void *sendbuf, const int scounts[], const int sdispls[],
                    const MPI_Datatype stypes[], void *recvbuf, const int rcounts[], const int rdispls[],
                    const MPI_Datatype rtypes[]) {
    const int p = peer_count(comm);
    int err = first_error(in_place_on_inter(comm, sendbuf), recvbuf == MPI_IN_PLACE ? MPI_ERR_BUFFER : MPI_SUCCESS);
    if (err == MPI_SUCCESS && sendbuf != MPI_IN_PLACE) err = check_types(p, scounts, sdispls, stypes);
    if (err == MPI_SUCCESS) err = check_types(p, rcounts, rdispls, rtypes);
    return first_error(err, aliased(sendbuf, recvbuf, any_positive(p, scounts) || any_positive(p, rcounts)));
}

// Long messages go one peer at a time (pairwise), short ones all at once.
// Bruck needs Alltoall's equal blocks (build_alltoall); the v and w forms
// that are given it run the built-in rule instead.
void build_alltoallw(Schedule &s, const void *sendbuf, const int scounts[], const int sdispls[],
                     const MPI_Datatype stypes[], void *recvbuf, const int rcounts[], const int rdispls[],
                     const MPI_Datatype rtypes[], size_t bytes_per_peer) {
    const int p = peer_count(s.comm());
    for (int i = 0; i < p; ++i) {
        if (sendbuf != MPI_IN_PLACE) s.hold(stypes[i]);
        s.hold(rtypes[i]);
    }
    if (s.comm()->inter)
        return alltoallw_inter(s, sendbuf, scounts, sdispls, stypes, recvbuf, rcounts, rdispls, rtypes);
    const auto algorithm = choose<AlltoallAlgorithm>(Collective::alltoall, s.size(), bytes_per_peer).algorithm;
    const bool pairwise = algorithm == AlltoallAlgorithm::pairwise ||
        (algorithm != AlltoallAlgorithm::linear && bytes_per_peer >= threshold::alltoall_pairwise_bytes);
    if (pairwise) return alltoallw_pairwise(s, sendbuf, scounts, sdispls, stypes, recvbuf, rcounts, rdispls, rtypes);
    alltoallw_linear(s, sendbuf, scounts, sdispls, stypes, recvbuf, rcounts, rdispls, rtypes);
}

// Alltoallv's (and Alltoall's) element displacements as Alltoallw's bytes.
void fill(Layout &l, int p, const void *sendbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
          const int rcounts[], const int rdispls[], MPI_Datatype rtype) {
    l.rcounts.assign(rcounts, rcounts + p);
    l.rtypes.assign(p, rtype);
    l.rdispls.resize(p);
    for (int i = 0; i < p; ++i) l.rdispls[i] = static_cast<int>(rdispls[i] * dt::extent(rtype));
    if (sendbuf == MPI_IN_PLACE) return;
    l.scounts.assign(scounts, scounts + p);
    l.stypes.assign(p, stype);
    l.sdispls.resize(p);
    for (int i = 0; i < p; ++i) l.sdispls[i] = static_cast<int>(sdispls[i] * dt::extent(stype));
}

int check_alltoallv(MPI_Comm comm, const void *sendbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                    void *recvbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype, Layout &l) {
    const int p = peer_count(comm);
    int err = first_error(in_place_on_inter(comm, sendbuf), recvbuf == MPI_IN_PLACE ? MPI_ERR_BUFFER : MPI_SUCCESS,
                          check_counts(p, rcounts, rtype), rdispls == nullptr ? MPI_ERR_ARG : MPI_SUCCESS);
    if (err == MPI_SUCCESS && sendbuf != MPI_IN_PLACE)
        err = first_error(check_counts(p, scounts, stype), sdispls == nullptr ? MPI_ERR_ARG : MPI_SUCCESS);
    if (err == MPI_SUCCESS) err = aliased(sendbuf, recvbuf, any_positive(p, scounts) || any_positive(p, rcounts));
    if (err == MPI_SUCCESS) fill(l, p, sendbuf, scounts, sdispls, stype, rcounts, rdispls, rtype);
    return err;
}

int check_alltoall(MPI_Comm comm, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                   MPI_Datatype rtype, Layout &l) {
    int err = first_error(in_place_on_inter(comm, sendbuf), recvbuf == MPI_IN_PLACE ? MPI_ERR_BUFFER : MPI_SUCCESS,
                          check_data(rcount, rtype));
    if (err == MPI_SUCCESS && sendbuf != MPI_IN_PLACE) err = check_data(scount, stype);
    if (err == MPI_SUCCESS) err = aliased(sendbuf, recvbuf, rcount > 0 || scount > 0);
    if (err != MPI_SUCCESS) return err;
    const int p = peer_count(comm);
    std::vector<int> scounts(p, scount), rcounts(p, rcount), sdispls(p), rdispls(p);
    for (int i = 0; i < p; ++i) {
        sdispls[i] = i * scount;
        rdispls[i] = i * rcount;
    }
    fill(l, p, sendbuf, scounts.data(), sdispls.data(), stype, rcounts.data(), rdispls.data(), rtype);
    return MPI_SUCCESS;
}

void build_layout(Schedule &s, const void *sendbuf, void *recvbuf, const Layout &l, size_t bytes_per_peer) {
    build_alltoallw(s, sendbuf, l.scounts.data(), l.sdispls.data(), l.stypes.data(), recvbuf, l.rcounts.data(),
                    l.rdispls.data(), l.rtypes.data(), bytes_per_peer);
}

// Alltoall: Bruck when chosen (and its p blocks fit one message; not on an
// intercommunicator), else as Alltoallw.
void build_alltoall(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                    MPI_Datatype rtype, const Layout &l) {
    const size_t block = data_bytes(rcount, rtype);
    const auto algorithm = choose<AlltoallAlgorithm>(Collective::alltoall, s.size(), block).algorithm;
    if (algorithm == AlltoallAlgorithm::bruck && !s.comm()->inter && block * static_cast<size_t>(s.size()) <= INT_MAX) {
        if (sendbuf != MPI_IN_PLACE) s.hold(stype);
        s.hold(rtype);
        return alltoall_bruck(s, sendbuf, scount, stype, recvbuf, rcount, rtype);
    }
    build_layout(s, sendbuf, recvbuf, l, block);
}

size_t average_bytes(const int counts[], MPI_Datatype type, int p) {
    size_t total = 0;
    for (int i = 0; i < p; ++i) total += data_bytes(counts[i], type);
    return p > 0 ? total / static_cast<size_t>(p) : 0;
}

}  // namespace
}  // namespace ftmpi::coll

using namespace ftmpi::coll;

extern "C" int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm) noexcept {
    Layout l;
    return blocking_or(
        "MPI_Alltoall", comm,
        [&] { return check_alltoall(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, l); },
        [&] { return node::alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm); },
        [&](Schedule &s) { build_alltoall(s, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, l); });
}
FTMPI_PMPI(Alltoall)

extern "C" int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) noexcept {
    Layout l;
    return nonblocking(
        "MPI_Ialltoall", comm, request,
        [&] { return check_alltoall(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, l); },
        [&](Schedule &s) { build_alltoall(s, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, l); });
}
FTMPI_PMPI(Ialltoall)

extern "C" int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                             MPI_Comm comm) noexcept {
    Layout l;
    return blocking(
        "MPI_Alltoallv", comm,
        [&] {
            return check_alltoallv(comm, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                                   l);
        },
        [&](Schedule &s) {
            build_layout(s, sendbuf, recvbuf, l, average_bytes(recvcounts, recvtype, peer_count(comm)));
        });
}
FTMPI_PMPI(Alltoallv)

extern "C" int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request *request) noexcept {
    Layout l;
    return nonblocking(
        "MPI_Ialltoallv", comm, request,
        [&] {
            return check_alltoallv(comm, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                                   l);
        },
        [&](Schedule &s) {
            build_layout(s, sendbuf, recvbuf, l, average_bytes(recvcounts, recvtype, peer_count(comm)));
        });
}
FTMPI_PMPI(Ialltoallv)

extern "C" int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm) noexcept {
    return blocking(
        "MPI_Alltoallw", comm,
        [&] {
            return check_alltoallw(comm, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                                   recvtypes);
        },
        [&](Schedule &s) {
            build_alltoallw(s, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, 0);
        });
}
FTMPI_PMPI(Alltoallw)

extern "C" int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                              const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                              MPI_Request *request) noexcept {
    return nonblocking(
        "MPI_Ialltoallw", comm, request,
        [&] {
            return check_alltoallw(comm, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                                   recvtypes);
        },
        [&](Schedule &s) {
            build_alltoallw(s, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, 0);
        });
}
FTMPI_PMPI(Ialltoallw)
