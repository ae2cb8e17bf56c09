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
#define MPI_VERSION          3
#define MPI_SUBVERSION       1
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
typedef int MPI_Fint;

/* ---- Handles -------------------------------------------------------- */
typedef struct ftmpi_comm_s *MPI_Comm;
typedef struct ftmpi_group_s *MPI_Group;
typedef struct ftmpi_datatype_s *MPI_Datatype;
typedef struct ftmpi_op_s *MPI_Op;
typedef struct ftmpi_request_s *MPI_Request;
typedef struct ftmpi_errhandler_s *MPI_Errhandler;
typedef struct ftmpi_message_s *MPI_Message;
typedef struct ftmpi_info_s *MPI_Info;
typedef struct ftmpi_win_s *MPI_Win;
typedef struct ftmpi_file_s *MPI_File;

/* ---- Status --------------------------------------------------------- */
typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int ftmpi_cancelled; /* private: MPI_Test_cancelled */
    size_t ftmpi_count;  /* private: bytes received */
} MPI_Status;

#define MPI_STATUS_IGNORE     ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE   ((MPI_Status *)0)
#define MPI_F_STATUS_IGNORE   ((MPI_Fint *)0)
#define MPI_F_STATUSES_IGNORE ((MPI_Fint *)0)
#define MPI_F_STATUS_SIZE     6

/* The status of the mpi_f08 module, TYPE(MPI_Status), as C sees it (MPI-4.0
 * §19.3.5): the three public fields, then the rest of MPI_Fint status
 * (MPI_F_STATUS_SIZE in all), in the order of MPI_Status_c2f. */
typedef struct MPI_F08_status {
    MPI_Fint MPI_SOURCE;
    MPI_Fint MPI_TAG;
    MPI_Fint MPI_ERROR;
    MPI_Fint ftmpi_internal[MPI_F_STATUS_SIZE - 3];
} MPI_F08_status;
#define MPI_F08_STATUS_IGNORE   ((MPI_F08_status *)0)
#define MPI_F08_STATUSES_IGNORE ((MPI_F08_status *)0)

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

/* ---- Predefined objects ----------------------------------------------
 * Each is storage of a fixed size (ftmpi_predefined_*_u) that holds the
 * object. A program keeps its own copy of every predefined object it names,
 * made at start by the dynamic linker and as large as the storage was when
 * the program was linked; the size stays the same across versions of the
 * library, so a program built against this one still runs against a later
 * libftmpi whose objects have grown. */
extern union ftmpi_predefined_comm_u ftmpi_comm_world, ftmpi_comm_self;
extern union ftmpi_predefined_group_u ftmpi_group_empty;
extern union ftmpi_predefined_errhandler_u ftmpi_errhandler_fatal, ftmpi_errhandler_return;
extern union ftmpi_predefined_info_u ftmpi_info_env;
extern union ftmpi_predefined_message_u ftmpi_message_no_proc;

#define MPI_COMM_WORLD       ((MPI_Comm)&ftmpi_comm_world)
#define MPI_COMM_SELF        ((MPI_Comm)&ftmpi_comm_self)
#define MPI_GROUP_EMPTY      ((MPI_Group)&ftmpi_group_empty)
#define MPI_ERRORS_ARE_FATAL ((MPI_Errhandler)&ftmpi_errhandler_fatal)
#define MPI_ERRORS_RETURN    ((MPI_Errhandler)&ftmpi_errhandler_return)
#define MPI_INFO_ENV         ((MPI_Info)&ftmpi_info_env)
#define MPI_MESSAGE_NO_PROC  ((MPI_Message)&ftmpi_message_no_proc)

/* Datatypes. Synonyms share one object: MPI_LONG_LONG is MPI_LONG_LONG_INT,
 * MPI_C_COMPLEX is MPI_C_FLOAT_COMPLEX. */
