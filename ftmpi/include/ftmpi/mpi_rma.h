/* ftmpi/mpi_rma.h — part of mpi.h: one-sided communication (MPI-3.1 chapter 11).
 * Include <mpi.h>, not this file: it uses mpi.h's types and FTMPI_API, and
 * mpi.h includes it inside its extern "C" block. */
#ifndef FTMPI_MPI_RMA_H
#define FTMPI_MPI_RMA_H
#ifndef FTMPI_MPI_H
#error "include <mpi.h> instead of ftmpi/mpi_rma.h"
#endif

/* ---- One-sided communication (ftmpi/src/rma/README.md) -------------- */
/* MPI_Win and MPI_WIN_NULL are declared with the other handles above. */

/* Window attributes (MPI_Win_get_attr). */
#define MPI_WIN_BASE          0x7a01
#define MPI_WIN_SIZE          0x7a02
#define MPI_WIN_DISP_UNIT     0x7a03
#define MPI_WIN_CREATE_FLAVOR 0x7a04
#define MPI_WIN_MODEL         0x7a05

/* Values of MPI_WIN_CREATE_FLAVOR and MPI_WIN_MODEL. */
#define MPI_WIN_FLAVOR_CREATE   1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC  3
#define MPI_WIN_FLAVOR_SHARED   4
#define MPI_WIN_SEPARATE        1
#define MPI_WIN_UNIFIED         2

/* Lock types and assertions. */
#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED    235
#define MPI_MODE_NOCHECK   1024
#define MPI_MODE_NOSTORE   2048
#define MPI_MODE_NOPUT     4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384

typedef void(MPI_Win_errhandler_function)(MPI_Win *win, int *error_code, ...);
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;
typedef int(MPI_Win_copy_attr_function)(MPI_Win oldwin, int win_keyval, void *extra_state, void *attribute_val_in,
                                        void *attribute_val_out, int *flag);
typedef int(MPI_Win_delete_attr_function)(MPI_Win win, int win_keyval, void *attribute_val, void *extra_state);
int MPI_WIN_NULL_COPY_FN(MPI_Win, int, void *, void *, void *, int *) FTMPI_NOEXCEPT;
int MPI_WIN_DUP_FN(MPI_Win, int, void *, void *, void *, int *) FTMPI_NOEXCEPT;
int MPI_WIN_NULL_DELETE_FN(MPI_Win, int, void *, void *) FTMPI_NOEXCEPT;

/* Windows: creation and release */
FTMPI_API(Win_create, (void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win))
FTMPI_API(Win_allocate, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win))
FTMPI_API(Win_allocate_shared,
          (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win))
FTMPI_API(Win_shared_query, (MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr))
FTMPI_API(Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win *win))
FTMPI_API(Win_attach, (MPI_Win win, void *base, MPI_Aint size))
FTMPI_API(Win_detach, (MPI_Win win, const void *base))
FTMPI_API(Win_free, (MPI_Win * win))
/* Windows: queries, names, info, attributes, error handlers */
FTMPI_API(Win_get_group, (MPI_Win win, MPI_Group *group))
FTMPI_API(Win_set_name, (MPI_Win win, const char *win_name))
FTMPI_API(Win_get_name, (MPI_Win win, char *win_name, int *resultlen))
FTMPI_API(Win_set_info, (MPI_Win win, MPI_Info info))
FTMPI_API(Win_get_info, (MPI_Win win, MPI_Info *info_used))
FTMPI_API(Win_create_keyval,
          (MPI_Win_copy_attr_function * win_copy_attr_fn, MPI_Win_delete_attr_function *win_delete_attr_fn,
           int *win_keyval, void *extra_state))
FTMPI_API(Win_free_keyval, (int *win_keyval))
FTMPI_API(Win_set_attr, (MPI_Win win, int win_keyval, void *attribute_val))
FTMPI_API(Win_get_attr, (MPI_Win win, int win_keyval, void *attribute_val, int *flag))
FTMPI_API(Win_delete_attr, (MPI_Win win, int win_keyval))
FTMPI_API(Win_create_errhandler, (MPI_Win_errhandler_function * function, MPI_Errhandler *errhandler))
FTMPI_API(Win_set_errhandler, (MPI_Win win, MPI_Errhandler errhandler))
FTMPI_API(Win_get_errhandler, (MPI_Win win, MPI_Errhandler *errhandler))
FTMPI_API(Win_call_errhandler, (MPI_Win win, int errorcode))
MPI_Fint MPI_Win_c2f(MPI_Win win) FTMPI_NOEXCEPT;
MPI_Win MPI_Win_f2c(MPI_Fint win) FTMPI_NOEXCEPT;
MPI_Fint PMPI_Win_c2f(MPI_Win win) FTMPI_NOEXCEPT;
MPI_Win PMPI_Win_f2c(MPI_Fint win) FTMPI_NOEXCEPT;
/* Communication */
FTMPI_API(Put,
          (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
           MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win))
FTMPI_API(Get,
          (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
           int target_count, MPI_Datatype target_datatype, MPI_Win win))
FTMPI_API(Accumulate,
          (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
           MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
FTMPI_API(Get_accumulate,
          (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr, int result_count,
           MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count,
           MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
FTMPI_API(Fetch_and_op,
          (const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
           MPI_Op op, MPI_Win win))
FTMPI_API(Compare_and_swap,
          (const void *origin_addr, const void *compare_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
           MPI_Aint target_disp, MPI_Win win))
FTMPI_API(Rput,
          (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
           MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request))
FTMPI_API(Rget,
          (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
           int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request))
FTMPI_API(Raccumulate,
          (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
           MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
           MPI_Request *request))
FTMPI_API(Rget_accumulate,
          (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr, int result_count,
           MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count,
           MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request))
/* Synchronisation */
FTMPI_API(Win_fence, (int assert, MPI_Win win))
FTMPI_API(Win_post, (MPI_Group group, int assert, MPI_Win win))
FTMPI_API(Win_start, (MPI_Group group, int assert, MPI_Win win))
FTMPI_API(Win_complete, (MPI_Win win))
FTMPI_API(Win_wait, (MPI_Win win))
FTMPI_API(Win_test, (MPI_Win win, int *flag))
FTMPI_API(Win_lock, (int lock_type, int rank, int assert, MPI_Win win))
FTMPI_API(Win_unlock, (int rank, MPI_Win win))
FTMPI_API(Win_lock_all, (int assert, MPI_Win win))
FTMPI_API(Win_unlock_all, (MPI_Win win))
FTMPI_API(Win_flush, (int rank, MPI_Win win))
FTMPI_API(Win_flush_all, (MPI_Win win))
FTMPI_API(Win_flush_local, (int rank, MPI_Win win))
FTMPI_API(Win_flush_local_all, (MPI_Win win))
FTMPI_API(Win_sync, (MPI_Win win))

#endif /* FTMPI_MPI_RMA_H */
