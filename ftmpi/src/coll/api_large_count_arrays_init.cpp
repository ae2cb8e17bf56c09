// The MPI-4 large-count (`_c`) persistent v- and w-collectives: the
// narrowed arrays belong to the persistent request (its start function
// holds them), since every MPI_Start reads them again.
#include "large_count_arrays.hpp"
#include "persistent_init.hpp"

#include <memory>

using ftmpi::coll::make_init;
using ftmpi::coll::NarrowedArrays;
using ftmpi::large_count::narrow;
using ftmpi::large_count::too_large;
using ftmpi::large_count::without_exceptions;

extern "C" int MPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                     const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                     MPI_Comm comm, MPI_Info info, MPI_Request *request) noexcept {
    return without_exceptions(comm, "MPI_Allgatherv_init_c", [&] {
        auto n = std::make_shared<NarrowedArrays>(comm);
        const int *recvcounts_int = (*n)(recvcounts, n->peers());
        const int *displs_int = (*n)(displs, n->peers());
        if (!n->ok() || !ftmpi::large_count::all_fit(sendcount)) return too_large(comm, "MPI_Allgatherv_init_c");
        return make_init("MPI_Allgatherv_init_c", comm, info, request, [=, keep = n](MPI_Request *r) {
            return PMPI_Iallgatherv(sendbuf, narrow(sendcount), sendtype, recvbuf, recvcounts_int, displs_int, recvtype,
                                    comm, r);
        });
    });
}
FTMPI_PMPI(Allgatherv_init_c)

extern "C" int MPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                    MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                    const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                    MPI_Request *request) noexcept {
    return without_exceptions(comm, "MPI_Alltoallv_init_c", [&] {
        auto n = std::make_shared<NarrowedArrays>(comm);
        const int *sendcounts_int = (*n)(sendcounts, n->peers());
        const int *sdispls_int = (*n)(sdispls, n->peers());
        const int *recvcounts_int = (*n)(recvcounts, n->peers());
        const int *rdispls_int = (*n)(rdispls, n->peers());
        if (!n->ok()) return too_large(comm, "MPI_Alltoallv_init_c");
        return make_init("MPI_Alltoallv_init_c", comm, info, request, [=, keep = n](MPI_Request *r) {
            return PMPI_Ialltoallv(sendbuf, sendcounts_int, sdispls_int, sendtype, recvbuf, recvcounts_int, rdispls_int,
                                   recvtype, comm, r);
        });
    });
}
FTMPI_PMPI(Alltoallv_init_c)

extern "C" int MPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                    const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                    MPI_Info info, MPI_Request *request) noexcept {
    return without_exceptions(comm, "MPI_Alltoallw_init_c", [&] {
        auto n = std::make_shared<NarrowedArrays>(comm);
        const int *sendcounts_int = (*n)(sendcounts, n->peers());
        const int *sdispls_int = (*n)(sdispls, n->peers());
        const int *recvcounts_int = (*n)(recvcounts, n->peers());
        const int *rdispls_int = (*n)(rdispls, n->peers());
        if (!n->ok()) return too_large(comm, "MPI_Alltoallw_init_c");
        return make_init("MPI_Alltoallw_init_c", comm, info, request, [=, keep = n](MPI_Request *r) {
            return PMPI_Ialltoallw(sendbuf, sendcounts_int, sdispls_int, sendtypes, recvbuf, recvcounts_int,
                                   rdispls_int, recvtypes, comm, r);
        });
    });
}
FTMPI_PMPI(Alltoallw_init_c)

extern "C" int MPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                  int root, MPI_Comm comm, MPI_Info info, MPI_Request *request) noexcept {
    return without_exceptions(comm, "MPI_Gatherv_init_c", [&] {
        auto n = std::make_shared<NarrowedArrays>(comm);
        const int *recvcounts_int = (*n)(recvcounts, n->at_root(root));
        const int *displs_int = (*n)(displs, n->at_root(root));
        if (!n->ok() || !ftmpi::large_count::all_fit(sendcount)) return too_large(comm, "MPI_Gatherv_init_c");
        return make_init("MPI_Gatherv_init_c", comm, info, request, [=, keep = n](MPI_Request *r) {
            return PMPI_Igatherv(sendbuf, narrow(sendcount), sendtype, recvbuf, recvcounts_int, displs_int, recvtype,
                                 root, comm, r);
        });
    });
}
FTMPI_PMPI(Gatherv_init_c)

