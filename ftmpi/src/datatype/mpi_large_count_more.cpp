// The MPI-4 large-count (`_c`) datatype calls beyond mpi_large_count.cpp:
// darray and external32 packing. Their sizes and counts that fit an int go
// to the int call; others are refused with MPI_ERR_COUNT.
#include "internal/large_count.hpp"

#include <vector>

using ftmpi::large_count::all_fit;
using ftmpi::large_count::narrow;
using ftmpi::large_count::narrow_all;
using ftmpi::large_count::too_large;
using ftmpi::large_count::without_exceptions;

namespace {

// `n` entries of each array as ints, or false.
bool narrow_arrays(int n, std::initializer_list<std::pair<const MPI_Count *, std::vector<int> *>> arrays) {
    for (const auto &[values, out] : arrays)
        if (!narrow_all(values, n, out)) return false;
    return true;
}

}  // namespace

extern "C" int MPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                                        const int array_of_distribs[], const int array_of_dargs[],
                                        const int array_of_psizes[], int order, MPI_Datatype oldtype,
                                        MPI_Datatype *newtype) noexcept {
    return without_exceptions(MPI_COMM_NULL, "MPI_Type_create_darray_c", [&] {
        std::vector<int> gsizes;
        if (!narrow_arrays(ndims, {{array_of_gsizes, &gsizes}}))
            return too_large(MPI_COMM_NULL, "MPI_Type_create_darray_c");
        return MPI_Type_create_darray(size, rank, ndims, ftmpi::large_count::data_or_null(array_of_gsizes, gsizes),
                                      array_of_distribs, array_of_dargs, array_of_psizes, order, oldtype, newtype);
    });
}
FTMPI_PMPI(Type_create_darray_c)

// external32: the buffer sizes and positions are MPI_Aint in the int calls.
FTMPI_LARGE_COUNT(Pack_external, MPI_COMM_NULL,
                  (const char datarep[], const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                   MPI_Count outsize, MPI_Count *position),
                  (incount), (datarep, inbuf, narrow(incount), datatype, outbuf, outsize, position))

FTMPI_LARGE_COUNT(Unpack_external, MPI_COMM_NULL,
                  (const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                   MPI_Count outcount, MPI_Datatype datatype),
                  (outcount), (datarep, inbuf, insize, position, outbuf, narrow(outcount), datatype))

FTMPI_LARGE_COUNT(Pack_external_size, MPI_COMM_NULL,
                  (const char datarep[], MPI_Count incount, MPI_Datatype datatype, MPI_Count *size), (incount),
                  (datarep, narrow(incount), datatype, size))
