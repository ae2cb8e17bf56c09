// Binding a rank to CPUs, as the launcher asked (ftmpirun --bind-to core,
// --rankfile): FTMPI_BIND_CPUS=0,2 binds to those CPUs; FTMPI_BIND=core binds
// to one core, the FTMPI_LOCAL_RANK-th of the CPUs the process may use
// (wrapping around when the host has fewer). FTMPI_BIND=auto (ftmpirun's
// default) binds so only when the host's ranks (FTMPI_LOCAL_SIZE) fit its
// CPUs: two ranks that spin waiting for each other must not share a core,
// and an oversubscribed host is better left to the scheduler. Done in a
// constructor, before main(), so the program and every thread it starts run
// bound from the start, as under Open MPI's launcher. A binding that cannot be made is said
// on stderr and the rank runs unbound. An invalid FTMPI_BIND leaves the rank
// unbound here; MPI_Init then refuses it.
#include "runtime/log.hpp"
#include "settings/values.hpp"

#include <sched.h>

#include <cerrno>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using ftmpi::settings::Id;

void bind_to(const std::vector<int> &cpus, const char *why) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int c : cpus)
        if (c >= 0 && c < CPU_SETSIZE) CPU_SET(c, &set);
    if (sched_setaffinity(0, sizeof set, &set) == 0) return;
    const ftmpi::settings::Values &env = ftmpi::settings::current();
    ftmpi::log::warn("cannot bind to CPUs %s (%s): %s; running unbound", why,
                     env.is_set(Id::bind_cpus) ? env.text(Id::bind_cpus).c_str() : "core", std::strerror(errno));
}

__attribute__((constructor)) void ftmpi_bind_rank() {
    const ftmpi::settings::Values &env = ftmpi::settings::current();
    if (env.is_set(Id::bind_cpus)) {
        const char *list = env.text(Id::bind_cpus).c_str();
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
    const std::string &mode = env.text(Id::bind);
    if (mode != "core" && mode != "auto") return;
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
    std::vector<int> usable;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &allowed)) usable.push_back(c);
    if (usable.empty()) return;
    if (mode == "auto") {
        const long long ranks_here = env.number(Id::local_size);
        if (ranks_here <= 0 || ranks_here > static_cast<long long>(usable.size())) return;
    }
    const long long index = env.number(Id::local_rank);
    bind_to({usable[static_cast<std::size_t>(index) % usable.size()]}, "for --bind-to core");
}

}  // namespace
