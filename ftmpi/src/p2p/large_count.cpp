// The MPI-4 large-count (`_c`) queries of a status. (The `_c` sends and
// receives are defined next to their int forms, with which they share one
// body taking an MPI_Count: send_recv.cpp, persistent.cpp, probe.cpp,
// isendrecv.cpp.)
#include "internal/large_count.hpp"
#include "p2p/binding.hpp"

extern "C" {

// The counts of a status in MPI_Count: nothing to refuse.
int MPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count) noexcept {
    if (!status || !count) return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_count_c");
    int size = 0;
    if (int e = MPI_Type_size(datatype, &size); e != MPI_SUCCESS) return e;
    MPI_Count bytes = 0;
    if (int e = MPI_Get_elements_x(status, MPI_BYTE, &bytes); e != MPI_SUCCESS) return e;
    MPI_Count type_size = 0;
    MPI_Type_size_x(datatype, &type_size);
    if (type_size == 0)
        *count = bytes == 0 ? 0 : MPI_UNDEFINED;
    else
        *count = bytes % type_size ? MPI_UNDEFINED : bytes / type_size;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Get_count_c)

int MPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count) noexcept {
    return MPI_Get_elements_x(status, datatype, count);
}
FTMPI_PMPI(Get_elements_c)

}  // extern "C"
