// MPI-1 error-handler names removed in MPI-3.0 that old programs (FT-MPI's
// examples among them) still call, as MPICH still ships them:
// MPI_Errhandler_create/set/get are MPI_Comm_create/set/get_errhandler.
// Also MPI_Pcontrol, the profiling hook, which does nothing without a tool.
#include "../internal/pmpi.hpp"

extern "C" int MPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler) noexcept {
    return MPI_Comm_create_errhandler(function, errhandler);
}
FTMPI_PMPI(Errhandler_create)

extern "C" int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler) noexcept {
    return MPI_Comm_set_errhandler(comm, errhandler);
}
FTMPI_PMPI(Errhandler_set)

extern "C" int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler) noexcept {
    return MPI_Comm_get_errhandler(comm, errhandler);
}
FTMPI_PMPI(Errhandler_get)

// A profiling library's MPI_Pcontrol replaces this one; PMPI_Pcontrol is
// not aliased (a variadic function's twin is written out).
extern "C" int MPI_Pcontrol(const int level, ...) noexcept {
    (void)level;
    return MPI_SUCCESS;
}
extern "C" int PMPI_Pcontrol(const int level, ...) noexcept {
    (void)level;
    return MPI_SUCCESS;
}
