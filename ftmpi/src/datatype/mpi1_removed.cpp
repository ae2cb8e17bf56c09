// MPI-1 datatype calls removed in MPI-3.0 that old programs still call, as
// MPICH still ships them: MPI_Type_extent, _lb, _ub, _hvector, _hindexed,
// _struct and MPI_Address. Each is its MPI-2 replacement under the old
// name; MPI_LB/MPI_UB markers (predefined_fortran.cpp) work in
// MPI_Type_struct and MPI_Type_create_struct alike.
#include "internal/errors.hpp"
#include "internal/pmpi.hpp"
#include "type.hpp"

extern "C" int MPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent) noexcept {
    if (!datatype) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, "MPI_Type_extent");
    if (!extent) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, "MPI_Type_extent");
    *extent = datatype->extent();
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_extent)

extern "C" int MPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement) noexcept {
    if (!datatype) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, "MPI_Type_lb");
    if (!displacement) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, "MPI_Type_lb");
    *displacement = datatype->lb;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_lb)

extern "C" int MPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement) noexcept {
    if (!datatype) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, "MPI_Type_ub");
    if (!displacement) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, "MPI_Type_ub");
    *displacement = datatype->ub;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_ub)

extern "C" int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                MPI_Datatype *newtype) noexcept {
    return MPI_Type_create_hvector(count, blocklength, stride, oldtype, newtype);
}
FTMPI_PMPI(Type_hvector)

extern "C" int MPI_Type_hindexed(int count, int *array_of_blocklengths, MPI_Aint *array_of_displacements,
                                 MPI_Datatype oldtype, MPI_Datatype *newtype) noexcept {
    return MPI_Type_create_hindexed(count, array_of_blocklengths, array_of_displacements, oldtype, newtype);
}
FTMPI_PMPI(Type_hindexed)

extern "C" int MPI_Type_struct(int count, int *array_of_blocklengths, MPI_Aint *array_of_displacements,
                               MPI_Datatype *array_of_types, MPI_Datatype *newtype) noexcept {
    return MPI_Type_create_struct(count, array_of_blocklengths, array_of_displacements, array_of_types, newtype);
}
FTMPI_PMPI(Type_struct)

extern "C" int MPI_Address(void *location, MPI_Aint *address) noexcept {
    return MPI_Get_address(location, address);
}
FTMPI_PMPI(Address)
