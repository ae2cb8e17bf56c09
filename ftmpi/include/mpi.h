/* mpi.h — the MPI C interface of libftmpi (FT-MPI on HARNESS).
 *
 * MPI-3.1 names and semantics, so programs written for Open MPI or MPICH
 * compile unmodified. Pure C (C99), usable from C++ (extern "C").
 * The fault-tolerance extensions (MPIX_, FTMPI_) are declared in mpi-ext.h,
 * which this header includes at its end: programs that include only mpi.h
 * see them too (as MPICH's do); including both, in either order, is fine.
 *
 * Handles are pointers to incomplete structs (as in Open MPI); predefined
 * objects are C-linkage objects defined by the part of libftmpi that owns
 * them (see ftmpi/CONTRACTS.md): datatypes `ftmpi_dt_<name>` and ops
 * `ftmpi_op_<name>` by the datatype part; communicators, groups, error
 * handlers and MPI_INFO_ENV by the comm part; MPI_MESSAGE_NO_PROC by p2p.
 *
 * Every function has its PMPI_ twin for profiling tools. Implementers: define
 * MPI_X in C++ as `extern "C" int MPI_X(...) noexcept`, then write
 * `FTMPI_PMPI(X)` (from ftmpi/src/internal/pmpi.hpp) after it in the same file;
 * that makes PMPI_X a weak alias of MPI_X.
 */
#ifndef FTMPI_MPI_H
#define FTMPI_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Version -------------------------------------------------------- */
#define MPI_VERSION    3
#define MPI_SUBVERSION 1
#define FTMPI_VERSION_STRING "FT-MPI (HARNESS) 0.1.0"

/* Inside libftmpi (C++) every entry point is noexcept (no exception may
 * cross the C boundary); users' own declarations need not say so. */
#if defined(__cplusplus) && defined(FTMPI_BUILDING_LIBRARY)
#define FTMPI_NOEXCEPT noexcept
#else
#define FTMPI_NOEXCEPT
#endif

/* ---- Integer types -------------------------------------------------- */
typedef int64_t MPI_Aint;
typedef int64_t MPI_Offset;
typedef int64_t MPI_Count;
typedef int     MPI_Fint;

/* ---- Handles -------------------------------------------------------- */
typedef struct ftmpi_comm_s       *MPI_Comm;
typedef struct ftmpi_group_s      *MPI_Group;
typedef struct ftmpi_datatype_s   *MPI_Datatype;
typedef struct ftmpi_op_s         *MPI_Op;
typedef struct ftmpi_request_s    *MPI_Request;
typedef struct ftmpi_errhandler_s *MPI_Errhandler;
typedef struct ftmpi_message_s    *MPI_Message;
typedef struct ftmpi_info_s       *MPI_Info;
typedef struct ftmpi_win_s        *MPI_Win;   /* RMA is not provided; the */
typedef struct ftmpi_file_s       *MPI_File;  /* handles exist for headers that name them */

/* ---- Status --------------------------------------------------------- */
typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int ftmpi_cancelled;      /* private: MPI_Test_cancelled */
    size_t ftmpi_count;       /* private: bytes received */
} MPI_Status;

#define MPI_STATUS_IGNORE   ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)
#define MPI_F_STATUS_IGNORE   ((MPI_Fint *)0)
#define MPI_F_STATUSES_IGNORE ((MPI_Fint *)0)
#define MPI_F_STATUS_SIZE 6

/* ---- Null handles --------------------------------------------------- */
#define MPI_COMM_NULL       ((MPI_Comm)0)
#define MPI_GROUP_NULL      ((MPI_Group)0)
#define MPI_DATATYPE_NULL   ((MPI_Datatype)0)
#define MPI_OP_NULL         ((MPI_Op)0)
#define MPI_REQUEST_NULL    ((MPI_Request)0)
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0)
#define MPI_MESSAGE_NULL    ((MPI_Message)0)
#define MPI_INFO_NULL       ((MPI_Info)0)
#define MPI_WIN_NULL        ((MPI_Win)0)
#define MPI_FILE_NULL       ((MPI_File)0)

/* ---- Predefined objects (defined by the owning part) ----------------- */
extern struct ftmpi_comm_s ftmpi_comm_world, ftmpi_comm_self;
extern struct ftmpi_group_s ftmpi_group_empty;
extern struct ftmpi_errhandler_s ftmpi_errhandler_fatal, ftmpi_errhandler_return;
extern struct ftmpi_info_s ftmpi_info_env;
extern struct ftmpi_message_s ftmpi_message_no_proc;

#define MPI_COMM_WORLD        (&ftmpi_comm_world)
#define MPI_COMM_SELF         (&ftmpi_comm_self)
#define MPI_GROUP_EMPTY       (&ftmpi_group_empty)
#define MPI_ERRORS_ARE_FATAL  (&ftmpi_errhandler_fatal)
#define MPI_ERRORS_RETURN     (&ftmpi_errhandler_return)
#define MPI_INFO_ENV          (&ftmpi_info_env)
#define MPI_MESSAGE_NO_PROC   (&ftmpi_message_no_proc)

/* Datatypes. Synonyms share one object: MPI_LONG_LONG is MPI_LONG_LONG_INT,
 * MPI_C_COMPLEX is MPI_C_FLOAT_COMPLEX. */
extern struct ftmpi_datatype_s
    ftmpi_dt_char, ftmpi_dt_signed_char, ftmpi_dt_unsigned_char, ftmpi_dt_byte,
    ftmpi_dt_wchar, ftmpi_dt_short, ftmpi_dt_unsigned_short, ftmpi_dt_int,
    ftmpi_dt_unsigned, ftmpi_dt_long, ftmpi_dt_unsigned_long,
    ftmpi_dt_long_long_int, ftmpi_dt_unsigned_long_long, ftmpi_dt_float,
    ftmpi_dt_double, ftmpi_dt_long_double, ftmpi_dt_packed,
    ftmpi_dt_c_bool, ftmpi_dt_int8_t, ftmpi_dt_int16_t, ftmpi_dt_int32_t,
    ftmpi_dt_int64_t, ftmpi_dt_uint8_t, ftmpi_dt_uint16_t, ftmpi_dt_uint32_t,
    ftmpi_dt_uint64_t, ftmpi_dt_aint, ftmpi_dt_offset, ftmpi_dt_count,
    ftmpi_dt_c_float_complex, ftmpi_dt_c_double_complex,
    ftmpi_dt_c_long_double_complex,
    ftmpi_dt_float_int, ftmpi_dt_double_int, ftmpi_dt_long_int, ftmpi_dt_2int,
    ftmpi_dt_short_int, ftmpi_dt_long_double_int;

