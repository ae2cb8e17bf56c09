// What a status says: MPI_Get_count,
// MPI_Status_set_*, MPI_Status_get_* (MPI-4.1), MPI_Test_cancelled. (MPI_Get_elements(_x) is the
// datatype part's, src/datatype/mpi_type_query.cpp.)
#include "internal/datatype.hpp"
#include "p2p/binding.hpp"

#include <climits>

using namespace ftmpi;

namespace {

int count_of(const MPI_Status *status, MPI_Datatype type, MPI_Count *count) {
    if (!status || !count) return MPI_ERR_ARG;
    if (!dt::valid(type)) return MPI_ERR_TYPE;
    size_t size = dt::size(type);
    if (size == 0) {
        *count = status->ftmpi_count == 0 ? 0 : MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    *count = status->ftmpi_count % size ? MPI_UNDEFINED : static_cast<MPI_Count>(status->ftmpi_count / size);
    return MPI_SUCCESS;
}

int narrow(MPI_Count c, int *out) {
    *out = c > INT_MAX ? MPI_UNDEFINED : static_cast<int>(c);
    return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count) noexcept {
    return p2p::guarded(MPI_COMM_WORLD, "MPI_Get_count", [&] {
        MPI_Count c;
        if (int e = count_of(status, type, &c)) return e;
        return narrow(c, count);
    });
}
FTMPI_PMPI(Get_count)

int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype type, MPI_Count count) noexcept {
    return p2p::guarded(MPI_COMM_WORLD, "MPI_Status_set_elements_x", [&] {
        if (!status || count < 0) return MPI_ERR_ARG;
        if (!dt::valid(type)) return MPI_ERR_TYPE;
        // `count` counts basic elements, not elements of `type`.
        status->ftmpi_count = dt::bytes_of_elements(type, count);
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(Status_set_elements_x)

int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype type, int count) noexcept {
    return MPI_Status_set_elements_x(status, type, count);
}
FTMPI_PMPI(Status_set_elements)

int MPI_Status_set_cancelled(MPI_Status *status, int flag) noexcept {
    if (!status) return comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Status_set_cancelled");
    status->ftmpi_cancelled = flag ? 1 : 0;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Status_set_cancelled)

int MPI_Test_cancelled(const MPI_Status *status, int *flag) noexcept {
    if (!status || !flag) return comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Test_cancelled");
    *flag = status->ftmpi_cancelled;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Test_cancelled)

// MPI-4.1 accessors of the public fields, for languages and tools that
// cannot name them.
#define FTMPI_STATUS_FIELD(Name, field)                                                                                \
    int MPI_Status_get_##Name(const MPI_Status *status, int *value) noexcept {                                         \
        if (!status || !value) return comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Status_get_" #Name);               \
        *value = status->field;                                                                                        \
        return MPI_SUCCESS;                                                                                            \
    }                                                                                                                  \
    FTMPI_PMPI(Status_get_##Name)                                                                                      \
    int MPI_Status_set_##Name(MPI_Status *status, int value) noexcept {                                                \
        if (!status) return comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Status_set_" #Name);                         \
        status->field = value;                                                                                         \
        return MPI_SUCCESS;                                                                                            \
    }                                                                                                                  \
    FTMPI_PMPI(Status_set_##Name)

FTMPI_STATUS_FIELD(source, MPI_SOURCE)
FTMPI_STATUS_FIELD(tag, MPI_TAG)
FTMPI_STATUS_FIELD(error, MPI_ERROR)
#undef FTMPI_STATUS_FIELD

}  // extern "C"
