// MPI_Type_get_value_index (MPI-4.1): the predefined value-index pair type
// (MPI_FLOAT_INT, MPI_2INT, ...) of a value type and an index type, as
// MPI_MINLOC and MPI_MAXLOC use. A combination with no predefined pair gives
// MPI_DATATYPE_NULL, which is not an error.
#include "internal/datatype.hpp"
#include "internal/errors.hpp"
#include "internal/pmpi.hpp"

namespace {

struct ValueIndexPair {
    MPI_Datatype value, index, pair;
};

// The C pairs take an MPI_INT index; the Fortran ones pair a type with itself.
const ValueIndexPair kPairs[] = {
    {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},      {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
    {MPI_LONG, MPI_INT, MPI_LONG_INT},        {MPI_INT, MPI_INT, MPI_2INT},
    {MPI_SHORT, MPI_INT, MPI_SHORT_INT},      {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
    {MPI_REAL, MPI_REAL, MPI_2REAL},          {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
    {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
};

}  // namespace

extern "C" int MPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type,
                                        MPI_Datatype *pair_type) noexcept {
    constexpr const char *fn = "MPI_Type_get_value_index";
    if (!ftmpi::dt::valid(value_type) || !ftmpi::dt::valid(index_type))
        return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, fn);
    if (!pair_type) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    *pair_type = MPI_DATATYPE_NULL;
    for (const ValueIndexPair &p : kPairs)
        if (p.value == value_type && p.index == index_type) *pair_type = p.pair;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_get_value_index)