#define MPI_CHAR               (&ftmpi_dt_char)
#define MPI_SIGNED_CHAR        (&ftmpi_dt_signed_char)
#define MPI_UNSIGNED_CHAR      (&ftmpi_dt_unsigned_char)
#define MPI_BYTE               (&ftmpi_dt_byte)
#define MPI_WCHAR              (&ftmpi_dt_wchar)
#define MPI_SHORT              (&ftmpi_dt_short)
#define MPI_UNSIGNED_SHORT     (&ftmpi_dt_unsigned_short)
#define MPI_INT                (&ftmpi_dt_int)
#define MPI_UNSIGNED           (&ftmpi_dt_unsigned)
#define MPI_LONG               (&ftmpi_dt_long)
#define MPI_UNSIGNED_LONG      (&ftmpi_dt_unsigned_long)
#define MPI_LONG_LONG_INT      (&ftmpi_dt_long_long_int)
#define MPI_LONG_LONG          MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG (&ftmpi_dt_unsigned_long_long)
#define MPI_FLOAT              (&ftmpi_dt_float)
#define MPI_DOUBLE             (&ftmpi_dt_double)
#define MPI_LONG_DOUBLE        (&ftmpi_dt_long_double)
#define MPI_PACKED             (&ftmpi_dt_packed)
#define MPI_C_BOOL             (&ftmpi_dt_c_bool)
#define MPI_INT8_T             (&ftmpi_dt_int8_t)
#define MPI_INT16_T            (&ftmpi_dt_int16_t)
#define MPI_INT32_T            (&ftmpi_dt_int32_t)
#define MPI_INT64_T            (&ftmpi_dt_int64_t)
#define MPI_UINT8_T            (&ftmpi_dt_uint8_t)
#define MPI_UINT16_T           (&ftmpi_dt_uint16_t)
#define MPI_UINT32_T           (&ftmpi_dt_uint32_t)
#define MPI_UINT64_T           (&ftmpi_dt_uint64_t)
#define MPI_AINT               (&ftmpi_dt_aint)
#define MPI_OFFSET             (&ftmpi_dt_offset)
#define MPI_COUNT              (&ftmpi_dt_count)
#define MPI_C_FLOAT_COMPLEX    (&ftmpi_dt_c_float_complex)
#define MPI_C_COMPLEX          MPI_C_FLOAT_COMPLEX
#define MPI_C_DOUBLE_COMPLEX   (&ftmpi_dt_c_double_complex)
#define MPI_C_LONG_DOUBLE_COMPLEX (&ftmpi_dt_c_long_double_complex)
#define MPI_FLOAT_INT          (&ftmpi_dt_float_int)
#define MPI_DOUBLE_INT         (&ftmpi_dt_double_int)
#define MPI_LONG_INT           (&ftmpi_dt_long_int)
#define MPI_2INT               (&ftmpi_dt_2int)
#define MPI_SHORT_INT          (&ftmpi_dt_short_int)
#define MPI_LONG_DOUBLE_INT    (&ftmpi_dt_long_double_int)

/* C++ types (the same layout as C's bool and _Complex types). */
extern struct ftmpi_datatype_s ftmpi_dt_cxx_bool, ftmpi_dt_cxx_float_complex, ftmpi_dt_cxx_double_complex,
    ftmpi_dt_cxx_long_double_complex;
#define MPI_CXX_BOOL                (&ftmpi_dt_cxx_bool)
#define MPI_CXX_FLOAT_COMPLEX       (&ftmpi_dt_cxx_float_complex)
#define MPI_CXX_DOUBLE_COMPLEX      (&ftmpi_dt_cxx_double_complex)
#define MPI_CXX_LONG_DOUBLE_COMPLEX (&ftmpi_dt_cxx_long_double_complex)

/* Fortran types, usable from C (gfortran's sizes: default INTEGER, REAL
 * and LOGICAL are 4 bytes). The predefined ops take them as the standard
 * allows, except REAL2, REAL16, COMPLEX32 and INTEGER16, which move data
 * but have no predefined op here. */
extern struct ftmpi_datatype_s
    ftmpi_dt_integer, ftmpi_dt_real, ftmpi_dt_double_precision, ftmpi_dt_complex,
    ftmpi_dt_double_complex, ftmpi_dt_logical, ftmpi_dt_character, ftmpi_dt_2integer,
    ftmpi_dt_2real, ftmpi_dt_2double_precision, ftmpi_dt_integer1, ftmpi_dt_integer2,
    ftmpi_dt_integer4, ftmpi_dt_integer8, ftmpi_dt_integer16, ftmpi_dt_real2, ftmpi_dt_real4,
    ftmpi_dt_real8, ftmpi_dt_real16, ftmpi_dt_complex8, ftmpi_dt_complex16, ftmpi_dt_complex32;
#define MPI_INTEGER             (&ftmpi_dt_integer)
#define MPI_REAL                (&ftmpi_dt_real)
#define MPI_DOUBLE_PRECISION    (&ftmpi_dt_double_precision)
#define MPI_COMPLEX             (&ftmpi_dt_complex)
#define MPI_DOUBLE_COMPLEX      (&ftmpi_dt_double_complex)
#define MPI_LOGICAL             (&ftmpi_dt_logical)
#define MPI_CHARACTER           (&ftmpi_dt_character)
#define MPI_2INTEGER            (&ftmpi_dt_2integer)
#define MPI_2REAL               (&ftmpi_dt_2real)
#define MPI_2DOUBLE_PRECISION   (&ftmpi_dt_2double_precision)
#define MPI_INTEGER1            (&ftmpi_dt_integer1)
#define MPI_INTEGER2            (&ftmpi_dt_integer2)
#define MPI_INTEGER4            (&ftmpi_dt_integer4)
#define MPI_INTEGER8            (&ftmpi_dt_integer8)
#define MPI_INTEGER16           (&ftmpi_dt_integer16)
#define MPI_REAL2               (&ftmpi_dt_real2)
#define MPI_REAL4               (&ftmpi_dt_real4)
#define MPI_REAL8               (&ftmpi_dt_real8)
#define MPI_REAL16              (&ftmpi_dt_real16)
#define MPI_COMPLEX8            (&ftmpi_dt_complex8)
#define MPI_COMPLEX16           (&ftmpi_dt_complex16)
#define MPI_COMPLEX32           (&ftmpi_dt_complex32)

/* MPI-1's bound markers (removed in MPI-3.0, still shipped by MPICH): in
 * MPI_Type_struct / MPI_Type_create_struct they set the new type's lower
 * (upper) bound where they are placed; they carry no data. */
extern struct ftmpi_datatype_s ftmpi_dt_lb, ftmpi_dt_ub;
#define MPI_LB (&ftmpi_dt_lb)
#define MPI_UB (&ftmpi_dt_ub)

/* Reduction operations. */
extern struct ftmpi_op_s
    ftmpi_op_max, ftmpi_op_min, ftmpi_op_sum, ftmpi_op_prod, ftmpi_op_land,
    ftmpi_op_band, ftmpi_op_lor, ftmpi_op_bor, ftmpi_op_lxor, ftmpi_op_bxor,
    ftmpi_op_maxloc, ftmpi_op_minloc, ftmpi_op_replace, ftmpi_op_no_op;

