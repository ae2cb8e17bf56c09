// The MPI-4 large-count (`_c`) v- and w-collectives, blocking and
// non-blocking (the persistent ones are in api_large_count_arrays_init.cpp):
// the count and displacement arrays are narrowed to ints (the schedule is
// built inside the int call, so the narrowed arrays need to live only as
// long as the call); a count, displacement or array entry past INT_MAX is
// refused with MPI_ERR_COUNT.
//
// One macro per signature; its trailing argument, when given, makes the
// non-blocking form (a request parameter passed on).
#include "large_count_arrays.hpp"

using ftmpi::coll::NarrowedArrays;
using ftmpi::large_count::all_fit;
using ftmpi::large_count::narrow;
using ftmpi::large_count::too_large;
using ftmpi::large_count::without_exceptions;

#define FTMPI_REQUEST_PARAM(...) __VA_OPT__(, MPI_Request *request)
#define FTMPI_REQUEST_ARG(...)   __VA_OPT__(, request)

// Allgatherv, Neighbor_allgatherv: the receive arrays have RecvLength entries.
#define FTMPI_ALLGATHERV_C(Name, RecvLength, ...)                                                                      \
    extern "C" int MPI_##Name##_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,      \
                                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,        \
                                  MPI_Comm comm FTMPI_REQUEST_PARAM(__VA_ARGS__)) noexcept {                           \
        return without_exceptions(comm, "MPI_" #Name "_c", [&] {                                                       \
            NarrowedArrays n(comm);                                                                                    \
            const int *counts = n(recvcounts, n.RecvLength()), *offsets = n(displs, n.RecvLength());                   \
            if (!n.ok() || !all_fit(sendcount)) return too_large(comm, "MPI_" #Name "_c");                             \
            return MPI_##Name(sendbuf, narrow(sendcount), sendtype, recvbuf, counts, offsets, recvtype,                \
                              comm FTMPI_REQUEST_ARG(__VA_ARGS__));                                                    \
        });                                                                                                            \
    }                                                                                                                  \
    FTMPI_PMPI(Name##_c)

FTMPI_ALLGATHERV_C(Allgatherv, peers)
FTMPI_ALLGATHERV_C(Iallgatherv, peers, request)
FTMPI_ALLGATHERV_C(Neighbor_allgatherv, in_degree)
FTMPI_ALLGATHERV_C(Ineighbor_allgatherv, in_degree, request)

// Alltoallv, Neighbor_alltoallv.
#define FTMPI_ALLTOALLV_C(Name, SendLength, RecvLength, ...)                                                           \
    extern "C" int MPI_##Name##_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],         \
                                  MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],                  \
                                  const MPI_Aint rdispls[], MPI_Datatype recvtype,                                     \
                                  MPI_Comm comm FTMPI_REQUEST_PARAM(__VA_ARGS__)) noexcept {                           \
        return without_exceptions(comm, "MPI_" #Name "_c", [&] {                                                       \
            NarrowedArrays n(comm);                                                                                    \
            const int *scounts = n(sendcounts, n.SendLength()), *soffsets = n(sdispls, n.SendLength());                \
            const int *rcounts = n(recvcounts, n.RecvLength()), *roffsets = n(rdispls, n.RecvLength());                \
            if (!n.ok()) return too_large(comm, "MPI_" #Name "_c");                                                    \
            return MPI_##Name(sendbuf, scounts, soffsets, sendtype, recvbuf, rcounts, roffsets, recvtype,              \
                              comm FTMPI_REQUEST_ARG(__VA_ARGS__));                                                    \
        });                                                                                                            \
    }                                                                                                                  \
    FTMPI_PMPI(Name##_c)

FTMPI_ALLTOALLV_C(Alltoallv, peers, peers)
FTMPI_ALLTOALLV_C(Ialltoallv, peers, peers, request)
FTMPI_ALLTOALLV_C(Neighbor_alltoallv, out_degree, in_degree)
FTMPI_ALLTOALLV_C(Ineighbor_alltoallv, out_degree, in_degree, request)

// Alltoallw takes int byte displacements, Neighbor_alltoallw MPI_Aint ones
// (passed as they are): Displs narrows them or not.
#define FTMPI_ALLTOALLW_C(Name, SendLength, RecvLength, Displs, ...)                                                   \
    extern "C" int MPI_##Name##_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],         \
                                  const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],         \
                                  const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],                            \
                                  MPI_Comm comm FTMPI_REQUEST_PARAM(__VA_ARGS__)) noexcept {                           \
        return without_exceptions(comm, "MPI_" #Name "_c", [&] {                                                       \
            NarrowedArrays n(comm);                                                                                    \
            const int *scounts = n(sendcounts, n.SendLength()), *rcounts = n(recvcounts, n.RecvLength());              \
            const auto soffsets = Displs(sdispls, SendLength), roffsets = Displs(rdispls, RecvLength);                 \
            if (!n.ok()) return too_large(comm, "MPI_" #Name "_c");                                                    \
            return MPI_##Name(sendbuf, scounts, soffsets, sendtypes, recvbuf, rcounts, roffsets, recvtypes,            \
                              comm FTMPI_REQUEST_ARG(__VA_ARGS__));                                                    \
        });                                                                                                            \
    }                                                                                                                  \
    FTMPI_PMPI(Name##_c)
#define FTMPI_NARROWED(displs, length) n(displs, n.length())
#define FTMPI_AS_GIVEN(displs, length) displs

FTMPI_ALLTOALLW_C(Alltoallw, peers, peers, FTMPI_NARROWED)
FTMPI_ALLTOALLW_C(Ialltoallw, peers, peers, FTMPI_NARROWED, request)
FTMPI_ALLTOALLW_C(Neighbor_alltoallw, out_degree, in_degree, FTMPI_AS_GIVEN)
FTMPI_ALLTOALLW_C(Ineighbor_alltoallw, out_degree, in_degree, FTMPI_AS_GIVEN, request)

// Gatherv: the receive arrays matter at the root only.
#define FTMPI_GATHERV_C(Name, ...)                                                                                     \
    extern "C" int MPI_##Name##_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,      \
                                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,        \
                                  int root, MPI_Comm comm FTMPI_REQUEST_PARAM(__VA_ARGS__)) noexcept {                 \
        return without_exceptions(comm, "MPI_" #Name "_c", [&] {                                                       \
            NarrowedArrays n(comm);                                                                                    \
            const int *counts = n(recvcounts, n.at_root(root)), *offsets = n(displs, n.at_root(root));                 \
            if (!n.ok() || !all_fit(sendcount)) return too_large(comm, "MPI_" #Name "_c");                             \
            return MPI_##Name(sendbuf, narrow(sendcount), sendtype, recvbuf, counts, offsets, recvtype, root,          \
                              comm FTMPI_REQUEST_ARG(__VA_ARGS__));                                                    \
        });                                                                                                            \
    }                                                                                                                  \
    FTMPI_PMPI(Name##_c)

FTMPI_GATHERV_C(Gatherv)
FTMPI_GATHERV_C(Igatherv, request)

// Scatterv: the send arrays matter at the root only.
#define FTMPI_SCATTERV_C(Name, ...)                                                                                    \
    extern "C" int MPI_##Name##_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],          \
                                  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,    \
                                  int root, MPI_Comm comm FTMPI_REQUEST_PARAM(__VA_ARGS__)) noexcept {                 \
        return without_exceptions(comm, "MPI_" #Name "_c", [&] {                                                       \
            NarrowedArrays n(comm);                                                                                    \
            const int *counts = n(sendcounts, n.at_root(root)), *offsets = n(displs, n.at_root(root));                 \
            if (!n.ok() || !all_fit(recvcount)) return too_large(comm, "MPI_" #Name "_c");                             \
            return MPI_##Name(sendbuf, counts, offsets, sendtype, recvbuf, narrow(recvcount), recvtype, root,          \
                              comm FTMPI_REQUEST_ARG(__VA_ARGS__));                                                    \
        });                                                                                                            \
    }                                                                                                                  \
    FTMPI_PMPI(Name##_c)

FTMPI_SCATTERV_C(Scatterv)
FTMPI_SCATTERV_C(Iscatterv, request)

// Reduce_scatter: one count per process of the local group.
#define FTMPI_REDUCE_SCATTER_C(Name, ...)                                                                              \
    extern "C" int MPI_##Name##_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],                    \
                                  MPI_Datatype datatype, MPI_Op op,                                                    \
                                  MPI_Comm comm FTMPI_REQUEST_PARAM(__VA_ARGS__)) noexcept {                           \
        return without_exceptions(comm, "MPI_" #Name "_c", [&] {                                                       \
            NarrowedArrays n(comm);                                                                                    \
            const int *counts = n(recvcounts, n.local());                                                              \
            if (!n.ok()) return too_large(comm, "MPI_" #Name "_c");                                                    \
            return MPI_##Name(sendbuf, recvbuf, counts, datatype, op, comm FTMPI_REQUEST_ARG(__VA_ARGS__));            \
        });                                                                                                            \
    }                                                                                                                  \
    FTMPI_PMPI(Name##_c)

FTMPI_REDUCE_SCATTER_C(Reduce_scatter)
FTMPI_REDUCE_SCATTER_C(Ireduce_scatter, request)
