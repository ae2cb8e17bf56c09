// The built-in TCP comm driver: transport::Tcp behind the C ops table of
// ftmpi/transport.h, so the router treats it like any plugin driver.
#pragma once

#include "ftmpi/transport.h"
#include "transport/sink.hpp"

#include <chrono>
#include <string>
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

// A REBUILD replacement reaching a fellow replacement from its record read
// again: the incarnation a TCP address names (Contact), the handshake
// (Tcp::reach_fellow, without the engine's lock), and the answered socket
// made the fellow's connection (Tcp::adopt_fellow, with it).
int tcp_address_incarnation(const std::string &address);
int tcp_reach_fellow(const ftmpi_transport *state, int peer, const std::string &address,
                     std::chrono::steady_clock::time_point deadline, int *incarnation);
bool tcp_adopt_fellow(ftmpi_transport *state, int peer, int fd, int incarnation);

// Processes of another job (tcp_foreign.cpp): the accepting side expects a
// foreign hello for `peer`; the connecting side reaches one (without the
// engine's lock) and adopts the answered socket (with it).
void tcp_expect_foreign(ftmpi_transport *state, int peer);
int tcp_reach_foreign(const ftmpi_transport *state, const std::string &address, int their_world, int alias_there,
                      std::chrono::steady_clock::time_point deadline, int *incarnation);
bool tcp_adopt_foreign(ftmpi_transport *state, int peer, int fd, int incarnation);

}  // namespace ftmpi::transport