#define MPI_MAX     (&ftmpi_op_max)
#define MPI_MIN     (&ftmpi_op_min)
#define MPI_SUM     (&ftmpi_op_sum)
#define MPI_PROD    (&ftmpi_op_prod)
#define MPI_LAND    (&ftmpi_op_land)
#define MPI_BAND    (&ftmpi_op_band)
#define MPI_LOR     (&ftmpi_op_lor)
#define MPI_BOR     (&ftmpi_op_bor)
#define MPI_LXOR    (&ftmpi_op_lxor)
#define MPI_BXOR    (&ftmpi_op_bxor)
#define MPI_MAXLOC  (&ftmpi_op_maxloc)
#define MPI_MINLOC  (&ftmpi_op_minloc)
#define MPI_REPLACE (&ftmpi_op_replace)
#define MPI_NO_OP   (&ftmpi_op_no_op)

/* ---- Error classes -------------------------------------------------- */
#define MPI_SUCCESS                   0
#define MPI_ERR_BUFFER                1
#define MPI_ERR_COUNT                 2
#define MPI_ERR_TYPE                  3
#define MPI_ERR_TAG                   4
#define MPI_ERR_COMM                  5
#define MPI_ERR_RANK                  6
#define MPI_ERR_REQUEST               7
#define MPI_ERR_ROOT                  8
#define MPI_ERR_GROUP                 9
#define MPI_ERR_OP                    10
#define MPI_ERR_TOPOLOGY              11
#define MPI_ERR_DIMS                  12
#define MPI_ERR_ARG                   13
#define MPI_ERR_UNKNOWN               14
#define MPI_ERR_TRUNCATE              15
#define MPI_ERR_OTHER                 16
#define MPI_ERR_INTERN                17
#define MPI_ERR_IN_STATUS             18
#define MPI_ERR_PENDING               19
#define MPI_ERR_KEYVAL                20
#define MPI_ERR_NO_MEM                21
#define MPI_ERR_BASE                  22
#define MPI_ERR_INFO_KEY              23
#define MPI_ERR_INFO_VALUE            24
#define MPI_ERR_INFO_NOKEY            25
#define MPI_ERR_SPAWN                 26
#define MPI_ERR_PORT                  27
#define MPI_ERR_SERVICE               28
#define MPI_ERR_NAME                  29
#define MPI_ERR_WIN                   30
#define MPI_ERR_SIZE                  31
#define MPI_ERR_DISP                  32
#define MPI_ERR_INFO                  33
#define MPI_ERR_LOCKTYPE              34
#define MPI_ERR_ASSERT                35
#define MPI_ERR_RMA_CONFLICT          36
#define MPI_ERR_RMA_SYNC              37
#define MPI_ERR_RMA_RANGE             38
#define MPI_ERR_RMA_ATTACH            39
#define MPI_ERR_RMA_SHARED            40
#define MPI_ERR_RMA_FLAVOR            41
#define MPI_ERR_FILE                  42
#define MPI_ERR_NOT_SAME              43
#define MPI_ERR_AMODE                 44
#define MPI_ERR_UNSUPPORTED_DATAREP   45
#define MPI_ERR_UNSUPPORTED_OPERATION 46
#define MPI_ERR_NO_SUCH_FILE          47
#define MPI_ERR_FILE_EXISTS           48
#define MPI_ERR_BAD_FILE              49
#define MPI_ERR_ACCESS                50
#define MPI_ERR_NO_SPACE              51
#define MPI_ERR_QUOTA                 52
#define MPI_ERR_READ_ONLY             53
#define MPI_ERR_FILE_IN_USE           54
#define MPI_ERR_DUP_DATAREP           55
#define MPI_ERR_CONVERSION            56
#define MPI_ERR_IO                    57
/* 58..63 are the MPIX_ classes of mpi-ext.h; codes added at run time by
 * MPI_Add_error_class/code are above MPI_ERR_LASTCODE. */
#define MPI_ERR_LASTCODE              63

/* ---- Special values ------------------------------------------------- */
#define MPI_ANY_SOURCE      (-1)
#define MPI_ANY_TAG         (-1)
#define MPI_PROC_NULL       (-2)
#define MPI_ROOT            (-3)
#define MPI_UNDEFINED       (-32766)
#define MPI_KEYVAL_INVALID  (-1)
#define MPI_BSEND_OVERHEAD  128
#define MPI_IN_PLACE        ((void *)1)
#define MPI_BOTTOM          ((void *)0)
#define MPI_ERRCODES_IGNORE ((int *)0)
#define MPI_ARGV_NULL       ((char **)0)
#define MPI_ARGVS_NULL      ((char ***)0)
#define MPI_UNWEIGHTED      ((int *)2)
#define MPI_WEIGHTS_EMPTY   ((int *)3)

#define MPI_MAX_PROCESSOR_NAME         256
#define MPI_MAX_ERROR_STRING           256
#define MPI_MAX_OBJECT_NAME            64
#define MPI_MAX_LIBRARY_VERSION_STRING 256
#define MPI_MAX_INFO_KEY               255
#define MPI_MAX_INFO_VAL               1024
#define MPI_MAX_PORT_NAME              1024
#define MPI_MAX_DATAREP_STRING         128

/* Thread levels. */
#define MPI_THREAD_SINGLE     0
#define MPI_THREAD_FUNNELED   1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE   3

/* Results of group and communicator comparisons. */
#define MPI_IDENT     0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR   2
#define MPI_UNEQUAL   3

/* Topologies. */
#define MPI_GRAPH      1
#define MPI_CART       2
#define MPI_DIST_GRAPH 3

/* Comm_split_type. */
#define MPI_COMM_TYPE_SHARED 1

/* Predefined attribute keys (on MPI_COMM_WORLD). User keyvals are
 * allocated above these by the comm part. */
#define MPI_TAG_UB          1
#define MPI_HOST            2
#define MPI_IO              3
#define MPI_WTIME_IS_GLOBAL 4
#define MPI_APPNUM          5
#define MPI_UNIVERSE_SIZE   6
#define MPI_LASTUSEDCODE    7

/* Datatype constructors' combiners (MPI_Type_get_envelope). */
#define MPI_COMBINER_NAMED          1
#define MPI_COMBINER_DUP            2
#define MPI_COMBINER_CONTIGUOUS     3
#define MPI_COMBINER_VECTOR         4
#define MPI_COMBINER_HVECTOR_INTEGER 5
#define MPI_COMBINER_HVECTOR        6
#define MPI_COMBINER_INDEXED        7
#define MPI_COMBINER_HINDEXED_INTEGER 8
#define MPI_COMBINER_HINDEXED       9
#define MPI_COMBINER_INDEXED_BLOCK  10
#define MPI_COMBINER_HINDEXED_BLOCK 11
#define MPI_COMBINER_STRUCT_INTEGER 12
#define MPI_COMBINER_STRUCT         13
#define MPI_COMBINER_SUBARRAY       14
#define MPI_COMBINER_DARRAY         15
#define MPI_COMBINER_F90_REAL       16
#define MPI_COMBINER_F90_COMPLEX    17
#define MPI_COMBINER_F90_INTEGER    18
#define MPI_COMBINER_RESIZED        19

