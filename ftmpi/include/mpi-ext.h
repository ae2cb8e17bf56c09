/* mpi-ext.h — FT-MPI's extensions to the MPI interface: surviving process
 * failures.
 *
 * Two interfaces over one mechanism (ftmpi/FT_CONTRACTS.md):
 *
 *  - ULFM (MPIX_ names, as the de-facto binding of the MPI Forum's
 *    fault-tolerance chapter): programs written for Open MPI's or MPICH's
 *    ULFM compile unmodified. A failure is reported by error class
 *    MPIX_ERR_PROC_FAILED on operations that involve the failed process;
 *    MPIX_Comm_revoke, _shrink, _agree and the acknowledgement calls let the
 *    program recover.
 *
 *  - FT-MPI (Fagg & Dongarra): a communicator mode chosen at launch
 *    (`ftmpirun --comm-mode`, `--msg-mode`) or per communicator with
 *    FTMPI_Comm_set_mode. In BLANK, SHRINK and REBUILD modes a communicator
 *    constructor (MPI_Comm_dup, _create, _split) called on a communicator
 *    with failures is the collective recovery point; failure details are
 *    attributes (FT_MPI_* keys below).
 *
 * The error code of a process failure follows the interface the program
 * chose: on a communicator in ULFM mode it is MPIX_ERR_PROC_FAILED; on one
 * in BLANK, SHRINK, REBUILD or REBUILD_APPEND mode it is MPI_ERR_OTHER, as
 * FT-MPI's programs test (`rc == MPI_ERR_OTHER`, then the FT_MPI_*
 * attributes), handed to the error handler too. The MPIX_ calls return
 * MPIX_ERR_PROC_FAILED in every mode, and MPIX_ERR_PROC_FAILED_PENDING and
 * MPIX_ERR_REVOKED are never replaced (a pending request, a revoke).
 *
 * The default mode is ULFM: nothing is recovered automatically, failures go
 * to the communicator's error handler — MPI_ERRORS_ARE_FATAL by default, so a
 * program written for any MPI ends gracefully on a failure, as it would
 * there.
 */
#ifndef FTMPI_MPI_EXT_H
#define FTMPI_MPI_EXT_H

#include "mpi.h"

