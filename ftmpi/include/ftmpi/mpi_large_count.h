/* ftmpi/mpi_large_count.h — part of mpi.h: The MPI-4 large-count (`_c`) forms.
 * Include <mpi.h>, not this file: it uses mpi.h's types and FTMPI_API, and
 * mpi.h includes it inside its extern "C" block. */
#ifndef FTMPI_MPI_LARGE_COUNT_H
#define FTMPI_MPI_LARGE_COUNT_H
#ifndef FTMPI_MPI_H
#error "include <mpi.h> instead of ftmpi/mpi_large_count.h"
#endif

/* Large counts (MPI-4 `_c` forms). Point-to-point, the datatype
 * constructors (but darray), MPI_Pack_c/Unpack_c/Pack_size_c and their
 * external32 forms take any MPI_Count: a message or a type may pass INT_MAX
 * elements and bytes. The others (collectives, one-sided, I/O, darray, the
 * bsend buffer) serve counts that fit an int and refuse
 * larger ones with MPI_ERR_COUNT. */
FTMPI_API(Send_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_API(Ssend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_API(Bsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_API(Rsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_API(Isend_c,
          (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Issend_c,
          (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Ibsend_c,
          (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Irsend_c,
          (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Send_init_c,
          (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Recv_c,
          (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status))
FTMPI_API(Irecv_c,
          (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Recv_init_c,
          (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Sendrecv_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
           MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status))
FTMPI_API(Mrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status))
FTMPI_API(Get_count_c, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))
FTMPI_API(Get_elements_c, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))
FTMPI_API(Bcast_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm))
FTMPI_API(Ibcast_c,
          (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Reduce_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
           MPI_Comm comm))
FTMPI_API(Allreduce_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
FTMPI_API(Iallreduce_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Gather_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm))
FTMPI_API(Scatter_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm))
FTMPI_API(Allgather_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Alltoall_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Type_size_c, (MPI_Datatype datatype, MPI_Count *size))
FTMPI_API(Type_get_extent_c, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent))
FTMPI_API(Type_get_true_extent_c, (MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent))
FTMPI_API(Type_contiguous_c, (MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Type_vector_c,
          (MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Type_create_resized_c, (MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype))
FTMPI_API(Pack_c,
          (const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
           MPI_Count *position, MPI_Comm comm))
FTMPI_API(Unpack_c,
          (const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
           MPI_Datatype datatype, MPI_Comm comm))
FTMPI_API(Pack_size_c, (MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size))

/* Collectives: the other blocking, non-blocking, persistent and neighbourhood forms;
 * v- and w-forms take MPI_Count counts and MPI_Aint displacements. */
FTMPI_API(Allgather_init_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Allgatherv_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Allgatherv_init_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Allreduce_init_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Info info, MPI_Request *request))
FTMPI_API(Alltoall_init_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Alltoallv_c,
          (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype,
           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Alltoallv_init_c,
          (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype,
           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
           MPI_Info info, MPI_Request *request))
FTMPI_API(Alltoallw_c,
          (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
           MPI_Comm comm))
FTMPI_API(Alltoallw_init_c,
          (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
           MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Bcast_init_c,
          (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
           MPI_Request *request))
FTMPI_API(Exscan_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
FTMPI_API(Exscan_init_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Info info, MPI_Request *request))
FTMPI_API(Gather_init_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Gatherv_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm))
FTMPI_API(Gatherv_init_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
           MPI_Request *request))
FTMPI_API(Iallgather_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Iallgatherv_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ialltoall_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ialltoallv_c,
          (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype,
           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Ialltoallw_c,
          (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
           MPI_Comm comm, MPI_Request *request))
FTMPI_API(Iexscan_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Igather_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Igatherv_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ineighbor_allgather_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ineighbor_allgatherv_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ineighbor_alltoall_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ineighbor_alltoallv_c,
          (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype,
           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Ineighbor_alltoallw_c,
          (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
           MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ireduce_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
           MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ireduce_scatter_block_c,
          (const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Ireduce_scatter_c,
          (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op,
           MPI_Comm comm, MPI_Request *request))
FTMPI_API(Iscan_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Iscatter_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Iscatterv_c,
          (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Neighbor_allgather_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Neighbor_allgather_init_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Neighbor_allgatherv_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Neighbor_allgatherv_init_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Neighbor_alltoall_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Neighbor_alltoall_init_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Neighbor_alltoallv_c,
          (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype,
           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Neighbor_alltoallv_init_c,
          (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype,
           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
           MPI_Info info, MPI_Request *request))
FTMPI_API(Neighbor_alltoallw_c,
          (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
           MPI_Comm comm))
FTMPI_API(Neighbor_alltoallw_init_c,
          (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
           MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Reduce_init_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
           MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Reduce_scatter_block_c,
          (const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
FTMPI_API(Reduce_scatter_block_init_c,
          (const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Info info, MPI_Request *request))
FTMPI_API(Reduce_scatter_c,
          (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op,
           MPI_Comm comm))
FTMPI_API(Reduce_scatter_init_c,
          (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op,
           MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Scan_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
FTMPI_API(Scan_init_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Info info, MPI_Request *request))
FTMPI_API(Scatter_init_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Scatterv_c,
          (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
FTMPI_API(Scatterv_init_c,
          (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
           MPI_Request *request))

/* Point-to-point: persistent send modes, matched and combined receives, the bsend buffer. */
FTMPI_API(Bsend_init_c,
          (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Buffer_attach_c, (void *buffer, MPI_Count size))
FTMPI_API(Buffer_detach_c, (void *buffer_addr, MPI_Count *size))
FTMPI_API(Imrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request))
FTMPI_API(Isendrecv_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
           MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Isendrecv_replace_c,
          (void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
           MPI_Comm comm, MPI_Request *request))
FTMPI_API(Rsend_init_c,
          (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Sendrecv_replace_c,
          (void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
           MPI_Comm comm, MPI_Status *status))
FTMPI_API(Ssend_init_c,
          (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
           MPI_Request *request))

/* One-sided communication. */
FTMPI_API(Accumulate_c,
          (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
           MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
FTMPI_API(Get_accumulate_c,
          (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, void *result_addr,
           MPI_Count result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
           MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
FTMPI_API(Get_c,
          (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
           MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win))
FTMPI_API(Put_c,
          (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
           MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win))
FTMPI_API(Raccumulate_c,
          (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
           MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
           MPI_Request *request))
FTMPI_API(Rget_accumulate_c,
          (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, void *result_addr,
           MPI_Count result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
           MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request))
FTMPI_API(Rget_c,
          (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
           MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
           MPI_Request *request))
FTMPI_API(Rput_c,
          (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
           MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
           MPI_Request *request))
FTMPI_API(Win_allocate_c,
          (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win))
FTMPI_API(Win_allocate_shared_c,
          (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win))
FTMPI_API(Win_create_c, (void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win))
FTMPI_API(Win_shared_query_c, (MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr))

/* Datatypes: constructors, external32, envelope and contents. */
FTMPI_API(Pack_external_c,
          (const char *datarep, const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
           MPI_Count outsize, MPI_Count *position))
FTMPI_API(Pack_external_size_c, (const char *datarep, MPI_Count incount, MPI_Datatype datatype, MPI_Count *size))
FTMPI_API(Type_create_darray_c,
          (int size, int rank, int ndims, const MPI_Count array_of_gsizes[], const int array_of_distribs[],
           const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype,
           MPI_Datatype *newtype))
FTMPI_API(Type_create_hindexed_block_c,
          (MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
           MPI_Datatype *newtype))
FTMPI_API(Type_create_hindexed_c,
          (MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[],
           MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Type_create_hvector_c,
          (MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Type_create_indexed_block_c,
          (MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
           MPI_Datatype *newtype))
FTMPI_API(Type_create_struct_c,
          (MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[],
           const MPI_Datatype array_of_types[], MPI_Datatype *newtype))
FTMPI_API(Type_create_subarray_c,
          (int ndims, const MPI_Count array_of_sizes[], const MPI_Count array_of_subsizes[],
           const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Type_get_contents_c,
          (MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses, MPI_Count max_large_counts,
           MPI_Count max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[],
           MPI_Count array_of_large_counts[], MPI_Datatype array_of_datatypes[]))
FTMPI_API(Type_get_envelope_c,
          (MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses, MPI_Count *num_large_counts,
           MPI_Count *num_datatypes, int *combiner))
FTMPI_API(Type_indexed_c,
          (MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[],
           MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Unpack_external_c,
          (const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
           MPI_Count outcount, MPI_Datatype datatype))

/* Reductions: a user function of MPI_Op_create_c gets its length as an MPI_Count. */
FTMPI_API(Op_create_c, (MPI_User_function_c * user_fn, int commute, MPI_Op *op))
FTMPI_API(Reduce_local_c, (const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op))

#endif /* FTMPI_MPI_LARGE_COUNT_H */
