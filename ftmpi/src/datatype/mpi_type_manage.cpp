// MPI_Type_commit, _free, _set_name, _get_name, _get_envelope(_c),
// _get_contents(_c) (MPI_Type_match_size: mpi_type_fortran.cpp). A type
// whose constructor kept large counts (type.hpp) has no int envelope: the
// int calls refuse it with MPI_ERR_TYPE, the `_c` calls report them.
#include "checks.hpp"
#include "internal/comm.hpp"
#include "internal/errors.hpp"
#include "internal/pmpi.hpp"
#include "predefined.hpp"

#include <algorithm>
#include <cstring>

using namespace ftmpi::dt;

namespace {

int mpi_combiner(Combiner c) {
    switch (c) {
    case Combiner::named: return MPI_COMBINER_NAMED;
    case Combiner::dup: return MPI_COMBINER_DUP;
    case Combiner::contiguous: return MPI_COMBINER_CONTIGUOUS;
    case Combiner::vector: return MPI_COMBINER_VECTOR;
    case Combiner::hvector: return MPI_COMBINER_HVECTOR;
    case Combiner::indexed: return MPI_COMBINER_INDEXED;
    case Combiner::hindexed: return MPI_COMBINER_HINDEXED;
    case Combiner::indexed_block: return MPI_COMBINER_INDEXED_BLOCK;
    case Combiner::hindexed_block: return MPI_COMBINER_HINDEXED_BLOCK;
    case Combiner::struct_: return MPI_COMBINER_STRUCT;
    case Combiner::subarray: return MPI_COMBINER_SUBARRAY;
    case Combiner::darray: return MPI_COMBINER_DARRAY;
    case Combiner::resized: return MPI_COMBINER_RESIZED;
    case Combiner::f90_real: return MPI_COMBINER_F90_REAL;
    case Combiner::f90_complex: return MPI_COMBINER_F90_COMPLEX;
    case Combiner::f90_integer: return MPI_COMBINER_F90_INTEGER;
    }
    return MPI_COMBINER_NAMED;
}

}  // namespace

extern "C" int MPI_Type_commit(MPI_Datatype *datatype) noexcept {
    constexpr const char *fn = "MPI_Type_commit";
    if (!datatype || !*datatype) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, fn);
    try {
        commit(*datatype);
    } catch (...) {
        return ftmpi::comm::raise_unattached(MPI_ERR_NO_MEM, fn);
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_commit)

// Drops the user's reference; operations still using the type hold their own.
extern "C" int MPI_Type_free(MPI_Datatype *datatype) noexcept {
    constexpr const char *fn = "MPI_Type_free";
    if (!datatype || !*datatype || (*datatype)->predefined) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, fn);
    // The handle's attributes go with it (their delete callbacks run now).
    const int err = ftmpi::comm::delete_type_attributes(*datatype);
    release(*datatype);
    *datatype = MPI_DATATYPE_NULL;
    return err == MPI_SUCCESS ? MPI_SUCCESS : ftmpi::comm::raise_unattached(err, fn);
}
FTMPI_PMPI(Type_free)

extern "C" int MPI_Type_set_name(MPI_Datatype datatype, const char *type_name) noexcept {
    constexpr const char *fn = "MPI_Type_set_name";
    if (!datatype) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, fn);
    if (!type_name) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    try {
        datatype->name.assign(type_name, strnlen(type_name, MPI_MAX_OBJECT_NAME - 1));
    } catch (...) {
        return ftmpi::comm::raise_unattached(MPI_ERR_NO_MEM, fn);
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_set_name)

extern "C" int MPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen) noexcept {
    constexpr const char *fn = "MPI_Type_get_name";
    if (!datatype) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, fn);
    if (!type_name || !resultlen) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    const size_t n = std::min<size_t>(datatype->name.size(), MPI_MAX_OBJECT_NAME - 1);
    std::memcpy(type_name, datatype->name.data(), n);
    type_name[n] = '\0';
    *resultlen = static_cast<int>(n);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_get_name)

extern "C" int MPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses, int *num_datatypes,
                                     int *combiner) noexcept {
    constexpr const char *fn = "MPI_Type_get_envelope";
    if (!datatype) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, fn);
    if (!num_integers || !num_addresses || !num_datatypes || !combiner)
        return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    if (!datatype->large_counts.empty()) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, fn);
    *num_integers = static_cast<int>(datatype->ints.size());
    *num_addresses = static_cast<int>(datatype->aints.size());
    *num_datatypes = datatype->predefined ? 0 : static_cast<int>(datatype->types.size());
    *combiner = mpi_combiner(datatype->combiner);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_get_envelope)

// Returned derived types are new references the caller frees (MPI-3.1 §4.1.13).
extern "C" int MPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                                     int array_of_integers[], MPI_Aint array_of_addresses[],
                                     MPI_Datatype array_of_datatypes[]) noexcept {
    constexpr const char *fn = "MPI_Type_get_contents";
    // Named types have no contents; the f90 types are predefined but have.
    // A type built with counts past INT_MAX answers only to the _c call.
    if (!datatype || datatype->combiner == Combiner::named || !datatype->large_counts.empty())
        return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, fn);
    if (max_integers < static_cast<int>(datatype->ints.size()) ||
        max_addresses < static_cast<int>(datatype->aints.size()) ||
        max_datatypes < static_cast<int>(datatype->types.size()))
        return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    std::copy(datatype->ints.begin(), datatype->ints.end(), array_of_integers);
    std::copy(datatype->aints.begin(), datatype->aints.end(), array_of_addresses);
    for (size_t i = 0; i < datatype->types.size(); ++i) {
        retain(datatype->types[i]);
        array_of_datatypes[i] = datatype->types[i];
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_get_contents)

extern "C" int MPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses,
                                       MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner) noexcept {
    constexpr const char *fn = "MPI_Type_get_envelope_c";
    if (!datatype) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, fn);
    if (!num_integers || !num_addresses || !num_large_counts || !num_datatypes || !combiner)
        return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    *num_integers = static_cast<MPI_Count>(datatype->ints.size());
    *num_addresses = static_cast<MPI_Count>(datatype->aints.size());
    *num_large_counts = static_cast<MPI_Count>(datatype->large_counts.size());
    *num_datatypes = datatype->predefined ? 0 : static_cast<MPI_Count>(datatype->types.size());
    *combiner = mpi_combiner(datatype->combiner);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_get_envelope_c)

// Returned derived types are new references the caller frees (MPI-3.1 §4.1.13).
extern "C" int MPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                                       MPI_Count max_large_counts, MPI_Count max_datatypes, int array_of_integers[],
                                       MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                                       MPI_Datatype array_of_datatypes[]) noexcept {
    constexpr const char *fn = "MPI_Type_get_contents_c";
    if (!datatype || datatype->predefined) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, fn);
    const auto fits = [](MPI_Count max, size_t n) { return max >= 0 && static_cast<size_t>(max) >= n; };
    if (!fits(max_integers, datatype->ints.size()) || !fits(max_addresses, datatype->aints.size()) ||
        !fits(max_large_counts, datatype->large_counts.size()) || !fits(max_datatypes, datatype->types.size()))
        return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    std::copy(datatype->ints.begin(), datatype->ints.end(), array_of_integers);
    std::copy(datatype->aints.begin(), datatype->aints.end(), array_of_addresses);
    std::copy(datatype->large_counts.begin(), datatype->large_counts.end(), array_of_large_counts);
    for (size_t i = 0; i < datatype->types.size(); ++i) {
        retain(datatype->types[i]);
        array_of_datatypes[i] = datatype->types[i];
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_get_contents_c)