extern union ftmpi_predefined_datatype_u ftmpi_dt_char, ftmpi_dt_signed_char, ftmpi_dt_unsigned_char, ftmpi_dt_byte,
    ftmpi_dt_wchar, ftmpi_dt_short, ftmpi_dt_unsigned_short, ftmpi_dt_int, ftmpi_dt_unsigned, ftmpi_dt_long,
    ftmpi_dt_unsigned_long, ftmpi_dt_long_long_int, ftmpi_dt_unsigned_long_long, ftmpi_dt_float, ftmpi_dt_double,
    ftmpi_dt_long_double, ftmpi_dt_packed, ftmpi_dt_c_bool, ftmpi_dt_int8_t, ftmpi_dt_int16_t, ftmpi_dt_int32_t,
    ftmpi_dt_int64_t, ftmpi_dt_uint8_t, ftmpi_dt_uint16_t, ftmpi_dt_uint32_t, ftmpi_dt_uint64_t, ftmpi_dt_aint,
    ftmpi_dt_offset, ftmpi_dt_count, ftmpi_dt_c_float_complex, ftmpi_dt_c_double_complex,
    ftmpi_dt_c_long_double_complex, ftmpi_dt_float_int, ftmpi_dt_double_int, ftmpi_dt_long_int, ftmpi_dt_2int,
    ftmpi_dt_short_int, ftmpi_dt_long_double_int;

#define MPI_CHAR                  ((MPI_Datatype)&ftmpi_dt_char)
#define MPI_SIGNED_CHAR           ((MPI_Datatype)&ftmpi_dt_signed_char)
#define MPI_UNSIGNED_CHAR         ((MPI_Datatype)&ftmpi_dt_unsigned_char)
#define MPI_BYTE                  ((MPI_Datatype)&ftmpi_dt_byte)
#define MPI_WCHAR                 ((MPI_Datatype)&ftmpi_dt_wchar)
#define MPI_SHORT                 ((MPI_Datatype)&ftmpi_dt_short)
#define MPI_UNSIGNED_SHORT        ((MPI_Datatype)&ftmpi_dt_unsigned_short)
#define MPI_INT                   ((MPI_Datatype)&ftmpi_dt_int)
#define MPI_UNSIGNED              ((MPI_Datatype)&ftmpi_dt_unsigned)
#define MPI_LONG                  ((MPI_Datatype)&ftmpi_dt_long)
#define MPI_UNSIGNED_LONG         ((MPI_Datatype)&ftmpi_dt_unsigned_long)
#define MPI_LONG_LONG_INT         ((MPI_Datatype)&ftmpi_dt_long_long_int)
#define MPI_LONG_LONG             MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG    ((MPI_Datatype)&ftmpi_dt_unsigned_long_long)
#define MPI_FLOAT                 ((MPI_Datatype)&ftmpi_dt_float)
#define MPI_DOUBLE                ((MPI_Datatype)&ftmpi_dt_double)
#define MPI_LONG_DOUBLE           ((MPI_Datatype)&ftmpi_dt_long_double)
#define MPI_PACKED                ((MPI_Datatype)&ftmpi_dt_packed)
#define MPI_C_BOOL                ((MPI_Datatype)&ftmpi_dt_c_bool)
#define MPI_INT8_T                ((MPI_Datatype)&ftmpi_dt_int8_t)
#define MPI_INT16_T               ((MPI_Datatype)&ftmpi_dt_int16_t)
#define MPI_INT32_T               ((MPI_Datatype)&ftmpi_dt_int32_t)
#define MPI_INT64_T               ((MPI_Datatype)&ftmpi_dt_int64_t)
#define MPI_UINT8_T               ((MPI_Datatype)&ftmpi_dt_uint8_t)
#define MPI_UINT16_T              ((MPI_Datatype)&ftmpi_dt_uint16_t)
#define MPI_UINT32_T              ((MPI_Datatype)&ftmpi_dt_uint32_t)
#define MPI_UINT64_T              ((MPI_Datatype)&ftmpi_dt_uint64_t)
#define MPI_AINT                  ((MPI_Datatype)&ftmpi_dt_aint)
#define MPI_OFFSET                ((MPI_Datatype)&ftmpi_dt_offset)
#define MPI_COUNT                 ((MPI_Datatype)&ftmpi_dt_count)
#define MPI_C_FLOAT_COMPLEX       ((MPI_Datatype)&ftmpi_dt_c_float_complex)
#define MPI_C_COMPLEX             MPI_C_FLOAT_COMPLEX
#define MPI_C_DOUBLE_COMPLEX      ((MPI_Datatype)&ftmpi_dt_c_double_complex)
#define MPI_C_LONG_DOUBLE_COMPLEX ((MPI_Datatype)&ftmpi_dt_c_long_double_complex)
#define MPI_FLOAT_INT             ((MPI_Datatype)&ftmpi_dt_float_int)
#define MPI_DOUBLE_INT            ((MPI_Datatype)&ftmpi_dt_double_int)
#define MPI_LONG_INT              ((MPI_Datatype)&ftmpi_dt_long_int)
#define MPI_2INT                  ((MPI_Datatype)&ftmpi_dt_2int)
#define MPI_SHORT_INT             ((MPI_Datatype)&ftmpi_dt_short_int)
#define MPI_LONG_DOUBLE_INT       ((MPI_Datatype)&ftmpi_dt_long_double_int)