#if defined(__cplusplus)
extern "C" {
#endif

/* This MPI has the fault-tolerance extensions (compile-time test, as
 * OMPI_HAVE_MPI_EXT_FTMPI in Open MPI). At run time the MPIX_FT attribute
 * says whether the job runs with fault tolerance on. */
#define FTMPI_HAVE_MPI_EXT_FT 1
#define MPIX_HAVE_ULFM        1

/* ---- Error classes (follow mpi.h's MPI_ERR_IO = 57; 64.. are MPI_T's) ---- */
#define MPIX_ERR_PROC_FAILED 58 /* a process the operation needs has failed */
#define MPIX_ERR_PROC_FAILED_PENDING                                                                                   \
    59                      /* ANY_SOURCE receive stopped by an unacknowledged failure; the request stays pending */
#define MPIX_ERR_REVOKED 60 /* the communicator was revoked */
/* MPI_Init's return in a replacement process started by REBUILD (FT-MPI's
 * MPI_INIT_RESTARTED_NODE): load checkpoint data instead of initial data.
 * Not an error: MPI is initialized when it is returned. */
#define MPI_INIT_RESTARTED_NODE 61
/* The names the MPI Forum chapter uses. */
#ifndef MPI_ERR_PROC_FAILED
#define MPI_ERR_PROC_FAILED MPIX_ERR_PROC_FAILED
#endif
#ifndef MPI_ERR_PROC_FAILED_PENDING
#define MPI_ERR_PROC_FAILED_PENDING MPIX_ERR_PROC_FAILED_PENDING
#endif
#ifndef MPI_ERR_REVOKED
#define MPI_ERR_REVOKED MPIX_ERR_REVOKED
#endif

/* ---- ULFM ---- */
int MPIX_Comm_revoke(MPI_Comm comm);
int MPIX_Comm_is_revoked(MPI_Comm comm, int *flag);
int MPIX_Comm_shrink(MPI_Comm comm, MPI_Comm *newcomm);
int MPIX_Comm_ishrink(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);
int MPIX_Comm_agree(MPI_Comm comm, int *flag);
int MPIX_Comm_iagree(MPI_Comm comm, int *flag, MPI_Request *request);
int MPIX_Comm_failure_ack(MPI_Comm comm);
int MPIX_Comm_failure_get_acked(MPI_Comm comm, MPI_Group *failedgrp);
int MPIX_Comm_get_failed(MPI_Comm comm, MPI_Group *failedgrp);
int MPIX_Comm_ack_failed(MPI_Comm comm, int num_to_ack, int *num_acked);

int PMPIX_Comm_revoke(MPI_Comm comm);
int PMPIX_Comm_is_revoked(MPI_Comm comm, int *flag);
int PMPIX_Comm_shrink(MPI_Comm comm, MPI_Comm *newcomm);
int PMPIX_Comm_ishrink(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);
int PMPIX_Comm_agree(MPI_Comm comm, int *flag);
int PMPIX_Comm_iagree(MPI_Comm comm, int *flag, MPI_Request *request);
int PMPIX_Comm_failure_ack(MPI_Comm comm);
int PMPIX_Comm_failure_get_acked(MPI_Comm comm, MPI_Group *failedgrp);
int PMPIX_Comm_get_failed(MPI_Comm comm, MPI_Group *failedgrp);
int PMPIX_Comm_ack_failed(MPI_Comm comm, int num_to_ack, int *num_acked);

/* ---- Files (the chapter's MPI_FILE_REVOKE; ftmpi/src/io/README.md) ----
 * After a revoke every pending and later non-local operation on the file, at
 * every process that opened it, completes with MPIX_ERR_REVOKED. */
int MPIX_File_revoke(MPI_File fh);
int PMPIX_File_revoke(MPI_File fh);
#ifndef MPI_File_revoke
#define MPI_File_revoke MPIX_File_revoke
#endif

/* ---- Windows (the chapter's MPI_WIN_REVOKE and MPI_WIN_GET_FAILED;
 * ftmpi/src/rma/README.md) ----
 * After a revoke every pending and later synchronisation and communication
 * call on the window, at every process of its group, completes with
 * MPIX_ERR_REVOKED. get_failed gives the group of the window's processes
 * known to have failed (ranks as in MPI_Win_get_group's group). */
int MPIX_Win_revoke(MPI_Win win);
int PMPIX_Win_revoke(MPI_Win win);
int MPIX_Win_get_failed(MPI_Win win, MPI_Group *failed_group);
int PMPIX_Win_get_failed(MPI_Win win, MPI_Group *failed_group);
#ifndef MPI_Win_revoke
#define MPI_Win_revoke MPIX_Win_revoke
#endif
#ifndef MPI_Win_get_failed
#define MPI_Win_get_failed MPIX_Win_get_failed
#endif

/* FT-MPI's name for the failure code in its modes, as its master-worker
 * example spells it. */
#ifndef MPI_OTHER_ERR
#define MPI_OTHER_ERR MPI_ERR_OTHER
#endif

/* ---- FT-MPI communicator and message modes ---- */
#define FTMPI_COMM_MODE_ULFM           0 /* default: no automatic recovery (MPIX_ calls) */
#define FTMPI_COMM_MODE_ABORT          1 /* any failure ends the job gracefully; cannot be trapped */
#define FTMPI_COMM_MODE_BLANK          2 /* recovery keeps the extent; failed ranks are gaps (MPI_ERR_RANK) */
#define FTMPI_COMM_MODE_SHRINK         3 /* recovery renumbers the survivors contiguously */
#define FTMPI_COMM_MODE_REBUILD        4 /* recovery starts replacements into the failed ranks */
#define FTMPI_COMM_MODE_REBUILD_APPEND 5 /* recovery shrinks, then appends replacements at the end */

#define FTMPI_MSG_MODE_NOP                                                                                             \
    0 /* after a failure every user operation on the communicator returns an error until recovery */
#define FTMPI_MSG_MODE_CONT 1 /* default: operations not involving a failed process go on normally */

/* Communicator states (FT-MPI's FT_OK … FT_FAILED). */
#define FTMPI_COMM_OK        0
#define FTMPI_COMM_DETECTED  1 /* a member failed since the last recovery */
#define FTMPI_COMM_RECOVER   2 /* a recovery is running on it */
#define FTMPI_COMM_RECOVERED 3 /* recovered; becomes OK at its next operation */
#define FTMPI_COMM_FAILED    4 /* cannot be recovered (freed by the program) */

/* Process states. */
#define FTMPI_PROC_OK          0
#define FTMPI_PROC_UNAVAILABLE 1 /* suspected: a broken connection not yet confirmed by the VM */
#define FTMPI_PROC_JOINING     2 /* a replacement is being started or is connecting */
#define FTMPI_PROC_FAILED      3

/* Set or read a communicator's modes (local; new communicators inherit the
 * parent's). MPI_ERR_ARG for an unknown mode. */
int FTMPI_Comm_set_mode(MPI_Comm comm, int comm_mode, int msg_mode);
int FTMPI_Comm_get_mode(MPI_Comm comm, int *comm_mode, int *msg_mode);
int FTMPI_Comm_get_state(MPI_Comm comm, int *state);
/* State of a process named by its rank in comm. */
int FTMPI_Comm_get_proc_state(MPI_Comm comm, int rank, int *state);
/* Collective correctness: with strict on, every collective that combines
 * several inputs ends with an agreement so that it either succeeds
 * everywhere or fails everywhere, and Bcast is retried over the survivors.
 * Default from `ftmpirun --strict-collectives` (FTMPI_COLL_STRICT=1). */
int FTMPI_Comm_set_strict(MPI_Comm comm, int strict);
int FTMPI_Comm_get_strict(MPI_Comm comm, int *strict);

int PFTMPI_Comm_set_mode(MPI_Comm comm, int comm_mode, int msg_mode);
int PFTMPI_Comm_get_mode(MPI_Comm comm, int *comm_mode, int *msg_mode);
int PFTMPI_Comm_get_state(MPI_Comm comm, int *state);
int PFTMPI_Comm_get_proc_state(MPI_Comm comm, int rank, int *state);
int PFTMPI_Comm_set_strict(MPI_Comm comm, int strict);
int PFTMPI_Comm_get_strict(MPI_Comm comm, int *strict);

/* ---- Windows after a recovery ----
 * Re-makes `win` in place over `comm` (collective over comm): the handle,
 * this process's window memory and what it holds, a dynamic window's
 * attached regions, name, info, attributes and error handler stay; the
 * members, their sizes and displacement units are comm's, every epoch and
 * lock of the old window is dropped. A member that has no such window (a
 * REBUILD replacement, whose MPI_Init returned MPI_INIT_RESTARTED_NODE)
 * calls the creation call of the window's flavor on comm instead
 * (MPI_Win_allocate: zeroed memory; MPI_Win_create: the memory it passes;
 * MPI_Win_create_dynamic), and the calls meet. In BLANK, SHRINK and REBUILD
 * modes comm may be the communicator still to recover (its duplicate inside
 * is the recovery point). MPI_ERR_RMA_FLAVOR for a window of
 * MPI_Win_allocate_shared (free it and allocate again everywhere). On an
 * error the window stays as it was. */
#define FTMPI_HAVE_WIN_REBUILD 1
int FTMPI_Win_rebuild(MPI_Win win, MPI_Comm comm) FTMPI_NOEXCEPT;
int PFTMPI_Win_rebuild(MPI_Win win, MPI_Comm comm) FTMPI_NOEXCEPT;

/* ---- Failure details as attributes (MPI_Comm_get_attr on any communicator;
 * values are pointers owned by the library, valid until the next MPI call on
 * that communicator). "Since the last recovery" means since the
 * communicator was created or last recovered. ---- */
#define FT_MPI_LIST_NUM_FAILED 8  /* int*: number of failure events seen locally on comm since the last recovery */
#define FT_MPI_LIST_FAILED     9  /* int*: their ranks in comm, in the order detected locally */
#define FT_MPI_COM_NUM_FAILED  10 /* int*: number of distinct ranks of comm that failed since the last recovery */
#define FT_MPI_COM_FAILED      11 /* int*: array [extent of comm]: failures per rank since the last recovery */
#define FT_MPI_ERROR_STRING    12 /* char*: what happened, readable ("rank 2 (world 2) killed by signal 9 on member …") */
#define MPIX_FT                13 /* int*: 1 when the job runs with fault tolerance (comm mode not ABORT), else 0 */
#define FTMPI_RESTARTED        14 /* int*: 1 in a replacement process (also MPI_Init's return), else 0 */
#define FTMPI_INCARNATION      15 /* int*: this process's incarnation (0 = started by ftmpirun, k = k-th replacement) */

/* ---- Collective algorithms (ftmpi/src/coll/README.md) ----
 * Forces `algorithm` for `collective` in this process from the next call
 * on, as FTMPI_COLL_<COLLECTIVE>=<algorithm> does from MPI_Init: e.g.
 * ("allreduce", "rabenseifner"), ("bcast", "pipeline:16384") for a segment
 * size. NULL or "" for algorithm returns to the decision tables. Every
 * member of a communicator must force the same before calling a collective
 * on it. Names are case-insensitive. MPI_ERR_ARG (and one line on stderr
 * listing the valid names) for an unknown collective or algorithm. May be
 * called before MPI_Init; FTMPI_COLL_<NAME> variables set then win. */
#define FTMPI_HAVE_COLL_FORCE 1
int FTMPI_Coll_force(const char *collective, const char *algorithm);
int PFTMPI_Coll_force(const char *collective, const char *algorithm);

#if defined(__cplusplus)
}
#endif

#endif /* FTMPI_MPI_EXT_H */
