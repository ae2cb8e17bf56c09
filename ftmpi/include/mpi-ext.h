/* mpi-ext.h — FT-MPI's extensions to the MPI interface.
 *
 * The fault-tolerance error classes, named as in the de-facto ULFM binding
 * so ULFM programs compile unmodified. They follow the standard classes of
 * mpi.h (which end at MPI_ERR_IO = 57) and stay below MPI_ERR_LASTCODE.
 * The MPIX_ functions (Comm_revoke, Comm_shrink, Comm_agree,
 * Comm_failure_ack/get_acked, …) come with issue 6.
 */
#ifndef FTMPI_MPI_EXT_H
#define FTMPI_MPI_EXT_H

#include "mpi.h"

#define MPIX_ERR_PROC_FAILED         58  /* a process the operation needs has failed */
#define MPIX_ERR_PROC_FAILED_PENDING 59  /* ANY_SOURCE receive stopped by an unacknowledged failure */
#define MPIX_ERR_REVOKED             60  /* the communicator was revoked */

#endif /* FTMPI_MPI_EXT_H */