/* C++ types (the same layout as C's bool and _Complex types). */
extern union ftmpi_predefined_datatype_u ftmpi_dt_cxx_bool, ftmpi_dt_cxx_float_complex, ftmpi_dt_cxx_double_complex,
    ftmpi_dt_cxx_long_double_complex;
#define MPI_CXX_BOOL                ((MPI_Datatype)&ftmpi_dt_cxx_bool)
#define MPI_CXX_FLOAT_COMPLEX       ((MPI_Datatype)&ftmpi_dt_cxx_float_complex)
#define MPI_CXX_DOUBLE_COMPLEX      ((MPI_Datatype)&ftmpi_dt_cxx_double_complex)
#define MPI_CXX_LONG_DOUBLE_COMPLEX ((MPI_Datatype)&ftmpi_dt_cxx_long_double_complex)

/* Fortran types, usable from C (gfortran's sizes: default INTEGER, REAL
 * and LOGICAL are 4 bytes). The predefined ops take them as the standard
 * allows, except REAL2, REAL16, COMPLEX32 and INTEGER16, which move data
 * but have no predefined op here. */
extern union ftmpi_predefined_datatype_u ftmpi_dt_integer, ftmpi_dt_real, ftmpi_dt_double_precision, ftmpi_dt_complex,
    ftmpi_dt_double_complex, ftmpi_dt_logical, ftmpi_dt_character, ftmpi_dt_2integer, ftmpi_dt_2real,
    ftmpi_dt_2double_precision, ftmpi_dt_integer1, ftmpi_dt_integer2, ftmpi_dt_integer4, ftmpi_dt_integer8,
    ftmpi_dt_integer16, ftmpi_dt_real2, ftmpi_dt_real4, ftmpi_dt_real8, ftmpi_dt_real16, ftmpi_dt_complex8,
    ftmpi_dt_complex16, ftmpi_dt_complex32;