/* Subarray and darray. */
#define MPI_ORDER_C              56
#define MPI_ORDER_FORTRAN        57
#define MPI_DISTRIBUTE_BLOCK     121
#define MPI_DISTRIBUTE_CYCLIC    122
#define MPI_DISTRIBUTE_NONE      123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)

/* MPI_Type_match_size. */
#define MPI_TYPECLASS_REAL    1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3

/* ---- User callback types -------------------------------------------- */
typedef void (MPI_User_function)(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);
typedef int (MPI_Comm_copy_attr_function)(MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                                          void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int (MPI_Comm_delete_attr_function)(MPI_Comm comm, int comm_keyval, void *attribute_val,
                                            void *extra_state);
typedef int (MPI_Type_copy_attr_function)(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                                          void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int (MPI_Type_delete_attr_function)(MPI_Datatype datatype, int type_keyval,
                                            void *attribute_val, void *extra_state);
typedef void (MPI_Comm_errhandler_function)(MPI_Comm *comm, int *error_code, ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef void (MPI_Handler_function)(MPI_Comm *comm, int *error_code, ...); /* MPI-1 */
/* Generalized requests (MPI_Grequest_start). */
typedef int (MPI_Grequest_query_function)(void *extra_state, MPI_Status *status);
typedef int (MPI_Grequest_free_function)(void *extra_state);
typedef int (MPI_Grequest_cancel_function)(void *extra_state, int complete);
typedef int (MPI_Copy_function)(MPI_Comm oldcomm, int keyval, void *extra_state,
                                void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int (MPI_Delete_function)(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state);

/* Predefined attribute callbacks (defined by the comm part). */
int MPI_COMM_NULL_COPY_FN(MPI_Comm, int, void *, void *, void *, int *) FTMPI_NOEXCEPT;
int MPI_COMM_DUP_FN(MPI_Comm, int, void *, void *, void *, int *) FTMPI_NOEXCEPT;
int MPI_COMM_NULL_DELETE_FN(MPI_Comm, int, void *, void *) FTMPI_NOEXCEPT;
int MPI_TYPE_NULL_COPY_FN(MPI_Datatype, int, void *, void *, void *, int *) FTMPI_NOEXCEPT;
int MPI_TYPE_DUP_FN(MPI_Datatype, int, void *, void *, void *, int *) FTMPI_NOEXCEPT;
int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype, int, void *, void *) FTMPI_NOEXCEPT;
int MPI_NULL_COPY_FN(MPI_Comm, int, void *, void *, void *, int *) FTMPI_NOEXCEPT;
int MPI_DUP_FN(MPI_Comm, int, void *, void *, void *, int *) FTMPI_NOEXCEPT;
int MPI_NULL_DELETE_FN(MPI_Comm, int, void *, void *) FTMPI_NOEXCEPT;

/* ---- Functions ------------------------------------------------------ */
/* FTMPI_API(Name, (params)) declares MPI_Name and its PMPI_Name twin. */
#define FTMPI_API(name, params) int MPI_##name params FTMPI_NOEXCEPT; int PMPI_##name params FTMPI_NOEXCEPT;

/* Environment */
FTMPI_API(Init, (int *argc, char ***argv))
FTMPI_API(Init_thread, (int *argc, char ***argv, int required, int *provided))
FTMPI_API(Initialized, (int *flag))
FTMPI_API(Finalize, (void))
FTMPI_API(Finalized, (int *flag))
FTMPI_API(Abort, (MPI_Comm comm, int errorcode))
FTMPI_API(Query_thread, (int *provided))
FTMPI_API(Is_thread_main, (int *flag))
FTMPI_API(Get_processor_name, (char *name, int *resultlen))
FTMPI_API(Get_version, (int *version, int *subversion))
FTMPI_API(Get_library_version, (char *version, int *resultlen))
double MPI_Wtime(void) FTMPI_NOEXCEPT;
double PMPI_Wtime(void) FTMPI_NOEXCEPT;
double MPI_Wtick(void) FTMPI_NOEXCEPT;
double PMPI_Wtick(void) FTMPI_NOEXCEPT;
FTMPI_API(Alloc_mem, (MPI_Aint size, MPI_Info info, void *baseptr))
FTMPI_API(Free_mem, (void *base))

/* Errors and error handlers */
FTMPI_API(Error_class, (int errorcode, int *errorclass))
FTMPI_API(Error_string, (int errorcode, char *string, int *resultlen))
FTMPI_API(Add_error_class, (int *errorclass))
FTMPI_API(Add_error_code, (int errorclass, int *errorcode))
FTMPI_API(Add_error_string, (int errorcode, const char *string))
FTMPI_API(Comm_create_errhandler, (MPI_Comm_errhandler_function *function, MPI_Errhandler *errhandler))
FTMPI_API(Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler))
FTMPI_API(Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler *errhandler))
FTMPI_API(Comm_call_errhandler, (MPI_Comm comm, int errorcode))
FTMPI_API(Errhandler_free, (MPI_Errhandler *errhandler))
/* MPI-1 names (removed in MPI-3.0; MPICH still ships them). */
FTMPI_API(Errhandler_create, (MPI_Handler_function *function, MPI_Errhandler *errhandler))
FTMPI_API(Errhandler_set, (MPI_Comm comm, MPI_Errhandler errhandler))
FTMPI_API(Errhandler_get, (MPI_Comm comm, MPI_Errhandler *errhandler))

/* Profiling: does nothing unless a profiling library replaces it. */
int MPI_Pcontrol(const int level, ...) FTMPI_NOEXCEPT;
int PMPI_Pcontrol(const int level, ...) FTMPI_NOEXCEPT;

/* Info */
FTMPI_API(Info_create, (MPI_Info *info))
FTMPI_API(Info_set, (MPI_Info info, const char *key, const char *value))
FTMPI_API(Info_get, (MPI_Info info, const char *key, int valuelen, char *value, int *flag))
FTMPI_API(Info_get_valuelen, (MPI_Info info, const char *key, int *valuelen, int *flag))
FTMPI_API(Info_get_nkeys, (MPI_Info info, int *nkeys))
FTMPI_API(Info_get_nthkey, (MPI_Info info, int n, char *key))
FTMPI_API(Info_delete, (MPI_Info info, const char *key))
FTMPI_API(Info_dup, (MPI_Info info, MPI_Info *newinfo))
FTMPI_API(Info_free, (MPI_Info *info))
FTMPI_API(Info_get_string, (MPI_Info info, const char *key, int *buflen, char *value, int *flag))
FTMPI_API(Info_create_env, (int argc, char *argv[], MPI_Info *info))

/* Point-to-point */
FTMPI_API(Send, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_API(Bsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_API(Ssend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_API(Rsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_API(Recv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                 MPI_Status *status))
FTMPI_API(Isend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request))
FTMPI_API(Ibsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Request *request))
FTMPI_API(Issend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Request *request))
FTMPI_API(Irsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Request *request))
FTMPI_API(Irecv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                  MPI_Request *request))
FTMPI_API(Sendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                     void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                     MPI_Comm comm, MPI_Status *status))
FTMPI_API(Sendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                             int source, int recvtag, MPI_Comm comm, MPI_Status *status))
FTMPI_API(Isendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                      MPI_Comm comm, MPI_Request *request))
FTMPI_API(Isendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                              int source, int recvtag, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Buffer_attach, (void *buffer, int size))
FTMPI_API(Buffer_detach, (void *buffer_addr, int *size))
FTMPI_API(Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status))
FTMPI_API(Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status))
FTMPI_API(Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status))
FTMPI_API(Improbe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                    MPI_Status *status))
FTMPI_API(Mrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status))
FTMPI_API(Imrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                   MPI_Request *request))
FTMPI_API(Get_count, (const MPI_Status *status, MPI_Datatype datatype, int *count))
FTMPI_API(Get_elements, (const MPI_Status *status, MPI_Datatype datatype, int *count))
FTMPI_API(Get_elements_x, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))
FTMPI_API(Status_set_elements, (MPI_Status *status, MPI_Datatype datatype, int count))
FTMPI_API(Status_set_elements_x, (MPI_Status *status, MPI_Datatype datatype, MPI_Count count))
FTMPI_API(Status_set_cancelled, (MPI_Status *status, int flag))
FTMPI_API(Test_cancelled, (const MPI_Status *status, int *flag))

