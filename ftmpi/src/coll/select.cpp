// Which algorithm a collective runs, and the FTMPI_COLL_<NAME> overrides (select.hpp).
#include "select.hpp"

#include <cstdio>
#include <cstdlib>

namespace ftmpi::coll {

std::string_view forced_algorithm(const char *collective) {
    // Read at every call (a few hundred ns against microseconds of
    // communication), so a test can switch algorithms with setenv between
    // calls and run them all in one job.
    char name[64];
    std::snprintf(name, sizeof name, "FTMPI_COLL_%s", collective);
    const char *value = std::getenv(name);
    return value ? std::string_view(value) : std::string_view();
}

}  // namespace ftmpi::coll
