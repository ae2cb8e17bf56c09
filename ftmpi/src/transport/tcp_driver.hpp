// The built-in TCP comm driver: transport::Tcp behind the C ops table of
// ftmpi/transport.h, so the router treats it like any plugin driver.
#pragma once

#include "ftmpi/transport.h"
#include "transport/sink.hpp"

#include <vector>

namespace ftmpi::transport {

const ftmpi_transport_ops *tcp_ops();

// The table's connect for the built-in driver, with what the C slot cannot
// carry: `ended`, asked about a peer the mesh waits for. Returns the peers
// left out because they ended; throws std::runtime_error with the reason.
std::vector<int> tcp_connect_mesh(ftmpi_transport *state, const char *const *addresses, long timeout_ms,
                                  const PeerEnded &ended);

}  // namespace ftmpi::transport