/* Requests */
FTMPI_API(Wait, (MPI_Request *request, MPI_Status *status))
FTMPI_API(Test, (MPI_Request *request, int *flag, MPI_Status *status))
FTMPI_API(Waitany, (int count, MPI_Request array_of_requests[], int *index, MPI_Status *status))
FTMPI_API(Testany, (int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status))
FTMPI_API(Waitall, (int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]))
FTMPI_API(Testall, (int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]))
FTMPI_API(Waitsome, (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
                     MPI_Status array_of_statuses[]))
FTMPI_API(Testsome, (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
                     MPI_Status array_of_statuses[]))
FTMPI_API(Request_get_status, (MPI_Request request, int *flag, MPI_Status *status))
FTMPI_API(Request_free, (MPI_Request *request))
FTMPI_API(Cancel, (MPI_Request *request))
FTMPI_API(Send_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request))
FTMPI_API(Bsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                       MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ssend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                       MPI_Comm comm, MPI_Request *request))
FTMPI_API(Rsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                       MPI_Comm comm, MPI_Request *request))
FTMPI_API(Recv_init, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                      MPI_Request *request))
FTMPI_API(Start, (MPI_Request *request))
FTMPI_API(Startall, (int count, MPI_Request array_of_requests[]))
FTMPI_API(Grequest_start, (MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                           MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request))
FTMPI_API(Grequest_complete, (MPI_Request request))

/* Datatypes */
FTMPI_API(Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Type_vector, (int count, int blocklength, int stride, MPI_Datatype oldtype,
                        MPI_Datatype *newtype))
FTMPI_API(Type_create_hvector, (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                MPI_Datatype *newtype))
FTMPI_API(Type_indexed, (int count, const int array_of_blocklengths[], const int array_of_displacements[],
                         MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Type_create_hindexed, (int count, const int array_of_blocklengths[],
                                 const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                 MPI_Datatype *newtype))
FTMPI_API(Type_create_indexed_block, (int count, int blocklength, const int array_of_displacements[],
                                      MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Type_create_hindexed_block, (int count, int blocklength, const MPI_Aint array_of_displacements[],
                                       MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Type_create_struct, (int count, const int array_of_blocklengths[],
                               const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                               MPI_Datatype *newtype))
FTMPI_API(Type_create_subarray, (int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                                 const int array_of_starts[], int order, MPI_Datatype oldtype,
                                 MPI_Datatype *newtype))
FTMPI_API(Type_create_darray, (int size, int rank, int ndims, const int array_of_gsizes[],
                               const int array_of_distribs[], const int array_of_dargs[],
                               const int array_of_psizes[], int order, MPI_Datatype oldtype,
                               MPI_Datatype *newtype))
FTMPI_API(Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype))
FTMPI_API(Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Type_commit, (MPI_Datatype *datatype))
FTMPI_API(Type_free, (MPI_Datatype *datatype))
FTMPI_API(Type_size, (MPI_Datatype datatype, int *size))
FTMPI_API(Type_size_x, (MPI_Datatype datatype, MPI_Count *size))
FTMPI_API(Type_get_extent, (MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent))
FTMPI_API(Type_get_extent_x, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent))
FTMPI_API(Type_get_true_extent, (MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent))
FTMPI_API(Type_get_true_extent_x, (MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent))
FTMPI_API(Type_get_envelope, (MPI_Datatype datatype, int *num_integers, int *num_addresses,
                              int *num_datatypes, int *combiner))
FTMPI_API(Type_get_contents, (MPI_Datatype datatype, int max_integers, int max_addresses,
                              int max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[],
                              MPI_Datatype array_of_datatypes[]))
FTMPI_API(Type_set_name, (MPI_Datatype datatype, const char *type_name))
FTMPI_API(Type_get_name, (MPI_Datatype datatype, char *type_name, int *resultlen))
FTMPI_API(Type_match_size, (int typeclass, int size, MPI_Datatype *datatype))
FTMPI_API(Type_create_keyval, (MPI_Type_copy_attr_function *type_copy_attr_fn,
                               MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval,
                               void *extra_state))
FTMPI_API(Type_free_keyval, (int *type_keyval))
FTMPI_API(Type_set_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val))
FTMPI_API(Type_get_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag))
FTMPI_API(Type_delete_attr, (MPI_Datatype datatype, int type_keyval))
FTMPI_API(Get_address, (const void *location, MPI_Aint *address))
FTMPI_API(Pack, (const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
                 int *position, MPI_Comm comm))
FTMPI_API(Unpack, (const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                   MPI_Datatype datatype, MPI_Comm comm))
FTMPI_API(Pack_size, (int incount, MPI_Datatype datatype, MPI_Comm comm, int *size))
FTMPI_API(Pack_external, (const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype,
                          void *outbuf, MPI_Aint outsize, MPI_Aint *position))
FTMPI_API(Unpack_external, (const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position,
                            void *outbuf, int outcount, MPI_Datatype datatype))
