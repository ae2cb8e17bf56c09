// Which comm drivers this rank uses, and loading the ones that are plugins.
//
// FTMPI_TRANSPORTS lists driver names in order of preference (default
// "shm,tcp"); TCP is built in and always available as the last resort.
// Every other name is an application-level HARNESS plugin of package `comm`
// (`comm/shm`), loaded into this process through Hlib and resolved like any
// plugin (<root>/lib, the cache, then fetched and signature-checked by the
// local daemon). A driver that cannot be had is left out with one line on
// stderr saying why (from rank 0 only), and its peers go over TCP.
#pragma once

#include "ftmpi/transport.h"

#include <string>
#include <vector>

namespace ftmpi::runtime {

struct CommDrivers {
    std::vector<std::string> preference;
    std::vector<const ftmpi_transport_ops *> plugins;
};

// Throws std::runtime_error for an FTMPI_TRANSPORTS that names nothing usable.
CommDrivers load_comm_drivers(int rank);

}  // namespace ftmpi::runtime