extern "C" int MPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                              void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                              MPI_Request *request) noexcept {
    return without_exceptions(comm, "MPI_Neighbor_allgatherv_init_c", [&] {
        auto n = std::make_shared<NarrowedArrays>(comm);
        const int *recvcounts_int = (*n)(recvcounts, n->in_degree());
        const int *displs_int = (*n)(displs, n->in_degree());
        if (!n->ok() || !ftmpi::large_count::all_fit(sendcount))
            return too_large(comm, "MPI_Neighbor_allgatherv_init_c");
        return make_init("MPI_Neighbor_allgatherv_init_c", comm, info, request, [=, keep = n](MPI_Request *r) {
            return PMPI_Ineighbor_allgatherv(sendbuf, narrow(sendcount), sendtype, recvbuf, recvcounts_int, displs_int,
                                             recvtype, comm, r);
        });
    });
}
FTMPI_PMPI(Neighbor_allgatherv_init_c)

extern "C" int MPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                             const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                             const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                             MPI_Request *request) noexcept {
    return without_exceptions(comm, "MPI_Neighbor_alltoallv_init_c", [&] {
        auto n = std::make_shared<NarrowedArrays>(comm);
        const int *sendcounts_int = (*n)(sendcounts, n->out_degree());
        const int *sdispls_int = (*n)(sdispls, n->out_degree());
        const int *recvcounts_int = (*n)(recvcounts, n->in_degree());
        const int *rdispls_int = (*n)(rdispls, n->in_degree());
        if (!n->ok()) return too_large(comm, "MPI_Neighbor_alltoallv_init_c");
        return make_init("MPI_Neighbor_alltoallv_init_c", comm, info, request, [=, keep = n](MPI_Request *r) {
            return PMPI_Ineighbor_alltoallv(sendbuf, sendcounts_int, sdispls_int, sendtype, recvbuf, recvcounts_int,
                                            rdispls_int, recvtype, comm, r);
        });
    });
}
FTMPI_PMPI(Neighbor_alltoallv_init_c)

extern "C" int MPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                             const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                                             const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                             const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                             MPI_Request *request) noexcept {
    return without_exceptions(comm, "MPI_Neighbor_alltoallw_init_c", [&] {
        auto n = std::make_shared<NarrowedArrays>(comm);
        const int *sendcounts_int = (*n)(sendcounts, n->out_degree());
        const int *recvcounts_int = (*n)(recvcounts, n->in_degree());
        if (!n->ok()) return too_large(comm, "MPI_Neighbor_alltoallw_init_c");
        return make_init("MPI_Neighbor_alltoallw_init_c", comm, info, request, [=, keep = n](MPI_Request *r) {
            return PMPI_Ineighbor_alltoallw(sendbuf, sendcounts_int, sdispls, sendtypes, recvbuf, recvcounts_int,
                                            rdispls, recvtypes, comm, r);
        });
    });
}
FTMPI_PMPI(Neighbor_alltoallw_init_c)

extern "C" int MPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                         MPI_Request *request) noexcept {
    return without_exceptions(comm, "MPI_Reduce_scatter_init_c", [&] {
        auto n = std::make_shared<NarrowedArrays>(comm);
        const int *recvcounts_int = (*n)(recvcounts, n->local());
        if (!n->ok()) return too_large(comm, "MPI_Reduce_scatter_init_c");
        return make_init("MPI_Reduce_scatter_init_c", comm, info, request, [=, keep = n](MPI_Request *r) {
            return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts_int, datatype, op, comm, r);
        });
    });
}
FTMPI_PMPI(Reduce_scatter_init_c)

extern "C" int MPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                   int root, MPI_Comm comm, MPI_Info info, MPI_Request *request) noexcept {
    return without_exceptions(comm, "MPI_Scatterv_init_c", [&] {
        auto n = std::make_shared<NarrowedArrays>(comm);
        const int *sendcounts_int = (*n)(sendcounts, n->at_root(root));
        const int *displs_int = (*n)(displs, n->at_root(root));
        if (!n->ok() || !ftmpi::large_count::all_fit(recvcount)) return too_large(comm, "MPI_Scatterv_init_c");
        return make_init("MPI_Scatterv_init_c", comm, info, request, [=, keep = n](MPI_Request *r) {
            return PMPI_Iscatterv(sendbuf, sendcounts_int, displs_int, sendtype, recvbuf, narrow(recvcount), recvtype,
                                  root, comm, r);
        });
    });
}
FTMPI_PMPI(Scatterv_init_c)
