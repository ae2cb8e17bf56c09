/* ftmpi/mpi_coll.h — part of mpi.h: Collectives: blocking, non-blocking, persistent (MPI-4) and neighbourhood.
 * Include <mpi.h>, not this file: it uses mpi.h's types and FTMPI_API, and
 * mpi.h includes it inside its extern "C" block. */
#ifndef FTMPI_MPI_COLL_H
#define FTMPI_MPI_COLL_H
#ifndef FTMPI_MPI_H
#error "include <mpi.h> instead of ftmpi/mpi_coll.h"
#endif

/* Collectives */
FTMPI_API(Barrier, (MPI_Comm comm))
FTMPI_API(Bcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm))
FTMPI_API(Gather,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm))
FTMPI_API(Gatherv,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
           const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm))
FTMPI_API(Scatter,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm))
FTMPI_API(Scatterv,
          (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf,
           int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
FTMPI_API(Allgather,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Allgatherv,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
           const int displs[], MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Alltoall,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Alltoallv,
          (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
           const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Alltoallw,
          (const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
           void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
FTMPI_API(Reduce,
          (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm))
FTMPI_API(Allreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
FTMPI_API(Reduce_scatter,
          (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
FTMPI_API(Reduce_scatter_block,
          (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
FTMPI_API(Scan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
FTMPI_API(Exscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))

/* Non-blocking collectives */
FTMPI_API(Ibarrier, (MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ibcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Igather,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Igatherv,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
           const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Iscatter,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Iscatterv,
          (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf,
           int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Iallgather,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Iallgatherv,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
           const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ialltoall,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ialltoallv,
          (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
           const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ialltoallw,
          (const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
           void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Ireduce,
          (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Iallreduce,
          (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Ireduce_scatter,
          (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Ireduce_scatter_block,
          (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Iscan,
          (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Iexscan,
          (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Request *request))

/* Persistent collectives (MPI-4): inactive until MPI_Start. */
FTMPI_API(Barrier_init, (MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Bcast_init,
          (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
           MPI_Request *request))
FTMPI_API(Gather_init,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Gatherv_init,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
           const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Scatter_init,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Scatterv_init,
          (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf,
           int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Allgather_init,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Allgatherv_init,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
           const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Alltoall_init,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Alltoallv_init,
          (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
           const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
           MPI_Request *request))
FTMPI_API(Alltoallw_init,
          (const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
           void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
           MPI_Info info, MPI_Request *request))
FTMPI_API(Reduce_init,
          (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
           MPI_Info info, MPI_Request *request))
FTMPI_API(Allreduce_init,
          (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Info info, MPI_Request *request))
FTMPI_API(Reduce_scatter_init,
          (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Info info, MPI_Request *request))
FTMPI_API(Reduce_scatter_block_init,
          (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Info info, MPI_Request *request))
FTMPI_API(Scan_init,
          (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Info info, MPI_Request *request))
FTMPI_API(Exscan_init,
          (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Info info, MPI_Request *request))

/* Neighbourhood collectives (Cartesian, graph and distributed-graph
 * communicators). */
FTMPI_API(Neighbor_allgather,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Neighbor_allgatherv,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
           const int displs[], MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Neighbor_alltoall,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Neighbor_alltoallv,
          (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
           const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Neighbor_alltoallw,
          (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
           void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
           MPI_Comm comm))
FTMPI_API(Ineighbor_allgather,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ineighbor_allgatherv,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
           const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ineighbor_alltoall,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ineighbor_alltoallv,
          (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
           const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ineighbor_alltoallw,
          (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
           void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
           MPI_Comm comm, MPI_Request *request))
/* Persistent neighbourhood collectives (MPI-4): each MPI_Start runs the
 * non-blocking form with the arguments given at init. */
FTMPI_API(Neighbor_allgather_init,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Neighbor_allgatherv_init,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
           const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Neighbor_alltoall_init,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Neighbor_alltoallv_init,
          (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
           const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
           MPI_Request *request))
FTMPI_API(Neighbor_alltoallw_init,
          (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
           void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
           MPI_Comm comm, MPI_Info info, MPI_Request *request))

#endif /* FTMPI_MPI_COLL_H */