FTMPI_API(Pack_external_size, (const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint *size))
FTMPI_API(Type_create_f90_integer, (int r, MPI_Datatype *newtype))
FTMPI_API(Type_create_f90_real, (int p, int r, MPI_Datatype *newtype))
FTMPI_API(Type_create_f90_complex, (int p, int r, MPI_Datatype *newtype))
/* MPI-1 names (removed in MPI-3.0; MPICH still ships them). */
FTMPI_API(Type_extent, (MPI_Datatype datatype, MPI_Aint *extent))
FTMPI_API(Type_lb, (MPI_Datatype datatype, MPI_Aint *displacement))
FTMPI_API(Type_ub, (MPI_Datatype datatype, MPI_Aint *displacement))
FTMPI_API(Type_hvector, (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                         MPI_Datatype *newtype))
FTMPI_API(Type_hindexed, (int count, int *array_of_blocklengths, MPI_Aint *array_of_displacements,
                          MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Type_struct, (int count, int *array_of_blocklengths, MPI_Aint *array_of_displacements,
                        MPI_Datatype *array_of_types, MPI_Datatype *newtype))
FTMPI_API(Address, (void *location, MPI_Aint *address))
MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp) FTMPI_NOEXCEPT;
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp) FTMPI_NOEXCEPT;
MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) FTMPI_NOEXCEPT;
MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) FTMPI_NOEXCEPT;

/* Reduction operations */
FTMPI_API(Op_create, (MPI_User_function *user_fn, int commute, MPI_Op *op))
FTMPI_API(Op_free, (MPI_Op *op))
FTMPI_API(Op_commutative, (MPI_Op op, int *commute))
FTMPI_API(Reduce_local, (const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op))

/* Collectives */
FTMPI_API(Barrier, (MPI_Comm comm))
FTMPI_API(Bcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm))
FTMPI_API(Gather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
FTMPI_API(Gatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                    MPI_Comm comm))
FTMPI_API(Scatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
FTMPI_API(Scatterv, (const void *sendbuf, const int sendcounts[], const int displs[],
                     MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                     MPI_Comm comm))
FTMPI_API(Allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                      MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                      MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Alltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                      const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
FTMPI_API(Reduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   int root, MPI_Comm comm))
FTMPI_API(Allreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                      MPI_Comm comm))
FTMPI_API(Reduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
FTMPI_API(Reduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm))
FTMPI_API(Scan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm))
FTMPI_API(Exscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm))

/* Non-blocking collectives */
FTMPI_API(Ibarrier, (MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ibcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   MPI_Request *request))
FTMPI_API(Igather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Igatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                     MPI_Comm comm, MPI_Request *request))
FTMPI_API(Iscatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Iscatterv, (const void *sendbuf, const int sendcounts[], const int displs[],
                      MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Request *request))
FTMPI_API(Iallgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Iallgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Request *request))
FTMPI_API(Ialltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ialltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ialltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                       const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                       const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                       MPI_Request *request))
FTMPI_API(Ireduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    int root, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Iallreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ireduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ireduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Iscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm, MPI_Request *request))
FTMPI_API(Iexscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Request *request))

/* Persistent collectives (MPI-4): inactive until MPI_Start. */
FTMPI_API(Barrier_init, (MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Bcast_init, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request))
FTMPI_API(Gather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request))
FTMPI_API(Gatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Scatter_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                         MPI_Request *request))
FTMPI_API(Scatterv_init, (const void *sendbuf, const int sendcounts[], const int displs[],
                          MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                          MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Allgather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                           MPI_Request *request))
FTMPI_API(Allgatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Info info, MPI_Request *request))
FTMPI_API(Alltoall_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request))
FTMPI_API(Alltoallv_init, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                           MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Alltoallw_init, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                           const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                           const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                           MPI_Request *request))
FTMPI_API(Reduce_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                        int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Allreduce_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                           MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Reduce_scatter_init, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request))
FTMPI_API(Reduce_scatter_block_init, (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                                      MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Scan_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                      MPI_Comm comm, MPI_Info info, MPI_Request *request))
FTMPI_API(Exscan_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request))

/* Neighbourhood collectives (Cartesian, graph and distributed-graph
 * communicators). */
FTMPI_API(Neighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Neighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                MPI_Comm comm))
FTMPI_API(Neighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Neighbor_alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                               MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                               const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Neighbor_alltoallw, (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                               const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
FTMPI_API(Ineighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ineighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ineighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_API(Ineighbor_alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request))
FTMPI_API(Ineighbor_alltoallw, (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                MPI_Request *request))

/* Groups */
FTMPI_API(Group_size, (MPI_Group group, int *size))
FTMPI_API(Group_rank, (MPI_Group group, int *rank))
FTMPI_API(Group_translate_ranks, (MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                                  int ranks2[]))
FTMPI_API(Group_compare, (MPI_Group group1, MPI_Group group2, int *result))
FTMPI_API(Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
FTMPI_API(Group_intersection, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
FTMPI_API(Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
FTMPI_API(Group_incl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
FTMPI_API(Group_excl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
FTMPI_API(Group_range_incl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
FTMPI_API(Group_range_excl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
FTMPI_API(Group_free, (MPI_Group *group))

/* Communicators */
FTMPI_API(Comm_size, (MPI_Comm comm, int *size))
FTMPI_API(Comm_rank, (MPI_Comm comm, int *rank))
FTMPI_API(Comm_group, (MPI_Comm comm, MPI_Group *group))
FTMPI_API(Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int *result))
FTMPI_API(Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm))
FTMPI_API(Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm))
FTMPI_API(Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request))
FTMPI_API(Comm_idup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request))
FTMPI_API(Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm))
FTMPI_API(Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm))
FTMPI_API(Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm))
FTMPI_API(Comm_split_type, (MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm))
FTMPI_API(Comm_free, (MPI_Comm *comm))
FTMPI_API(Comm_set_name, (MPI_Comm comm, const char *comm_name))
FTMPI_API(Comm_get_name, (MPI_Comm comm, char *comm_name, int *resultlen))
FTMPI_API(Comm_set_info, (MPI_Comm comm, MPI_Info info))
FTMPI_API(Comm_get_info, (MPI_Comm comm, MPI_Info *info_used))
FTMPI_API(Comm_test_inter, (MPI_Comm comm, int *flag))
FTMPI_API(Comm_remote_size, (MPI_Comm comm, int *size))
FTMPI_API(Comm_remote_group, (MPI_Comm comm, MPI_Group *group))
FTMPI_API(Intercomm_create, (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader,
                             int tag, MPI_Comm *newintercomm))
FTMPI_API(Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm *newintracomm))

/* Attributes */
FTMPI_API(Comm_create_keyval, (MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                               MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                               void *extra_state))
FTMPI_API(Comm_free_keyval, (int *comm_keyval))
FTMPI_API(Comm_set_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val))
FTMPI_API(Comm_get_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag))
FTMPI_API(Comm_delete_attr, (MPI_Comm comm, int comm_keyval))
/* MPI-1 names, deprecated but still used by older programs. */
FTMPI_API(Keyval_create, (MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                          void *extra_state))
FTMPI_API(Keyval_free, (int *keyval))
FTMPI_API(Attr_put, (MPI_Comm comm, int keyval, void *attribute_val))
FTMPI_API(Attr_get, (MPI_Comm comm, int keyval, void *attribute_val, int *flag))
FTMPI_API(Attr_delete, (MPI_Comm comm, int keyval))

