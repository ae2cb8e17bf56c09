// MPI_Wtime/Wtick, processor name, versions, and
// MPI_Alloc_mem/Free_mem (plain heap memory: TCP needs no registration).
#include "internal/errors.hpp"
#include "internal/pmpi.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <unistd.h>

extern "C" {

double MPI_Wtime(void) noexcept {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
FTMPI_PMPI(Wtime)

double MPI_Wtick(void) noexcept {
    timespec ts;
    clock_getres(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
FTMPI_PMPI(Wtick)

int MPI_Get_processor_name(char *name, int *resultlen) noexcept {
    if (!name || !resultlen) return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_processor_name");
    char host[MPI_MAX_PROCESSOR_NAME] = {};
    if (gethostname(host, sizeof host - 1) != 0) std::strcpy(host, "localhost");
    size_t n = strnlen(host, sizeof host - 1);
    std::memcpy(name, host, n);
    name[n] = '\0';
    *resultlen = static_cast<int>(n);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Get_processor_name)

int MPI_Get_version(int *version, int *subversion) noexcept {
    if (!version || !subversion) return MPI_ERR_ARG;
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Get_version)

int MPI_Get_library_version(char *version, int *resultlen) noexcept {
    if (!version || !resultlen) return MPI_ERR_ARG;
    int n = std::snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING, "%s, MPI %d.%d, TCP transport", FTMPI_VERSION_STRING,
                          MPI_VERSION, MPI_SUBVERSION);
    *resultlen = n < MPI_MAX_LIBRARY_VERSION_STRING ? n : MPI_MAX_LIBRARY_VERSION_STRING - 1;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Get_library_version)

int MPI_Alloc_mem(MPI_Aint size, MPI_Info, void *baseptr) noexcept {
    if (size < 0 || !baseptr) return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Alloc_mem");
    void *p = std::malloc(size ? static_cast<size_t>(size) : 1);
    if (!p) return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "MPI_Alloc_mem");
    *static_cast<void **>(baseptr) = p;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Alloc_mem)

int MPI_Free_mem(void *base) noexcept {
    std::free(base);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Free_mem)

}  // extern "C"
