// Binding a rank to CPUs, as the launcher asked (ftmpirun --bind-to core,
// --rankfile): FTMPI_BIND_CPUS=0,2 binds to those CPUs; FTMPI_BIND=core binds
// to one core, the FTMPI_LOCAL_RANK-th of the CPUs the process may use
// (wrapping around when the host has fewer). FTMPI_BIND=auto (ftmpirun's
// default) binds so only when the host's ranks (FTMPI_LOCAL_SIZE) fit its
// CPUs: two ranks that spin waiting for each other must not share a core,
// and an oversubscribed host is better left to the scheduler. Done in a
// constructor, before main(), so the program and every thread it starts run
// bound from the start, as under Open MPI's launcher. A binding that cannot be made is said
// on stderr and the rank runs unbound.
#include <sched.h>

#include <cerrno>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

void bind_to(const std::vector<int> &cpus, const char *why) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int c : cpus)
        if (c >= 0 && c < CPU_SETSIZE) CPU_SET(c, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0)
        std::fprintf(stderr, "FT-MPI: cannot bind to CPUs %s (%s): %s; running unbound\n", why,
                     std::getenv("FTMPI_BIND_CPUS") ? std::getenv("FTMPI_BIND_CPUS") : "core",
                     std::strerror(errno));
}

__attribute__((constructor)) void ftmpi_bind_rank() {
    if (const char *list = std::getenv("FTMPI_BIND_CPUS"); list && *list) {
        std::vector<int> cpus;
        for (const char *p = list; *p;) {
            char *end = nullptr;
            long c = std::strtol(p, &end, 10);
            if (end == p) break;
            cpus.push_back(static_cast<int>(c));
            p = *end == ',' ? end + 1 : end;
        }
        bind_to(cpus, "from the rankfile");
        return;
    }
    const char *mode = std::getenv("FTMPI_BIND");
    if (mode == nullptr || (std::strcmp(mode, "core") != 0 && std::strcmp(mode, "auto") != 0)) return;
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
    std::vector<int> usable;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &allowed)) usable.push_back(c);
    if (usable.empty()) return;
    if (std::strcmp(mode, "auto") == 0) {
        const char *size = std::getenv("FTMPI_LOCAL_SIZE");
        const long ranks_here = size ? std::atol(size) : 0;
        if (ranks_here <= 0 || ranks_here > static_cast<long>(usable.size())) return;
    }
    const char *local = std::getenv("FTMPI_LOCAL_RANK");
    const int index = local ? std::atoi(local) : 0;
    bind_to({usable[static_cast<std::size_t>(index < 0 ? 0 : index) % usable.size()]}, "for --bind-to core");
}

}  // namespace