/* Topologies */
FTMPI_API(Cart_create, (MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                        MPI_Comm *comm_cart))
FTMPI_API(Cart_get, (MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]))
FTMPI_API(Cartdim_get, (MPI_Comm comm, int *ndims))
FTMPI_API(Cart_rank, (MPI_Comm comm, const int coords[], int *rank))
FTMPI_API(Cart_coords, (MPI_Comm comm, int rank, int maxdims, int coords[]))
FTMPI_API(Cart_shift, (MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest))
FTMPI_API(Cart_sub, (MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm))
FTMPI_API(Cart_map, (MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank))
FTMPI_API(Dims_create, (int nnodes, int ndims, int dims[]))
FTMPI_API(Graph_create, (MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                         MPI_Comm *comm_graph))
FTMPI_API(Graphdims_get, (MPI_Comm comm, int *nnodes, int *nedges))
FTMPI_API(Graph_get, (MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]))
FTMPI_API(Graph_neighbors_count, (MPI_Comm comm, int rank, int *nneighbors))
FTMPI_API(Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors, int neighbors[]))
FTMPI_API(Graph_map, (MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank))
FTMPI_API(Topo_test, (MPI_Comm comm, int *status))
FTMPI_API(Dist_graph_create, (MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                              const int destinations[], const int weights[], MPI_Info info, int reorder,
                              MPI_Comm *comm_dist_graph))
FTMPI_API(Dist_graph_create_adjacent, (MPI_Comm comm_old, int indegree, const int sources[],
                                       const int sourceweights[], int outdegree, const int destinations[],
                                       const int destweights[], MPI_Info info, int reorder,
                                       MPI_Comm *comm_dist_graph))
FTMPI_API(Dist_graph_neighbors_count, (MPI_Comm comm, int *indegree, int *outdegree, int *weighted))
FTMPI_API(Dist_graph_neighbors, (MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                                 int maxoutdegree, int destinations[], int destweights[]))

/* Large counts (MPI-4 `_c` forms): counts that fit an int are served;
 * larger ones are refused with MPI_ERR_COUNT (one message, collective
 * block, constructor count or pack buffer holds at most INT_MAX). */