#define MPI_INTEGER           ((MPI_Datatype)&ftmpi_dt_integer)
#define MPI_REAL              ((MPI_Datatype)&ftmpi_dt_real)
#define MPI_DOUBLE_PRECISION  ((MPI_Datatype)&ftmpi_dt_double_precision)
#define MPI_COMPLEX           ((MPI_Datatype)&ftmpi_dt_complex)
#define MPI_DOUBLE_COMPLEX    ((MPI_Datatype)&ftmpi_dt_double_complex)
#define MPI_LOGICAL           ((MPI_Datatype)&ftmpi_dt_logical)
#define MPI_CHARACTER         ((MPI_Datatype)&ftmpi_dt_character)
#define MPI_2INTEGER          ((MPI_Datatype)&ftmpi_dt_2integer)
#define MPI_2REAL             ((MPI_Datatype)&ftmpi_dt_2real)
#define MPI_2DOUBLE_PRECISION ((MPI_Datatype)&ftmpi_dt_2double_precision)
#define MPI_INTEGER1          ((MPI_Datatype)&ftmpi_dt_integer1)
#define MPI_INTEGER2          ((MPI_Datatype)&ftmpi_dt_integer2)
#define MPI_INTEGER4          ((MPI_Datatype)&ftmpi_dt_integer4)
#define MPI_INTEGER8          ((MPI_Datatype)&ftmpi_dt_integer8)
#define MPI_INTEGER16         ((MPI_Datatype)&ftmpi_dt_integer16)
#define MPI_REAL2             ((MPI_Datatype)&ftmpi_dt_real2)
#define MPI_REAL4             ((MPI_Datatype)&ftmpi_dt_real4)
#define MPI_REAL8             ((MPI_Datatype)&ftmpi_dt_real8)
#define MPI_REAL16            ((MPI_Datatype)&ftmpi_dt_real16)
#define MPI_COMPLEX8          ((MPI_Datatype)&ftmpi_dt_complex8)
#define MPI_COMPLEX16         ((MPI_Datatype)&ftmpi_dt_complex16)
#define MPI_COMPLEX32         ((MPI_Datatype)&ftmpi_dt_complex32)

/* MPI-1's bound markers (removed in MPI-3.0, still shipped by MPICH): in
 * MPI_Type_struct / MPI_Type_create_struct they set the new type's lower
 * (upper) bound where they are placed; they carry no data. */
extern union ftmpi_predefined_datatype_u ftmpi_dt_lb, ftmpi_dt_ub;
#define MPI_LB ((MPI_Datatype)&ftmpi_dt_lb)
#define MPI_UB ((MPI_Datatype)&ftmpi_dt_ub)

/* Reduction operations. */
extern union ftmpi_predefined_op_u ftmpi_op_max, ftmpi_op_min, ftmpi_op_sum, ftmpi_op_prod, ftmpi_op_land,
    ftmpi_op_band, ftmpi_op_lor, ftmpi_op_bor, ftmpi_op_lxor, ftmpi_op_bxor, ftmpi_op_maxloc, ftmpi_op_minloc,
    ftmpi_op_replace, ftmpi_op_no_op;

#define MPI_MAX     ((MPI_Op)&ftmpi_op_max)
#define MPI_MIN     ((MPI_Op)&ftmpi_op_min)
#define MPI_SUM     ((MPI_Op)&ftmpi_op_sum)
#define MPI_PROD    ((MPI_Op)&ftmpi_op_prod)
#define MPI_LAND    ((MPI_Op)&ftmpi_op_land)
#define MPI_BAND    ((MPI_Op)&ftmpi_op_band)
#define MPI_LOR     ((MPI_Op)&ftmpi_op_lor)
#define MPI_BOR     ((MPI_Op)&ftmpi_op_bor)
#define MPI_LXOR    ((MPI_Op)&ftmpi_op_lxor)
#define MPI_BXOR    ((MPI_Op)&ftmpi_op_bxor)
#define MPI_MAXLOC  ((MPI_Op)&ftmpi_op_maxloc)
#define MPI_MINLOC  ((MPI_Op)&ftmpi_op_minloc)
#define MPI_REPLACE ((MPI_Op)&ftmpi_op_replace)
#define MPI_NO_OP   ((MPI_Op)&ftmpi_op_no_op)

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
/* 58..63 are the MPIX_ classes of mpi-ext.h, 64..81 the MPI_T_ERR_ classes
 * of ftmpi/mpi_t.h, 82 MPI_ERR_SESSION (ftmpi/mpi_session.h); codes added at run time by MPI_Add_error_class/code are
 * above MPI_ERR_LASTCODE. */
