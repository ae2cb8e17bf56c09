/* ftmpi/mpi_t.h — part of mpi.h: the MPI tool information interface (MPI_T,
 * MPI-3.1 chapter 14.3, MPI-4.0 chapter 15.3).
 * Include <mpi.h>, not this file: it uses mpi.h's types and FTMPI_API, and
 * mpi.h includes it inside its extern "C" block.
 *
 * Control variables are libftmpi's settings (the FTMPI_* environment
 * variables ftmpi_info lists); performance variables are a few counters of
 * the point-to-point engine and the failure detector; there are no events
 * and no event sources (the MPI-4 event calls answer for zero of them). The
 * constants are named as MPICH names them. MPI_T calls return their error
 * codes and never call an error handler. */
#ifndef FTMPI_MPI_T_H
#define FTMPI_MPI_T_H
#ifndef FTMPI_MPI_H
#error "include <mpi.h> instead of ftmpi/mpi_t.h"
#endif

/* ---- Handles -------------------------------------------------------- */
typedef struct ftmpi_t_enum_s *MPI_T_enum;
typedef struct ftmpi_t_cvar_handle_s *MPI_T_cvar_handle;
typedef struct ftmpi_t_pvar_handle_s *MPI_T_pvar_handle;
typedef struct ftmpi_t_pvar_session_s *MPI_T_pvar_session;
typedef struct ftmpi_t_event_registration_s *MPI_T_event_registration;
typedef struct ftmpi_t_event_instance_s *MPI_T_event_instance;

#define MPI_T_ENUM_NULL         ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL  ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_HANDLE_NULL  ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_SESSION_NULL ((MPI_T_pvar_session)0)
/* Start, stop and reset: every handle of the session. */
#define MPI_T_PVAR_ALL_HANDLES ((MPI_T_pvar_handle)1)

/* ---- Constants (in the order the standard lists them) ---------------- */
enum MPIR_T_verbosity_t {
    MPI_T_VERBOSITY_INVALID = 0,
    MPI_T_VERBOSITY_USER_BASIC = 221,
    MPI_T_VERBOSITY_USER_DETAIL,
    MPI_T_VERBOSITY_USER_ALL,
    MPI_T_VERBOSITY_TUNER_BASIC,
    MPI_T_VERBOSITY_TUNER_DETAIL,
    MPI_T_VERBOSITY_TUNER_ALL,
    MPI_T_VERBOSITY_MPIDEV_BASIC,
    MPI_T_VERBOSITY_MPIDEV_DETAIL,
    MPI_T_VERBOSITY_MPIDEV_ALL
};

enum MPIR_T_bind_t {
    MPI_T_BIND_INVALID = 0,
    MPI_T_BIND_NO_OBJECT = 9700,
    MPI_T_BIND_MPI_COMM,
    MPI_T_BIND_MPI_DATATYPE,
    MPI_T_BIND_MPI_ERRHANDLER,
    MPI_T_BIND_MPI_FILE,
    MPI_T_BIND_MPI_GROUP,
    MPI_T_BIND_MPI_OP,
    MPI_T_BIND_MPI_REQUEST,
    MPI_T_BIND_MPI_WIN,
    MPI_T_BIND_MPI_MESSAGE,
    MPI_T_BIND_MPI_INFO,
    MPI_T_BIND_MPI_SESSION
};

enum MPIR_T_scope_t {
    MPI_T_SCOPE_INVALID = 0,
    MPI_T_SCOPE_CONSTANT = 60438,
    MPI_T_SCOPE_READONLY,
    MPI_T_SCOPE_LOCAL,
    MPI_T_SCOPE_GROUP,
    MPI_T_SCOPE_GROUP_EQ,
    MPI_T_SCOPE_ALL,
    MPI_T_SCOPE_ALL_EQ
};

enum MPIR_T_pvar_class_t {
    MPI_T_PVAR_CLASS_INVALID = 0,
    MPI_T_PVAR_CLASS_STATE = 240,
    MPI_T_PVAR_CLASS_LEVEL,
    MPI_T_PVAR_CLASS_SIZE,
    MPI_T_PVAR_CLASS_PERCENTAGE,
    MPI_T_PVAR_CLASS_HIGHWATERMARK,
    MPI_T_PVAR_CLASS_LOWWATERMARK,
    MPI_T_PVAR_CLASS_COUNTER,
    MPI_T_PVAR_CLASS_AGGREGATE,
    MPI_T_PVAR_CLASS_TIMER,
    MPI_T_PVAR_CLASS_GENERIC
};

