// The MPI-4 large-count (`_c`) datatype calls: queries answer in MPI_Count
// (the `_x` calls of MPI-3); MPI_Pack_c, MPI_Unpack_c and MPI_Pack_size_c
// take and give positions and sizes past INT_MAX. The `_c` constructors
// share their int twins' bodies (mpi_type_create.cpp).
#include "internal/datatype.hpp"
#include "internal/large_count.hpp"
#include "internal/pmpi.hpp"
#include "type.hpp"

namespace {

// The checks of MPI_Pack and MPI_Unpack in MPI_Count: MPI_SUCCESS or the
// class to raise. `need` is the packed size of the data.
int check_packing(MPI_Count count, MPI_Datatype datatype, const void *buffer, MPI_Count size, const MPI_Count *position,
                  MPI_Count *need) {
    if (count < 0) return MPI_ERR_COUNT;
    if (!ftmpi::dt::valid(datatype)) return MPI_ERR_TYPE;
    if (!position || *position < 0 || size < 0 || (!buffer && size > 0)) return MPI_ERR_ARG;
    *need = count * static_cast<MPI_Count>(datatype->size);
    if (*position > size || size - *position < *need) return MPI_ERR_TRUNCATE;
    return MPI_SUCCESS;
}

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

int MPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype) noexcept {
    return MPI_Type_create_resized(oldtype, lb, extent, newtype);
}
FTMPI_PMPI(Type_create_resized_c)

int MPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
               MPI_Count *position, MPI_Comm comm) noexcept {
    MPI_Count need = 0;
    if (int e = check_packing(incount, datatype, outbuf, outsize, position, &need))
        return ftmpi::comm::raise(comm, e, "MPI_Pack_c");
    if (need == 0) return MPI_SUCCESS;
    *position += static_cast<MPI_Count>(ftmpi::dt::pack(
        inbuf, incount, datatype, 0, static_cast<char *>(outbuf) + *position, static_cast<size_t>(need)));
    return MPI_SUCCESS;
}
FTMPI_PMPI(Pack_c)

int MPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
                 MPI_Datatype datatype, MPI_Comm comm) noexcept {
    MPI_Count need = 0;
    if (int e = check_packing(outcount, datatype, inbuf, insize, position, &need))
        return ftmpi::comm::raise(comm, e, "MPI_Unpack_c");
    if (need == 0) return MPI_SUCCESS;
    *position += static_cast<MPI_Count>(ftmpi::dt::unpack(static_cast<const char *>(inbuf) + *position,
                                                          static_cast<size_t>(need), 0, outbuf, outcount, datatype));
    return MPI_SUCCESS;
}
FTMPI_PMPI(Unpack_c)

int MPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size) noexcept {
    constexpr const char *fn = "MPI_Pack_size_c";
    if (incount < 0) return ftmpi::comm::raise(comm, MPI_ERR_COUNT, fn);
    if (!ftmpi::dt::valid(datatype)) return ftmpi::comm::raise(comm, MPI_ERR_TYPE, fn);
    if (!size) return ftmpi::comm::raise(comm, MPI_ERR_ARG, fn);
    *size = incount * static_cast<MPI_Count>(datatype->size);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Pack_size_c)

}  // extern "C"
