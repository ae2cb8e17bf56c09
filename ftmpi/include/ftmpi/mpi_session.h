/* ftmpi/mpi_session.h — part of mpi.h: MPI-4 sessions (MPI-4.0 chapter 11.3).
 * Include <mpi.h>, not this file: it uses mpi.h's types and FTMPI_API, and
 * mpi.h includes it inside its extern "C" block.
 *
 * Two process sets: "mpi://WORLD" and "mpi://SELF". A session's
 * communicators come from MPI_Group_from_session_pset and
 * MPI_Comm_create_from_group (ftmpi/src/session/README.md). */
#ifndef FTMPI_MPI_SESSION_H
#define FTMPI_MPI_SESSION_H
#ifndef FTMPI_MPI_H
#error "include <mpi.h> instead of ftmpi/mpi_session.h"
#endif

typedef struct ftmpi_session_s *MPI_Session;
#define MPI_SESSION_NULL ((MPI_Session)0)
#define MPI_ERR_SESSION  82 /* invalid session handle (above the MPI_T_ERR_ classes) */

typedef void(MPI_Session_errhandler_function)(MPI_Session *session, int *error_code, ...);

FTMPI_API(Session_init, (MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session))
FTMPI_API(Session_finalize, (MPI_Session * session))
FTMPI_API(Session_get_num_psets, (MPI_Session session, MPI_Info info, int *npset_names))
FTMPI_API(Session_get_nth_pset, (MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name))
FTMPI_API(Session_get_pset_info, (MPI_Session session, const char *pset_name, MPI_Info *info))
FTMPI_API(Session_get_info, (MPI_Session session, MPI_Info *info_used))
FTMPI_API(Group_from_session_pset, (MPI_Session session, const char *pset_name, MPI_Group *newgroup))
FTMPI_API(Session_create_errhandler,
          (MPI_Session_errhandler_function * session_errhandler_fn, MPI_Errhandler *errhandler))
FTMPI_API(Session_set_errhandler, (MPI_Session session, MPI_Errhandler errhandler))
FTMPI_API(Session_get_errhandler, (MPI_Session session, MPI_Errhandler *errhandler))
FTMPI_API(Session_call_errhandler, (MPI_Session session, int errorcode))
/* The session's buffer for buffered sends (MPI-4.1, see MPI_Comm_attach_buffer
 * in ftmpi/mpi_p2p.h): used by the communicators made from the session's
 * process sets that have no buffer of their own. */
FTMPI_API(Session_attach_buffer, (MPI_Session session, void *buffer, int size))
FTMPI_API(Session_detach_buffer, (MPI_Session session, void *buffer_addr, int *size))
FTMPI_API(Session_flush_buffer, (MPI_Session session))
FTMPI_API(Session_iflush_buffer, (MPI_Session session, MPI_Request *request))
/* Fortran handles of sessions (as mpi.h's MPI_Comm_c2f and friends). */
MPI_Fint MPI_Session_c2f(MPI_Session session) FTMPI_NOEXCEPT;
MPI_Session MPI_Session_f2c(MPI_Fint session) FTMPI_NOEXCEPT;
MPI_Fint PMPI_Session_c2f(MPI_Session session) FTMPI_NOEXCEPT;
MPI_Session PMPI_Session_f2c(MPI_Fint session) FTMPI_NOEXCEPT;

#endif /* FTMPI_MPI_SESSION_H */
