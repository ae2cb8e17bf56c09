/* ftmpi/mpi_io.h — part of mpi.h: MPI-IO: files, views, data access, MPIX_File_revoke (MPI-3.1 chapter 13).
 * Include <mpi.h>, not this file: it uses mpi.h's types and FTMPI_API, and
 * mpi.h includes it inside its extern "C" block. */
#ifndef FTMPI_MPI_IO_H
#define FTMPI_MPI_IO_H
#ifndef FTMPI_MPI_H
#error "include <mpi.h> instead of ftmpi/mpi_io.h"
#endif

/* ---- MPI-IO (MPI-3.1 chapter 13; ftmpi/src/io/README.md) ------------ */
/* MPI_File and MPI_FILE_NULL are declared with the other handles above. */
#define MPI_MODE_RDONLY          2
#define MPI_MODE_RDWR            8
#define MPI_MODE_WRONLY          4
#define MPI_MODE_CREATE          1
#define MPI_MODE_EXCL            64
#define MPI_MODE_DELETE_ON_CLOSE 16
#define MPI_MODE_UNIQUE_OPEN     32
#define MPI_MODE_SEQUENTIAL      256
#define MPI_MODE_APPEND          128

#define MPI_SEEK_SET 600
#define MPI_SEEK_CUR 602
#define MPI_SEEK_END 604

#define MPI_DISPLACEMENT_CURRENT ((MPI_Offset)-54278278)

typedef void(MPI_File_errhandler_function)(MPI_File *file, int *error_code, ...);
typedef MPI_File_errhandler_function MPI_File_errhandler_fn;
typedef int(MPI_Datarep_conversion_function)(void *userbuf, MPI_Datatype datatype, int count, void *filebuf,
                                             MPI_Offset position, void *extra_state);
typedef int(MPI_Datarep_extent_function)(MPI_Datatype datatype, MPI_Aint *file_extent, void *extra_state);
typedef int(MPI_Datarep_conversion_function_c)(void *userbuf, MPI_Datatype datatype, MPI_Count count, void *filebuf,
                                               MPI_Offset position, void *extra_state);
/* The predefined conversion functions of MPI_Register_datarep (MPI-4.0
 * §14.5.3): "no conversion". They convert nothing and return MPI_SUCCESS;
 * MPI_Register_datarep takes them (or a null pointer) as the absence of a
 * conversion function. */
int MPI_CONVERSION_FN_NULL(void *userbuf, MPI_Datatype datatype, int count, void *filebuf, MPI_Offset position,
                           void *extra_state) FTMPI_NOEXCEPT;
int MPI_CONVERSION_FN_NULL_C(void *userbuf, MPI_Datatype datatype, MPI_Count count, void *filebuf, MPI_Offset position,
                             void *extra_state) FTMPI_NOEXCEPT;

/* Files: open, close, management */
FTMPI_API(File_open, (MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh))
FTMPI_API(File_close, (MPI_File * fh))
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
FTMPI_API(File_create_errhandler, (MPI_File_errhandler_function * function, MPI_Errhandler *errhandler))
FTMPI_API(File_set_errhandler, (MPI_File file, MPI_Errhandler errhandler))
FTMPI_API(File_get_errhandler, (MPI_File file, MPI_Errhandler *errhandler))
FTMPI_API(File_call_errhandler, (MPI_File fh, int errorcode))
/* Files: views and positions */
FTMPI_API(File_set_view,
          (MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char *datarep, MPI_Info info))
FTMPI_API(File_get_view, (MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype, char *datarep))
FTMPI_API(File_get_type_extent, (MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent))
FTMPI_API(File_get_byte_offset, (MPI_File fh, MPI_Offset offset, MPI_Offset *disp))
FTMPI_API(File_seek, (MPI_File fh, MPI_Offset offset, int whence))
FTMPI_API(File_get_position, (MPI_File fh, MPI_Offset *offset))
FTMPI_API(File_seek_shared, (MPI_File fh, MPI_Offset offset, int whence))
FTMPI_API(File_get_position_shared, (MPI_File fh, MPI_Offset *offset))
FTMPI_API(Register_datarep,
          (const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn,
           MPI_Datarep_conversion_function *write_conversion_fn, MPI_Datarep_extent_function *dtype_file_extent_fn,
           void *extra_state))
/* Files: data access (blocking with a status; non-blocking, the i forms, with a request) */
FTMPI_API(File_read, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_write, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_read_at,
          (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_write_at,
          (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_read_all, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_write_all, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_read_at_all,
          (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_write_at_all,
          (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_read_shared, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_write_shared, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_iread, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iwrite, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iread_at,
          (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iwrite_at,
          (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iread_all, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iwrite_all, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iread_at_all,
          (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iwrite_at_all,
          (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iread_shared, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iwrite_shared, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_read_ordered, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_write_ordered, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
/* Split collectives */
FTMPI_API(File_read_all_begin, (MPI_File fh, void *buf, int count, MPI_Datatype datatype))
FTMPI_API(File_read_all_end, (MPI_File fh, void *buf, MPI_Status *status))
FTMPI_API(File_write_all_begin, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype))
FTMPI_API(File_write_all_end, (MPI_File fh, const void *buf, MPI_Status *status))
FTMPI_API(File_read_at_all_begin, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype))
FTMPI_API(File_read_at_all_end, (MPI_File fh, void *buf, MPI_Status *status))
FTMPI_API(File_write_at_all_begin, (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype))
FTMPI_API(File_write_at_all_end, (MPI_File fh, const void *buf, MPI_Status *status))
FTMPI_API(File_read_ordered_begin, (MPI_File fh, void *buf, int count, MPI_Datatype datatype))
FTMPI_API(File_read_ordered_end, (MPI_File fh, void *buf, MPI_Status *status))
FTMPI_API(File_write_ordered_begin, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype))
FTMPI_API(File_write_ordered_end, (MPI_File fh, const void *buf, MPI_Status *status))
/* ---- end of MPI-IO -------------------------------------------------- */

/* The MPI-4 large-count (`_c`) forms: counts up to INT_MAX, larger ones
 * refused with MPI_ERR_COUNT. */
FTMPI_API(File_read_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_read_all_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_read_all_begin_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype))
FTMPI_API(File_read_at_c,
          (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_read_at_all_c,
          (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_read_at_all_begin_c, (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype))
FTMPI_API(File_read_ordered_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_read_ordered_begin_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype))
FTMPI_API(File_read_shared_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_write_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_write_all_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_write_all_begin_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype))
FTMPI_API(File_write_at_c,
          (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_write_at_all_c,
          (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_write_at_all_begin_c,
          (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype))
FTMPI_API(File_write_ordered_c,
          (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_write_ordered_begin_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype))
FTMPI_API(File_write_shared_c,
          (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
FTMPI_API(File_iread_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iread_all_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iread_at_c,
          (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iread_at_all_c,
          (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iread_shared_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iwrite_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iwrite_all_c,
          (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_iwrite_at_c,
          (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
           MPI_Request *request))
FTMPI_API(File_iwrite_at_all_c,
          (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
           MPI_Request *request))
FTMPI_API(File_iwrite_shared_c,
          (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request))
FTMPI_API(File_get_type_extent_c, (MPI_File fh, MPI_Datatype datatype, MPI_Count *extent))
FTMPI_API(Register_datarep_c,
          (const char *datarep, MPI_Datarep_conversion_function_c *read_conversion_fn,
           MPI_Datarep_conversion_function_c *write_conversion_fn, MPI_Datarep_extent_function *dtype_file_extent_fn,
           void *extra_state))

#endif /* FTMPI_MPI_IO_H */