#define MPI_ERR_LASTCODE 127

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
#define MPI_MAX_STRINGTAG_LEN          256 /* MPI_Comm_create_from_group (MPI-4) */
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
#define MPI_COMBINER_NAMED            1
#define MPI_COMBINER_DUP              2
#define MPI_COMBINER_CONTIGUOUS       3
#define MPI_COMBINER_VECTOR           4
#define MPI_COMBINER_HVECTOR_INTEGER  5
#define MPI_COMBINER_HVECTOR          6
#define MPI_COMBINER_INDEXED          7
#define MPI_COMBINER_HINDEXED_INTEGER 8
#define MPI_COMBINER_HINDEXED         9
#define MPI_COMBINER_INDEXED_BLOCK    10
#define MPI_COMBINER_HINDEXED_BLOCK   11
#define MPI_COMBINER_STRUCT_INTEGER   12
#define MPI_COMBINER_STRUCT           13
#define MPI_COMBINER_SUBARRAY         14
#define MPI_COMBINER_DARRAY           15
#define MPI_COMBINER_F90_REAL         16
#define MPI_COMBINER_F90_COMPLEX      17
#define MPI_COMBINER_F90_INTEGER      18
#define MPI_COMBINER_RESIZED          19

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
typedef void(MPI_User_function)(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);
typedef void(MPI_User_function_c)(void *invec, void *inoutvec, MPI_Count *len, MPI_Datatype *datatype);
typedef int(MPI_Comm_copy_attr_function)(MPI_Comm oldcomm, int comm_keyval, void *extra_state, void *attribute_val_in,
                                         void *attribute_val_out, int *flag);
typedef int(MPI_Comm_delete_attr_function)(MPI_Comm comm, int comm_keyval, void *attribute_val, void *extra_state);
typedef int(MPI_Type_copy_attr_function)(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                                         void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int(MPI_Type_delete_attr_function)(MPI_Datatype datatype, int type_keyval, void *attribute_val,
                                           void *extra_state);
typedef void(MPI_Comm_errhandler_function)(MPI_Comm *comm, int *error_code, ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef void(MPI_Handler_function)(MPI_Comm *comm, int *error_code, ...); /* MPI-1 */
/* Generalized requests (MPI_Grequest_start). */
typedef int(MPI_Grequest_query_function)(void *extra_state, MPI_Status *status);
typedef int(MPI_Grequest_free_function)(void *extra_state);
typedef int(MPI_Grequest_cancel_function)(void *extra_state, int complete);
typedef int(MPI_Copy_function)(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                               void *attribute_val_out, int *flag);
typedef int(MPI_Delete_function)(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state);

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
#define FTMPI_API(name, params)                                                                                        \
    int MPI_##name params FTMPI_NOEXCEPT;                                                                              \
    int PMPI_##name params FTMPI_NOEXCEPT;

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
/* MPI-4.1: an info object on the hardware this process runs on, with the
 * keys ftmpi_online_cpus, ftmpi_usable_cpus (its affinity mask) and
 * ftmpi_page_size (bytes); one that cannot be read is left out. */
FTMPI_API(Get_hw_resource_info, (MPI_Info * hw_info))
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
/* MPI-4.1: undo the three above (a class with codes still in it, and the
 * predefined classes and codes, cannot be removed: MPI_ERR_ARG). */
FTMPI_API(Remove_error_class, (int errorclass))
FTMPI_API(Remove_error_code, (int errorcode))
FTMPI_API(Remove_error_string, (int errorcode))
FTMPI_API(Comm_create_errhandler, (MPI_Comm_errhandler_function * function, MPI_Errhandler *errhandler))
FTMPI_API(Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler))
FTMPI_API(Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler *errhandler))
FTMPI_API(Comm_call_errhandler, (MPI_Comm comm, int errorcode))
FTMPI_API(Errhandler_free, (MPI_Errhandler * errhandler))
/* MPI-1 names (removed in MPI-3.0; MPICH still ships them). */
FTMPI_API(Errhandler_create, (MPI_Handler_function * function, MPI_Errhandler *errhandler))
FTMPI_API(Errhandler_set, (MPI_Comm comm, MPI_Errhandler errhandler))
FTMPI_API(Errhandler_get, (MPI_Comm comm, MPI_Errhandler *errhandler))

