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

// Processes added by MPI_Comm_spawn (tcp_spawned.cpp): room for peers
// 0..n-1; and a spawned process's own wire-up (Tcp::join_spawned), which
// returns the peers it found dead.
void tcp_grow(ftmpi_transport *state, int n);
std::vector<int> tcp_join_spawned(ftmpi_transport *state, const char *const *addresses, int first_sibling,
                                  long per_peer_ms, long siblings_ms, const PeerEnded &ended);

}  // namespace ftmpi::transport
