// MPI_Type_size(_x), _get_extent(_x), _get_true_extent(_x), MPI_Get_address,
// MPI_Aint_add/diff, MPI_Get_elements(_x).
#include "internal/datatype.hpp"
#include "internal/errors.hpp"
#include "internal/pmpi.hpp"
#include "type.hpp"

#include <climits>
#include <cstdint>

extern "C" int MPI_Type_size(MPI_Datatype datatype, int *size) noexcept {
    if (!datatype) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, "MPI_Type_size");
    if (!size) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, "MPI_Type_size");
    *size = datatype->size > INT_MAX ? MPI_UNDEFINED : static_cast<int>(datatype->size);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_size)

extern "C" int MPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size) noexcept {
    if (!datatype) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, "MPI_Type_size_x");
    if (!size) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, "MPI_Type_size_x");
    *size = static_cast<MPI_Count>(datatype->size);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_size_x)

extern "C" int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent) noexcept {
    if (!datatype) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, "MPI_Type_get_extent");
    if (!lb || !extent) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, "MPI_Type_get_extent");
    *lb = datatype->lb;
    *extent = datatype->extent();
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_get_extent)

extern "C" int MPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent) noexcept {
    if (!datatype) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, "MPI_Type_get_extent_x");
    if (!lb || !extent) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, "MPI_Type_get_extent_x");
    *lb = datatype->lb;
    *extent = datatype->extent();
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_get_extent_x)

extern "C" int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent) noexcept {
    if (!datatype) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, "MPI_Type_get_true_extent");
    if (!true_lb || !true_extent) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, "MPI_Type_get_true_extent");
    *true_lb = datatype->true_lb;
    *true_extent = datatype->true_extent();
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_get_true_extent)

extern "C" int MPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent) noexcept {
    if (!datatype) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, "MPI_Type_get_true_extent_x");
    if (!true_lb || !true_extent) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, "MPI_Type_get_true_extent_x");
    *true_lb = datatype->true_lb;
    *true_extent = datatype->true_extent();
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_get_true_extent_x)

extern "C" int MPI_Get_address(const void *location, MPI_Aint *address) noexcept {
    if (!address) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, "MPI_Get_address");
    *address = static_cast<MPI_Aint>(reinterpret_cast<std::intptr_t>(location));
    return MPI_SUCCESS;
}
FTMPI_PMPI(Get_address)

// Unsigned arithmetic: addresses may wrap the signed range without UB.
extern "C" MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp) noexcept {
    return static_cast<MPI_Aint>(static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(disp));
}
FTMPI_PMPI(Aint_add)

extern "C" MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) noexcept {
    return static_cast<MPI_Aint>(static_cast<std::uint64_t>(addr1) - static_cast<std::uint64_t>(addr2));
}
FTMPI_PMPI(Aint_diff)

extern "C" int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count) noexcept {
    if (!datatype) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, "MPI_Get_elements_x");
    if (!status || !count) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, "MPI_Get_elements_x");
    *count = ftmpi::dt::elements(datatype, status->ftmpi_count);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Get_elements_x)

extern "C" int MPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count) noexcept {
    if (!datatype) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, "MPI_Get_elements");
    if (!status || !count) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, "MPI_Get_elements");
    const MPI_Count n = ftmpi::dt::elements(datatype, status->ftmpi_count);
    *count = n > INT_MAX ? MPI_UNDEFINED : static_cast<int>(n);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Get_elements)