typedef enum MPI_T_cb_safety {
    MPI_T_CB_REQUIRE_NONE = 0,
    MPI_T_CB_REQUIRE_MPI_RESTRICTED,
    MPI_T_CB_REQUIRE_THREAD_SAFE,
    MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE
} MPI_T_cb_safety;

typedef enum MPI_T_source_order { MPI_T_SOURCE_ORDERED = 0, MPI_T_SOURCE_UNORDERED } MPI_T_source_order;

typedef void(MPI_T_event_cb_function)(MPI_T_event_instance event_instance, MPI_T_event_registration event_registration,
                                      MPI_T_cb_safety cb_safety, void *user_data);
typedef void(MPI_T_event_free_cb_function)(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                           void *user_data);
typedef void(MPI_T_event_dropped_cb_function)(MPI_Count count, MPI_T_event_registration event_registration,
                                              int source_index, MPI_T_cb_safety cb_safety, void *user_data);

/* ---- Error classes (above the MPIX_ ones of mpi-ext.h, below
 * MPI_ERR_LASTCODE; MPI_Error_string names them) ---------------------- */
#define MPI_T_ERR_MEMORY            64 /* out of memory */
#define MPI_T_ERR_NOT_INITIALIZED   65 /* MPI_T_init_thread was not called (or finalized as often) */
#define MPI_T_ERR_CANNOT_INIT       66 /* the interface cannot be initialized now */
#define MPI_T_ERR_INVALID_INDEX     67 /* an index out of range, or not valid any more */
#define MPI_T_ERR_INVALID_ITEM      68 /* an enumeration item out of range (MPI-4: INVALID_INDEX instead) */
#define MPI_T_ERR_INVALID_HANDLE    69 /* a handle that is not valid */
#define MPI_T_ERR_OUT_OF_HANDLES    70 /* no more handles */
#define MPI_T_ERR_OUT_OF_SESSIONS   71 /* no more sessions */
#define MPI_T_ERR_INVALID_SESSION   72 /* a session that is not valid */
#define MPI_T_ERR_CVAR_SET_NOT_NOW  73 /* the control variable cannot be set now */
#define MPI_T_ERR_CVAR_SET_NEVER    74 /* the control variable cannot be set any more */
#define MPI_T_ERR_PVAR_NO_STARTSTOP 75 /* the performance variable cannot be started or stopped */
#define MPI_T_ERR_PVAR_NO_WRITE     76 /* the performance variable cannot be written or reset */
#define MPI_T_ERR_PVAR_NO_ATOMIC    77 /* the performance variable cannot be read and reset atomically */
#define MPI_T_ERR_INVALID_NAME      78 /* no variable or category of that name */
#define MPI_T_ERR_INVALID           79 /* an invalid use of the interface or an invalid argument */
#define MPI_T_ERR_NOT_ACCESSIBLE    80 /* the variable cannot be accessed (MPI-4) */
#define MPI_T_ERR_NOT_SUPPORTED     81 /* the functionality is not supported (MPI-4) */

/* ---- Setup and teardown (nesting: finalize as often as initialized) --- */
FTMPI_API(T_init_thread, (int required, int *provided))
FTMPI_API(T_finalize, (void))

/* ---- Enumerations --------------------------------------------------- */
FTMPI_API(T_enum_get_info, (MPI_T_enum enumtype, int *num, char *name, int *name_len))
FTMPI_API(T_enum_get_item, (MPI_T_enum enumtype, int indx, int *value, char *name, int *name_len))

/* ---- Control variables ---------------------------------------------- */
FTMPI_API(T_cvar_get_num, (int *num_cvar))
FTMPI_API(T_cvar_get_info,
          (int cvar_index, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype, MPI_T_enum *enumtype,
           char *desc, int *desc_len, int *bind, int *scope))
FTMPI_API(T_cvar_get_index, (const char *name, int *cvar_index))
FTMPI_API(T_cvar_handle_alloc, (int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle, int *count))
FTMPI_API(T_cvar_handle_free, (MPI_T_cvar_handle * handle))
FTMPI_API(T_cvar_read, (MPI_T_cvar_handle handle, void *buf))
FTMPI_API(T_cvar_write, (MPI_T_cvar_handle handle, const void *buf))

