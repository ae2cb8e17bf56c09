/* ftmpi/mpi_large_count.h — part of mpi.h: The MPI-4 large-count (`_c`) forms.
 * Include <mpi.h>, not this file: it uses mpi.h's types and FTMPI_API, and
 * mpi.h includes it inside its extern "C" block. */
#ifndef FTMPI_MPI_LARGE_COUNT_H
#define FTMPI_MPI_LARGE_COUNT_H
#ifndef FTMPI_MPI_H
#error "include <mpi.h> instead of ftmpi/mpi_large_count.h"
#endif

/* Large counts (MPI-4 `_c` forms): counts that fit an int are served;
 * larger ones are refused with MPI_ERR_COUNT (one message, collective
 * block, constructor count or pack buffer holds at most INT_MAX). */
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

#endif /* FTMPI_MPI_LARGE_COUNT_H */