/* Profiling: does nothing unless a profiling library replaces it. */
int MPI_Pcontrol(const int level, ...) FTMPI_NOEXCEPT;
int PMPI_Pcontrol(const int level, ...) FTMPI_NOEXCEPT;

/* Info */
FTMPI_API(Info_create, (MPI_Info * info))
FTMPI_API(Info_set, (MPI_Info info, const char *key, const char *value))
FTMPI_API(Info_get, (MPI_Info info, const char *key, int valuelen, char *value, int *flag))
FTMPI_API(Info_get_valuelen, (MPI_Info info, const char *key, int *valuelen, int *flag))
FTMPI_API(Info_get_nkeys, (MPI_Info info, int *nkeys))
FTMPI_API(Info_get_nthkey, (MPI_Info info, int n, char *key))
FTMPI_API(Info_delete, (MPI_Info info, const char *key))
FTMPI_API(Info_dup, (MPI_Info info, MPI_Info *newinfo))
FTMPI_API(Info_free, (MPI_Info * info))
FTMPI_API(Info_get_string, (MPI_Info info, const char *key, int *buflen, char *value, int *flag))
FTMPI_API(Info_create_env, (int argc, char *argv[], MPI_Info *info))

#include "ftmpi/mpi_datatype.h" /* Datatypes: constructors, queries, pack/unpack, and the MPI-1 names removed in MPI-3.0. */
#include "ftmpi/mpi_p2p.h"      /* Point-to-point and requests. */
/* Reduction operations */
FTMPI_API(Op_create, (MPI_User_function * user_fn, int commute, MPI_Op *op))
FTMPI_API(Op_free, (MPI_Op * op))
FTMPI_API(Op_commutative, (MPI_Op op, int *commute))
FTMPI_API(Reduce_local, (const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op))

#include "ftmpi/mpi_coll.h"        /* Collectives: blocking, non-blocking, persistent (MPI-4) and neighbourhood. */
#include "ftmpi/mpi_comm.h"        /* Groups, communicators, attributes and topologies. */
#include "ftmpi/mpi_large_count.h" /* The MPI-4 large-count (`_c`) forms. */
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
MPI_Fint MPI_File_c2f(MPI_File file) FTMPI_NOEXCEPT;
MPI_File MPI_File_f2c(MPI_Fint file) FTMPI_NOEXCEPT;
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
MPI_Fint PMPI_File_c2f(MPI_File file) FTMPI_NOEXCEPT;
MPI_File PMPI_File_f2c(MPI_Fint file) FTMPI_NOEXCEPT;
FTMPI_API(Status_c2f, (const MPI_Status *c_status, MPI_Fint *f_status))
FTMPI_API(Status_f2c, (const MPI_Fint *f_status, MPI_Status *c_status))
FTMPI_API(Status_c2f08, (const MPI_Status *c_status, MPI_F08_status *f08_status))
FTMPI_API(Status_f082c, (const MPI_F08_status *f08_status, MPI_Status *c_status))
FTMPI_API(Status_f082f, (const MPI_F08_status *f08_status, MPI_Fint *f_status))
FTMPI_API(Status_f2f08, (const MPI_Fint *f_status, MPI_F08_status *f08_status))
#include "ftmpi/mpi_dynamic.h" /* Process creation: MPI_Comm_spawn(_multiple), get_parent, disconnect (chapter 10). */
#include "ftmpi/mpi_io.h"      /* MPI-IO: files, views, data access, MPIX_File_revoke (MPI-3.1 chapter 13). */
#include "ftmpi/mpi_rma.h"     /* One-sided communication: windows, Put/Get/Accumulate, synchronisation (chapter 11). */
#include "ftmpi/mpi_session.h" /* MPI-4 sessions: process sets, groups from them (chapter 11.3). */
#include "ftmpi/mpi_t.h"       /* The tool information interface MPI_T (MPI-3.1 chapter 14.3). */

#ifdef __cplusplus
}
#endif

/* The extensions (MPIX_ names), as MPICH's mpi.h makes them visible. */
#include "mpi-ext.h"

#endif /* FTMPI_MPI_H */