/* ---- Performance variables ------------------------------------------ */
FTMPI_API(T_pvar_get_num, (int *num_pvar))
FTMPI_API(T_pvar_get_info,
          (int pvar_index, char *name, int *name_len, int *verbosity, int *var_class, MPI_Datatype *datatype,
           MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *readonly, int *continuous, int *atomic))
FTMPI_API(T_pvar_get_index, (const char *name, int var_class, int *pvar_index))
FTMPI_API(T_pvar_session_create, (MPI_T_pvar_session * session))
FTMPI_API(T_pvar_session_free, (MPI_T_pvar_session * session))
FTMPI_API(T_pvar_handle_alloc,
          (MPI_T_pvar_session session, int pvar_index, void *obj_handle, MPI_T_pvar_handle *handle, int *count))
FTMPI_API(T_pvar_handle_free, (MPI_T_pvar_session session, MPI_T_pvar_handle *handle))
FTMPI_API(T_pvar_start, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
FTMPI_API(T_pvar_stop, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
FTMPI_API(T_pvar_read, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf))
FTMPI_API(T_pvar_write, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf))
FTMPI_API(T_pvar_reset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
FTMPI_API(T_pvar_readreset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf))

/* ---- Categories ----------------------------------------------------- */
FTMPI_API(T_category_get_num, (int *num_cat))
FTMPI_API(T_category_get_info,
          (int cat_index, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars, int *num_pvars,
           int *num_categories))
FTMPI_API(T_category_get_index, (const char *name, int *cat_index))
FTMPI_API(T_category_get_cvars, (int cat_index, int len, int indices[]))
FTMPI_API(T_category_get_pvars, (int cat_index, int len, int indices[]))
FTMPI_API(T_category_get_categories, (int cat_index, int len, int indices[]))
FTMPI_API(T_category_changed, (int *update_number))
FTMPI_API(T_category_get_num_events, (int cat_index, int *num_events))
FTMPI_API(T_category_get_events, (int cat_index, int len, int indices[]))

/* ---- Events and event sources (MPI-4): libftmpi has none ------------ */
FTMPI_API(T_source_get_num, (int *num_sources))
FTMPI_API(T_source_get_info,
          (int source_index, char *name, int *name_len, char *desc, int *desc_len, MPI_T_source_order *ordering,
           MPI_Count *ticks_per_second, MPI_Count *max_ticks, MPI_Info *info))
FTMPI_API(T_source_get_timestamp, (int source_index, MPI_Count *timestamp))
FTMPI_API(T_event_get_num, (int *num_events))
FTMPI_API(T_event_get_info,
          (int event_index, char *name, int *name_len, int *verbosity, MPI_Datatype array_of_datatypes[],
           MPI_Aint array_of_displacements[], int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc,
           int *desc_len, int *bind))
FTMPI_API(T_event_get_index, (const char *name, int *event_index))
FTMPI_API(T_event_handle_alloc,
          (int event_index, void *obj_handle, MPI_Info info, MPI_T_event_registration *event_registration))
FTMPI_API(T_event_handle_set_info, (MPI_T_event_registration event_registration, MPI_Info info))
FTMPI_API(T_event_handle_get_info, (MPI_T_event_registration event_registration, MPI_Info *info_used))
FTMPI_API(T_event_register_callback,
          (MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
           MPI_T_event_cb_function event_cb_function))
FTMPI_API(T_event_callback_set_info,
          (MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info info))
FTMPI_API(T_event_callback_get_info,
          (MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info *info_used))
FTMPI_API(T_event_handle_free,
          (MPI_T_event_registration event_registration, void *user_data, MPI_T_event_free_cb_function free_cb_function))
FTMPI_API(T_event_set_dropped_handler,
          (MPI_T_event_registration event_registration, MPI_T_event_dropped_cb_function dropped_cb_function))
FTMPI_API(T_event_read, (MPI_T_event_instance event_instance, int element_index, void *buffer))
FTMPI_API(T_event_copy, (MPI_T_event_instance event_instance, void *buffer))
FTMPI_API(T_event_get_timestamp, (MPI_T_event_instance event_instance, MPI_Count *event_timestamp))
FTMPI_API(T_event_get_source, (MPI_T_event_instance event_instance, int *source_index))

#endif /* FTMPI_MPI_T_H */
