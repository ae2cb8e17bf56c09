// The MPI-4 large-count (`_c`) datatype call beyond mpi_large_count.cpp:
// darray, whose global sizes that fit an int go to the int call; larger
// ones are refused with MPI_ERR_COUNT.
#include "internal/large_count.hpp"

#include <vector>

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
