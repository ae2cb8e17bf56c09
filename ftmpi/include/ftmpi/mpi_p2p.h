/* ftmpi/mpi_p2p.h — part of mpi.h: Point-to-point and requests.
 * Include <mpi.h>, not this file: it uses mpi.h's types and FTMPI_API, and
 * mpi.h includes it inside its extern "C" block. */
#ifndef FTMPI_MPI_P2P_H
#define FTMPI_MPI_P2P_H
#ifndef FTMPI_MPI_H
#error "include <mpi.h> instead of ftmpi/mpi_p2p.h"
#endif

/* Point-to-point */
FTMPI_API(Send, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_API(Bsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_API(Ssend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_API(Rsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_API(Recv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status))
FTMPI_API(Isend,
          (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ibsend,
          (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Issend,
          (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Irsend,
          (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Irecv,
          (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Sendrecv,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
           int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status))
FTMPI_API(Sendrecv_replace,
          (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm,
           MPI_Status *status))
FTMPI_API(Isendrecv,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
           int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Isendrecv_replace,
          (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm,
           MPI_Request *request))
FTMPI_API(Buffer_attach, (void *buffer, int size))
FTMPI_API(Buffer_detach, (void *buffer_addr, int *size))
/* MPI-4.1 buffers for buffered sends: one per communicator, per session and
 * per process; a buffered send uses its communicator's, else its session's,
 * else the process's. MPI_BUFFER_AUTOMATIC as the buffer lets the library
 * take the memory it needs. Flush waits until every message buffered so far
 * has left; the i forms return a request that completes then. */
#define MPI_BUFFER_AUTOMATIC ((void *)-2)
FTMPI_API(Buffer_flush, (void))
FTMPI_API(Buffer_iflush, (MPI_Request * request))
FTMPI_API(Comm_attach_buffer, (MPI_Comm comm, void *buffer, int size))
FTMPI_API(Comm_detach_buffer, (MPI_Comm comm, void *buffer_addr, int *size))
FTMPI_API(Comm_flush_buffer, (MPI_Comm comm))
FTMPI_API(Comm_iflush_buffer, (MPI_Comm comm, MPI_Request *request))
FTMPI_API(Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status))
FTMPI_API(Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status))
FTMPI_API(Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status))
FTMPI_API(Improbe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status))
FTMPI_API(Mrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status))
FTMPI_API(Imrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request))
FTMPI_API(Get_count, (const MPI_Status *status, MPI_Datatype datatype, int *count))
FTMPI_API(Get_elements, (const MPI_Status *status, MPI_Datatype datatype, int *count))
FTMPI_API(Get_elements_x, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))
FTMPI_API(Status_set_elements, (MPI_Status * status, MPI_Datatype datatype, int count))
FTMPI_API(Status_set_elements_x, (MPI_Status * status, MPI_Datatype datatype, MPI_Count count))
FTMPI_API(Status_set_cancelled, (MPI_Status * status, int flag))
FTMPI_API(Test_cancelled, (const MPI_Status *status, int *flag))
/* MPI-4.1: the public fields through calls. */
FTMPI_API(Status_get_source, (const MPI_Status *status, int *source))
FTMPI_API(Status_get_tag, (const MPI_Status *status, int *tag))
FTMPI_API(Status_get_error, (const MPI_Status *status, int *error))
FTMPI_API(Status_set_source, (MPI_Status * status, int source))
FTMPI_API(Status_set_tag, (MPI_Status * status, int tag))
FTMPI_API(Status_set_error, (MPI_Status * status, int error))

/* Requests */
FTMPI_API(Wait, (MPI_Request * request, MPI_Status *status))
FTMPI_API(Test, (MPI_Request * request, int *flag, MPI_Status *status))
FTMPI_API(Waitany, (int count, MPI_Request array_of_requests[], int *index, MPI_Status *status))
FTMPI_API(Testany, (int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status))
FTMPI_API(Waitall, (int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]))
FTMPI_API(Testall, (int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]))
FTMPI_API(Waitsome,
          (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
           MPI_Status array_of_statuses[]))
FTMPI_API(Testsome,
          (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
           MPI_Status array_of_statuses[]))
FTMPI_API(Request_get_status, (MPI_Request request, int *flag, MPI_Status *status))
/* MPI-4.1: the array forms of Request_get_status; like it, they neither free
 * nor deactivate a request. */
FTMPI_API(Request_get_status_any,
          (int count, const MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status))
FTMPI_API(Request_get_status_all,
          (int count, const MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]))
FTMPI_API(Request_get_status_some,
          (int incount, const MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
           MPI_Status array_of_statuses[]))
FTMPI_API(Request_free, (MPI_Request * request))
FTMPI_API(Cancel, (MPI_Request * request))
FTMPI_API(Send_init,
          (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Bsend_init,
          (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ssend_init,
          (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Rsend_init,
          (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Recv_init,
          (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Start, (MPI_Request * request))
/* Partitioned communication (MPI-4.0 chapter 4): persistent requests started
 * with MPI_Start(all) and completed with Wait/Test; the send goes out once
 * every partition is ready, and MPI_Parrived is true once the whole message
 * arrived (ftmpi/src/part/README.md). */
FTMPI_API(Psend_init,
          (const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
           MPI_Info info, MPI_Request *request))
FTMPI_API(Precv_init,
          (void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
           MPI_Info info, MPI_Request *request))
FTMPI_API(Pready, (int partition, MPI_Request request))
FTMPI_API(Pready_range, (int partition_low, int partition_high, MPI_Request request))
FTMPI_API(Pready_list, (int length, const int array_of_partitions[], MPI_Request request))
FTMPI_API(Parrived, (MPI_Request request, int partition, int *flag))
FTMPI_API(Startall, (int count, MPI_Request array_of_requests[]))
FTMPI_API(Grequest_start,
          (MPI_Grequest_query_function * query_fn, MPI_Grequest_free_function *free_fn,
           MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request))
FTMPI_API(Grequest_complete, (MPI_Request request))

#endif /* FTMPI_MPI_P2P_H */