FTMPI_API(Send_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_API(Ssend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_API(Bsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_API(Rsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_API(Isend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request))
FTMPI_API(Issend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                     MPI_Request *request))
FTMPI_API(Ibsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                     MPI_Request *request))
FTMPI_API(Irsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                     MPI_Request *request))
FTMPI_API(Send_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                        MPI_Comm comm, MPI_Request *request))
FTMPI_API(Recv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Status *status))
FTMPI_API(Irecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                    MPI_Request *request))
FTMPI_API(Recv_init_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                        MPI_Request *request))
FTMPI_API(Sendrecv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                       MPI_Comm comm, MPI_Status *status))
FTMPI_API(Mrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                    MPI_Status *status))
FTMPI_API(Get_count_c, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))
FTMPI_API(Get_elements_c, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))
FTMPI_API(Bcast_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm))
FTMPI_API(Ibcast_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                     MPI_Request *request))
FTMPI_API(Reduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     int root, MPI_Comm comm))
FTMPI_API(Allreduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm))
FTMPI_API(Iallreduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm, MPI_Request *request))
FTMPI_API(Gather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
FTMPI_API(Scatter_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
FTMPI_API(Allgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Alltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_API(Type_size_c, (MPI_Datatype datatype, MPI_Count *size))
FTMPI_API(Type_get_extent_c, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent))
FTMPI_API(Type_get_true_extent_c, (MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent))
FTMPI_API(Type_contiguous_c, (MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Type_vector_c, (MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                          MPI_Datatype *newtype))
FTMPI_API(Type_create_resized_c, (MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype))
FTMPI_API(Pack_c, (const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                   MPI_Count *position, MPI_Comm comm))
FTMPI_API(Unpack_c, (const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
                     MPI_Datatype datatype, MPI_Comm comm))
FTMPI_API(Pack_size_c, (MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size))

/* Fortran handle conversion (simple integer tables). */
MPI_Fint MPI_Comm_c2f(MPI_Comm comm) FTMPI_NOEXCEPT;
MPI_Comm MPI_Comm_f2c(MPI_Fint comm) FTMPI_NOEXCEPT;
MPI_Fint MPI_Type_c2f(MPI_Datatype datatype) FTMPI_NOEXCEPT;
MPI_Datatype MPI_Type_f2c(MPI_Fint datatype) FTMPI_NOEXCEPT;
MPI_Fint MPI_Group_c2f(MPI_Group group) FTMPI_NOEXCEPT;
MPI_Group MPI_Group_f2c(MPI_Fint group) FTMPI_NOEXCEPT;
MPI_Fint MPI_Op_c2f(MPI_Op op) FTMPI_NOEXCEPT;
MPI_Op MPI_Op_f2c(MPI_Fint op) FTMPI_NOEXCEPT;
MPI_Fint MPI_Request_c2f(MPI_Request request) FTMPI_NOEXCEPT;
MPI_Request MPI_Request_f2c(MPI_Fint request) FTMPI_NOEXCEPT;
MPI_Fint MPI_Errhandler_c2f(MPI_Errhandler errhandler) FTMPI_NOEXCEPT;
MPI_Errhandler MPI_Errhandler_f2c(MPI_Fint errhandler) FTMPI_NOEXCEPT;
MPI_Fint MPI_Info_c2f(MPI_Info info) FTMPI_NOEXCEPT;
MPI_Info MPI_Info_f2c(MPI_Fint info) FTMPI_NOEXCEPT;
MPI_Fint MPI_Message_c2f(MPI_Message message) FTMPI_NOEXCEPT;
MPI_Message MPI_Message_f2c(MPI_Fint message) FTMPI_NOEXCEPT;
MPI_Fint PMPI_Comm_c2f(MPI_Comm comm) FTMPI_NOEXCEPT;
MPI_Comm PMPI_Comm_f2c(MPI_Fint comm) FTMPI_NOEXCEPT;
MPI_Fint PMPI_Type_c2f(MPI_Datatype datatype) FTMPI_NOEXCEPT;
MPI_Datatype PMPI_Type_f2c(MPI_Fint datatype) FTMPI_NOEXCEPT;
MPI_Fint PMPI_Group_c2f(MPI_Group group) FTMPI_NOEXCEPT;
MPI_Group PMPI_Group_f2c(MPI_Fint group) FTMPI_NOEXCEPT;
MPI_Fint PMPI_Op_c2f(MPI_Op op) FTMPI_NOEXCEPT;
MPI_Op PMPI_Op_f2c(MPI_Fint op) FTMPI_NOEXCEPT;
MPI_Fint PMPI_Request_c2f(MPI_Request request) FTMPI_NOEXCEPT;
MPI_Request PMPI_Request_f2c(MPI_Fint request) FTMPI_NOEXCEPT;
MPI_Fint PMPI_Errhandler_c2f(MPI_Errhandler errhandler) FTMPI_NOEXCEPT;
MPI_Errhandler PMPI_Errhandler_f2c(MPI_Fint errhandler) FTMPI_NOEXCEPT;
MPI_Fint PMPI_Info_c2f(MPI_Info info) FTMPI_NOEXCEPT;
MPI_Info PMPI_Info_f2c(MPI_Fint info) FTMPI_NOEXCEPT;
MPI_Fint PMPI_Message_c2f(MPI_Message message) FTMPI_NOEXCEPT;
MPI_Message PMPI_Message_f2c(MPI_Fint message) FTMPI_NOEXCEPT;
FTMPI_API(Status_c2f, (const MPI_Status *c_status, MPI_Fint *f_status))
FTMPI_API(Status_f2c, (const MPI_Fint *f_status, MPI_Status *c_status))

/* ---- MPI-IO (MPI-3.1 chapter 13; ftmpi/src/io/README.md) ------------ */
/* MPI_File and MPI_FILE_NULL are declared with the other handles above. */
#define MPI_MODE_RDONLY           2
#define MPI_MODE_RDWR             8
#define MPI_MODE_WRONLY           4
#define MPI_MODE_CREATE           1
#define MPI_MODE_EXCL             64
#define MPI_MODE_DELETE_ON_CLOSE  16
#define MPI_MODE_UNIQUE_OPEN      32
#define MPI_MODE_SEQUENTIAL       256
#define MPI_MODE_APPEND           128

#define MPI_SEEK_SET              600
#define MPI_SEEK_CUR              602
#define MPI_SEEK_END              604

#define MPI_DISPLACEMENT_CURRENT  ((MPI_Offset)-54278278)

typedef void (MPI_File_errhandler_function)(MPI_File *file, int *error_code, ...);
typedef MPI_File_errhandler_function MPI_File_errhandler_fn;
typedef int (MPI_Datarep_conversion_function)(void *userbuf, MPI_Datatype datatype, int count,
                                               void *filebuf, MPI_Offset position, void *extra_state);
typedef int (MPI_Datarep_extent_function)(MPI_Datatype datatype, MPI_Aint *file_extent, void *extra_state);
#define MPI_CONVERSION_FN_NULL ((MPI_Datarep_conversion_function *)0)

/* Files: open, close, management */
FTMPI_API(File_open, (MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh))
FTMPI_API(File_close, (MPI_File *fh))
FTMPI_API(File_delete, (const char *filename, MPI_Info info))
FTMPI_API(File_set_size, (MPI_File fh, MPI_Offset size))
FTMPI_API(File_preallocate, (MPI_File fh, MPI_Offset size))
FTMPI_API(File_get_size, (MPI_File fh, MPI_Offset *size))
FTMPI_API(File_get_group, (MPI_File fh, MPI_Group *group))
FTMPI_API(File_get_amode, (MPI_File fh, int *amode))
FTMPI_API(File_set_info, (MPI_File fh, MPI_Info info))
FTMPI_API(File_get_info, (MPI_File fh, MPI_Info *info_used))
FTMPI_API(File_sync, (MPI_File fh))
FTMPI_API(File_set_atomicity, (MPI_File fh, int flag))
FTMPI_API(File_get_atomicity, (MPI_File fh, int *flag))
/* Files: error handlers (the default for files is MPI_ERRORS_RETURN; set on
 * MPI_FILE_NULL it changes the default for files opened afterwards) */
FTMPI_API(File_create_errhandler, (MPI_File_errhandler_function *function, MPI_Errhandler *errhandler))
FTMPI_API(File_set_errhandler, (MPI_File file, MPI_Errhandler errhandler))
FTMPI_API(File_get_errhandler, (MPI_File file, MPI_Errhandler *errhandler))
FTMPI_API(File_call_errhandler, (MPI_File fh, int errorcode))
/* Files: views and positions */
FTMPI_API(File_set_view, (MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                          const char *datarep, MPI_Info info))
FTMPI_API(File_get_view, (MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype,
                          char *datarep))
FTMPI_API(File_get_type_extent, (MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent))
FTMPI_API(File_get_byte_offset, (MPI_File fh, MPI_Offset offset, MPI_Offset *disp))
FTMPI_API(File_seek, (MPI_File fh, MPI_Offset offset, int whence))
FTMPI_API(File_get_position, (MPI_File fh, MPI_Offset *offset))
FTMPI_API(File_seek_shared, (MPI_File fh, MPI_Offset offset, int whence))
FTMPI_API(File_get_position_shared, (MPI_File fh, MPI_Offset *offset))
FTMPI_API(Register_datarep, (const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn,
                             MPI_Datarep_conversion_function *write_conversion_fn,
                             MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state))
/* Files: data access (blocking with a status; non-blocking, the i forms, with a request) */
FTMPI_API(File_read, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_write, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_read_at, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_write_at, (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_read_all, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_write_all, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_read_at_all, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_write_at_all, (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_read_shared, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_write_shared, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_iread, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iwrite, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iread_at, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iwrite_at, (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iread_all, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iwrite_all, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iread_at_all, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iwrite_at_all, (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iread_shared, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iwrite_shared, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_read_ordered, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_write_ordered, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                               MPI_Status *status))
/* Split collectives */
FTMPI_API(File_read_all_begin, (MPI_File fh, void *buf, int count, MPI_Datatype datatype))
FTMPI_API(File_read_all_end, (MPI_File fh, void *buf, MPI_Status *status))
FTMPI_API(File_write_all_begin, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype))
FTMPI_API(File_write_all_end, (MPI_File fh, const void *buf, MPI_Status *status))
FTMPI_API(File_read_at_all_begin, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype))
FTMPI_API(File_read_at_all_end, (MPI_File fh, void *buf, MPI_Status *status))
FTMPI_API(File_write_at_all_begin, (MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                    MPI_Datatype datatype))
FTMPI_API(File_write_at_all_end, (MPI_File fh, const void *buf, MPI_Status *status))
FTMPI_API(File_read_ordered_begin, (MPI_File fh, void *buf, int count, MPI_Datatype datatype))
FTMPI_API(File_read_ordered_end, (MPI_File fh, void *buf, MPI_Status *status))
FTMPI_API(File_write_ordered_begin, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype))
FTMPI_API(File_write_ordered_end, (MPI_File fh, const void *buf, MPI_Status *status))
/* ---- end of MPI-IO -------------------------------------------------- */

#ifdef __cplusplus
}
#endif

/* The extensions (MPIX_ names), as MPICH's mpi.h makes them visible. */
#include "mpi-ext.h"

#endif /* FTMPI_MPI_H */
