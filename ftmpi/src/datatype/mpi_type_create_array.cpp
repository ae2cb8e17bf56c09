// MPI_Type_create_subarray(_c) and MPI_Type_create_darray: check the array
// description (MPI-3.1 §4.1.3–4.1.4), call the engine, and keep the
// arguments for MPI_Type_get_contents. (MPI_Type_create_darray_c, whose
// global sizes past INT_MAX are refused, is in mpi_large_count_more.cpp.)
#include "checks.hpp"
#include "internal/errors.hpp"
#include "internal/pmpi.hpp"

#include <span>
#include <vector>

using namespace ftmpi::dt;

namespace {

int check_order(int order) {
    return order == MPI_ORDER_C || order == MPI_ORDER_FORTRAN ? MPI_SUCCESS : MPI_ERR_ARG;
}

template <class Int>
int check_subarray(int ndims, const Int sizes[], const Int subsizes[], const Int starts[]) {
    if (ndims <= 0) return MPI_ERR_DIMS;
    if (!sizes || !subsizes || !starts) return MPI_ERR_ARG;
    for (int d = 0; d < ndims; ++d) {
        if (sizes[d] <= 0 || subsizes[d] <= 0 || subsizes[d] > sizes[d]) return MPI_ERR_ARG;
        if (starts[d] < 0 || starts[d] > sizes[d] - subsizes[d]) return MPI_ERR_ARG;
    }
    return MPI_SUCCESS;
}

int check_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[], const int dargs[],
                 const int psizes[]) {
    if (size <= 0 || rank < 0 || rank >= size) return MPI_ERR_ARG;
    if (ndims <= 0) return MPI_ERR_DIMS;
    if (!gsizes || !distribs || !dargs || !psizes) return MPI_ERR_ARG;
    long long grid = 1;
    for (int d = 0; d < ndims; ++d) {
        if (gsizes[d] <= 0 || psizes[d] <= 0) return MPI_ERR_ARG;
        if (distribs[d] != MPI_DISTRIBUTE_BLOCK && distribs[d] != MPI_DISTRIBUTE_CYCLIC &&
            distribs[d] != MPI_DISTRIBUTE_NONE)
            return MPI_ERR_ARG;
        if (distribs[d] == MPI_DISTRIBUTE_NONE && psizes[d] != 1) return MPI_ERR_ARG;
        if (dargs[d] != MPI_DISTRIBUTE_DFLT_DARG && dargs[d] <= 0) return MPI_ERR_ARG;
        grid *= psizes[d];
    }
    return grid == size ? MPI_SUCCESS : MPI_ERR_ARG;
}

Distribute distribution(int mpi) {
    return mpi == MPI_DISTRIBUTE_BLOCK ? Distribute::block
        : mpi == MPI_DISTRIBUTE_CYCLIC ? Distribute::cyclic
                                       : Distribute::none;
}

}  // namespace

namespace {

// MPI_Type_create_subarray and its large-count (`_c`) twin. The arguments
// are kept as ints (ndims, sizes, subsizes, starts, order) or, when a size
// or start is no int, ndims and order as ints and the rest as large counts
// (MPI-4.0 §5.1.13).
template <class Int>
int build_subarray(const char *fn, int ndims, const Int sizes[], const Int subsizes[], const Int starts[], int order,
                   MPI_Datatype oldtype, MPI_Datatype *newtype) {
    if (int rc = check_subarray(ndims, sizes, subsizes, starts)) return ftmpi::comm::raise_unattached(rc, fn);
    if (int rc = check_order(order)) return ftmpi::comm::raise_unattached(rc, fn);
    if (!oldtype) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, fn);
    if (!newtype) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    const auto n = static_cast<size_t>(ndims);
    try {
        Type *t = make_subarray(std::span(sizes, n), std::span(subsizes, n), std::span(starts, n),
                                order == MPI_ORDER_C ? Order::c : Order::fortran, oldtype);
        std::vector<Count> counts(sizes, sizes + n);
        counts.insert(counts.end(), subsizes, subsizes + n);
        counts.insert(counts.end(), starts, starts + n);
        record_arguments(t, counts);
        if (t->ints.empty()) {
            t->ints = {ndims, order};
        } else {
            t->ints.insert(t->ints.begin(), ndims);
            t->ints.push_back(order);
        }
        *newtype = t;
    } catch (...) {
        return ftmpi::comm::raise_unattached(MPI_ERR_NO_MEM, fn);
    }
    return MPI_SUCCESS;
}

}  // namespace

extern "C" int MPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                                        const int array_of_starts[], int order, MPI_Datatype oldtype,
                                        MPI_Datatype *newtype) noexcept {
    return build_subarray("MPI_Type_create_subarray", ndims, array_of_sizes, array_of_subsizes, array_of_starts, order,
                          oldtype, newtype);
}
FTMPI_PMPI(Type_create_subarray)

extern "C" int MPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                                          const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[],
                                          int order, MPI_Datatype oldtype, MPI_Datatype *newtype) noexcept {
    return build_subarray("MPI_Type_create_subarray_c", ndims, array_of_sizes, array_of_subsizes, array_of_starts,
                          order, oldtype, newtype);
}
FTMPI_PMPI(Type_create_subarray_c)

extern "C" int MPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                                      const int array_of_distribs[], const int array_of_dargs[],
                                      const int array_of_psizes[], int order, MPI_Datatype oldtype,
                                      MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_create_darray";
    if (int rc = check_darray(size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs, array_of_psizes))
        return ftmpi::comm::raise_unattached(rc, fn);
    if (int rc = check_order(order)) return ftmpi::comm::raise_unattached(rc, fn);
    if (!oldtype) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, fn);
    if (!newtype) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    const auto n = static_cast<size_t>(ndims);
    std::vector<Distribute> distribs(n);
    std::vector<int> dargs(array_of_dargs, array_of_dargs + n);
    for (size_t d = 0; d < n; ++d) {
        distribs[d] = distribution(array_of_distribs[d]);
        if (dargs[d] == MPI_DISTRIBUTE_DFLT_DARG) dargs[d] = darg_default;
    }
    try {
        Type *t = make_darray(size, rank, std::span(array_of_gsizes, n), distribs, dargs, std::span(array_of_psizes, n),
                              order == MPI_ORDER_C ? Order::c : Order::fortran, oldtype);
        // A block distribution whose blocks cannot cover its dimension.
        if (!t) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
        t->ints = {size, rank, ndims};
        t->ints.insert(t->ints.end(), array_of_gsizes, array_of_gsizes + n);
        t->ints.insert(t->ints.end(), array_of_distribs, array_of_distribs + n);
        t->ints.insert(t->ints.end(), array_of_dargs, array_of_dargs + n);
        t->ints.insert(t->ints.end(), array_of_psizes, array_of_psizes + n);
        t->ints.push_back(order);
        *newtype = t;
    } catch (...) {
        return ftmpi::comm::raise_unattached(MPI_ERR_NO_MEM, fn);
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_create_darray)
