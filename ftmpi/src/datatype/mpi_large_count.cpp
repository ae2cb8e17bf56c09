// The MPI-4 large-count (`_c`) datatype calls: queries answer in MPI_Count
// (the `_x` calls of MPI-3); constructors and pack calls take counts that
// fit an int and refuse larger ones with MPI_ERR_COUNT.
#include "internal/large_count.hpp"
#include "internal/pmpi.hpp"

#include <climits>

namespace {

// Strides and displacements may be negative, so both bounds are checked here.
bool fits(MPI_Count n) {
    return n <= INT_MAX && n >= INT_MIN;
}
using ftmpi::large_count::too_large;

}  // namespace

extern "C" {

int MPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size) noexcept {
    return MPI_Type_size_x(datatype, size);
}
FTMPI_PMPI(Type_size_c)

int MPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent) noexcept {
    return MPI_Type_get_extent_x(datatype, lb, extent);
}
FTMPI_PMPI(Type_get_extent_c)

int MPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent) noexcept {
    return MPI_Type_get_true_extent_x(datatype, true_lb, true_extent);
}
FTMPI_PMPI(Type_get_true_extent_c)

int MPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype) noexcept {
    if (!fits(count)) return too_large(MPI_COMM_NULL, "MPI_Type_contiguous_c");
    return MPI_Type_contiguous(static_cast<int>(count), oldtype, newtype);
}
FTMPI_PMPI(Type_contiguous_c)

int MPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                      MPI_Datatype *newtype) noexcept {
    if (!fits(count) || !fits(blocklength) || !fits(stride)) return too_large(MPI_COMM_NULL, "MPI_Type_vector_c");
    return MPI_Type_vector(static_cast<int>(count), static_cast<int>(blocklength), static_cast<int>(stride), oldtype,
                           newtype);
}
FTMPI_PMPI(Type_vector_c)

int MPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype) noexcept {
    return MPI_Type_create_resized(oldtype, lb, extent, newtype);
}
FTMPI_PMPI(Type_create_resized_c)

int MPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
               MPI_Count *position, MPI_Comm comm) noexcept {
    if (!position) return ftmpi::comm::raise(comm, MPI_ERR_ARG, "MPI_Pack_c");
    if (!fits(incount) || !fits(outsize) || !fits(*position)) return too_large(comm, "MPI_Pack_c");
    int pos = static_cast<int>(*position);
    const int e = MPI_Pack(inbuf, static_cast<int>(incount), datatype, outbuf, static_cast<int>(outsize), &pos, comm);
    if (e == MPI_SUCCESS) *position = pos;
    return e;
}
FTMPI_PMPI(Pack_c)

int MPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
                 MPI_Datatype datatype, MPI_Comm comm) noexcept {
    if (!position) return ftmpi::comm::raise(comm, MPI_ERR_ARG, "MPI_Unpack_c");
    if (!fits(insize) || !fits(outcount) || !fits(*position)) return too_large(comm, "MPI_Unpack_c");
    int pos = static_cast<int>(*position);
    const int e = MPI_Unpack(inbuf, static_cast<int>(insize), &pos, outbuf, static_cast<int>(outcount), datatype, comm);
    if (e == MPI_SUCCESS) *position = pos;
    return e;
}
FTMPI_PMPI(Unpack_c)

int MPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size) noexcept {
    if (!size) return ftmpi::comm::raise(comm, MPI_ERR_ARG, "MPI_Pack_size_c");
    if (!fits(incount)) return too_large(comm, "MPI_Pack_size_c");
    int n = 0;
    const int e = MPI_Pack_size(static_cast<int>(incount), datatype, comm, &n);
    if (e != MPI_SUCCESS) return e;
    // The int call says MPI_UNDEFINED past INT_MAX bytes; answer exactly.
    MPI_Count type_size = 0;
    MPI_Type_size_x(datatype, &type_size);
    *size = n == MPI_UNDEFINED ? incount * type_size : n;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Pack_size_c)

}  // extern "C"
