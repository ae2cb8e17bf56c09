// MPI_Get_hw_resource_info (MPI-4.1): what this process knows about its
// hardware without asking anything outside the kernel. The keys are this
// library's own (the standard leaves them to the implementation):
//   ftmpi_online_cpus   CPUs online on this host (sysconf)
//   ftmpi_usable_cpus   CPUs this process may run on (its affinity mask)
//   ftmpi_page_size     the memory page size in bytes
// A value that cannot be read is left out.
#include "internal/errors.hpp"
#include "internal/pmpi.hpp"

#include <sched.h>
#include <unistd.h>

#include <string>

namespace {

int set_number(MPI_Info info, const char *key, long value) {
    if (value <= 0) return MPI_SUCCESS;
    return PMPI_Info_set(info, key, std::to_string(value).c_str());
}

long usable_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    return CPU_COUNT(&set);
}

}  // namespace

extern "C" int MPI_Get_hw_resource_info(MPI_Info *hw_info) noexcept {
    constexpr const char *fn = "MPI_Get_hw_resource_info";
    if (!hw_info) return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn);
    return ftmpi::comm::guarded(MPI_COMM_WORLD, fn, [&] {
        MPI_Info info = MPI_INFO_NULL;
        if (int e = PMPI_Info_create(&info)) return e;
        int e = set_number(info, "ftmpi_online_cpus", sysconf(_SC_NPROCESSORS_ONLN));
        if (!e) e = set_number(info, "ftmpi_usable_cpus", usable_cpus());
        if (!e) e = set_number(info, "ftmpi_page_size", sysconf(_SC_PAGESIZE));
        if (e) {
            PMPI_Info_free(&info);
            return e;
        }
        *hw_info = info;
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(Get_hw_resource_info)
