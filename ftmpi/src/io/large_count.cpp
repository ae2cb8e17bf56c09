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

// One macro for every data-access call: Where says whether an explicit
// offset comes first (AT) or not (HERE), Buffer the buffer's type, Tail
// what follows the datatype (a status, a request, or nothing for _begin).
#define FTMPI_HERE_PARAMS
#define FTMPI_HERE_ARGS
#define FTMPI_AT_PARAMS      MPI_Offset offset,
#define FTMPI_AT_ARGS        offset,
#define FTMPI_STATUS_PARAMS  , MPI_Status *status
#define FTMPI_STATUS_ARGS    , status
#define FTMPI_REQUEST_PARAMS , MPI_Request *request
#define FTMPI_REQUEST_ARGS   , request
#define FTMPI_BEGIN_PARAMS
#define FTMPI_BEGIN_ARGS
#define FTMPI_FILE_C(Name, Where, Buffer, Tail)                                                                        \
    FTMPI_LARGE_COUNT(Name, fh,                                                                                        \
                      (MPI_File fh, FTMPI_##Where##_PARAMS Buffer * buf, MPI_Count count,                              \
                       MPI_Datatype datatype FTMPI_##Tail##_PARAMS),                                                   \
                      (count), (fh, FTMPI_##Where##_ARGS buf, narrow(count), datatype FTMPI_##Tail##_ARGS))

FTMPI_FILE_C(File_read, HERE, void, STATUS)
FTMPI_FILE_C(File_read_all, HERE, void, STATUS)
FTMPI_FILE_C(File_read_shared, HERE, void, STATUS)
FTMPI_FILE_C(File_read_ordered, HERE, void, STATUS)
FTMPI_FILE_C(File_read_at, AT, void, STATUS)
FTMPI_FILE_C(File_read_at_all, AT, void, STATUS)
FTMPI_FILE_C(File_write, HERE, const void, STATUS)
FTMPI_FILE_C(File_write_all, HERE, const void, STATUS)
FTMPI_FILE_C(File_write_shared, HERE, const void, STATUS)
FTMPI_FILE_C(File_write_ordered, HERE, const void, STATUS)
FTMPI_FILE_C(File_write_at, AT, const void, STATUS)
FTMPI_FILE_C(File_write_at_all, AT, const void, STATUS)

FTMPI_FILE_C(File_iread, HERE, void, REQUEST)
FTMPI_FILE_C(File_iread_all, HERE, void, REQUEST)
FTMPI_FILE_C(File_iread_shared, HERE, void, REQUEST)
FTMPI_FILE_C(File_iread_at, AT, void, REQUEST)
FTMPI_FILE_C(File_iread_at_all, AT, void, REQUEST)
FTMPI_FILE_C(File_iwrite, HERE, const void, REQUEST)
FTMPI_FILE_C(File_iwrite_all, HERE, const void, REQUEST)
FTMPI_FILE_C(File_iwrite_shared, HERE, const void, REQUEST)
FTMPI_FILE_C(File_iwrite_at, AT, const void, REQUEST)
FTMPI_FILE_C(File_iwrite_at_all, AT, const void, REQUEST)

FTMPI_FILE_C(File_read_all_begin, HERE, void, BEGIN)
FTMPI_FILE_C(File_read_ordered_begin, HERE, void, BEGIN)
FTMPI_FILE_C(File_read_at_all_begin, AT, void, BEGIN)
FTMPI_FILE_C(File_write_all_begin, HERE, const void, BEGIN)
FTMPI_FILE_C(File_write_ordered_begin, HERE, const void, BEGIN)
FTMPI_FILE_C(File_write_at_all_begin, AT, const void, BEGIN)

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
