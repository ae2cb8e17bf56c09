// The MPI-4 large-count (`_c`) file calls: counts that fit an int go to the
// int call, larger ones are refused with MPI_ERR_COUNT through the file's
// error handler.
#include "internal/large_count.hpp"
#include "io/file.hpp"

using ftmpi::large_count::narrow;

namespace {

int too_large(MPI_File fh, const char *function) {
    return ftmpi::io::raise(fh, MPI_ERR_COUNT, function);
}

}  // namespace

FTMPI_LARGE_COUNT(File_read, fh, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status),
                  (count), (fh, buf, narrow(count), datatype, status))

FTMPI_LARGE_COUNT(File_read_all, fh,
                  (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status), (count),
                  (fh, buf, narrow(count), datatype, status))

FTMPI_LARGE_COUNT(File_read_all_begin, fh, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype), (count),
                  (fh, buf, narrow(count), datatype))

FTMPI_LARGE_COUNT(File_read_at, fh,
                  (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Status *status),
                  (count), (fh, offset, buf, narrow(count), datatype, status))

FTMPI_LARGE_COUNT(File_read_at_all, fh,
                  (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Status *status),
                  (count), (fh, offset, buf, narrow(count), datatype, status))

FTMPI_LARGE_COUNT(File_read_at_all_begin, fh,
                  (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype), (count),
                  (fh, offset, buf, narrow(count), datatype))

FTMPI_LARGE_COUNT(File_read_ordered, fh,
                  (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status), (count),
                  (fh, buf, narrow(count), datatype, status))

FTMPI_LARGE_COUNT(File_read_ordered_begin, fh, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype),
                  (count), (fh, buf, narrow(count), datatype))

FTMPI_LARGE_COUNT(File_read_shared, fh,
                  (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status), (count),
                  (fh, buf, narrow(count), datatype, status))

FTMPI_LARGE_COUNT(File_write, fh,
                  (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status), (count),
                  (fh, buf, narrow(count), datatype, status))

FTMPI_LARGE_COUNT(File_write_all, fh,
                  (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status), (count),
                  (fh, buf, narrow(count), datatype, status))

FTMPI_LARGE_COUNT(File_write_all_begin, fh, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype),
                  (count), (fh, buf, narrow(count), datatype))

FTMPI_LARGE_COUNT(File_write_at, fh,
                  (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Status *status),
                  (count), (fh, offset, buf, narrow(count), datatype, status))

FTMPI_LARGE_COUNT(File_write_at_all, fh,
                  (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Status *status),
                  (count), (fh, offset, buf, narrow(count), datatype, status))

FTMPI_LARGE_COUNT(File_write_at_all_begin, fh,
                  (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype), (count),
                  (fh, offset, buf, narrow(count), datatype))

FTMPI_LARGE_COUNT(File_write_ordered, fh,
                  (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status), (count),
                  (fh, buf, narrow(count), datatype, status))

FTMPI_LARGE_COUNT(File_write_ordered_begin, fh, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype),
                  (count), (fh, buf, narrow(count), datatype))

FTMPI_LARGE_COUNT(File_write_shared, fh,
                  (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status), (count),
                  (fh, buf, narrow(count), datatype, status))

FTMPI_LARGE_COUNT(File_iread, fh,
                  (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request), (count),
                  (fh, buf, narrow(count), datatype, request))

FTMPI_LARGE_COUNT(File_iread_all, fh,
                  (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request), (count),
                  (fh, buf, narrow(count), datatype, request))

FTMPI_LARGE_COUNT(File_iread_at, fh,
                  (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Request *request),
                  (count), (fh, offset, buf, narrow(count), datatype, request))

FTMPI_LARGE_COUNT(File_iread_at_all, fh,
                  (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Request *request),
                  (count), (fh, offset, buf, narrow(count), datatype, request))

FTMPI_LARGE_COUNT(File_iread_shared, fh,
                  (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request), (count),
                  (fh, buf, narrow(count), datatype, request))

FTMPI_LARGE_COUNT(File_iwrite, fh,
                  (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request), (count),
                  (fh, buf, narrow(count), datatype, request))

FTMPI_LARGE_COUNT(File_iwrite_all, fh,
                  (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request), (count),
                  (fh, buf, narrow(count), datatype, request))

FTMPI_LARGE_COUNT(File_iwrite_at, fh,
                  (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Request *request),
                  (count), (fh, offset, buf, narrow(count), datatype, request))

FTMPI_LARGE_COUNT(File_iwrite_at_all, fh,
                  (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Request *request),
                  (count), (fh, offset, buf, narrow(count), datatype, request))

FTMPI_LARGE_COUNT(File_iwrite_shared, fh,
                  (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request), (count),
                  (fh, buf, narrow(count), datatype, request))

extern "C" int MPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent) noexcept {
    if (extent == nullptr) return ftmpi::io::raise(fh, MPI_ERR_ARG, "MPI_File_get_type_extent_c");
    MPI_Aint bytes = 0;
    const int e = MPI_File_get_type_extent(fh, datatype, &bytes);
    if (e == MPI_SUCCESS) *extent = bytes;
    return e;
}
FTMPI_PMPI(File_get_type_extent_c)

// As the int form: checked, then refused (no user representations,
// README.md); the conversion functions are never called.
extern "C" int MPI_Register_datarep_c(const char *datarep, MPI_Datarep_conversion_function_c *,
                                      MPI_Datarep_conversion_function_c *,
                                      MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state) noexcept {
    return MPI_Register_datarep(datarep, MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, dtype_file_extent_fn,
                                extra_state);
}
FTMPI_PMPI(Register_datarep_c)
