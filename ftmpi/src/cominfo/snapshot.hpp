// The record one rank publishes (docs/cominfo.md, "The rank record"): who
// it is, the state of every world rank as it sees them, its communicators
// with their members' states, and its event log.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace ftmpi::cominfo {

// What does not change while the process runs.
struct Identity {
    std::string job;
    int rank = 0;
    int incarnation = 0;
    int world_size = 0;
    long pid = 0;
    std::string member;  // the local daemon's member id (HARNESS_MEMBER)
    std::string host;
    int64_t started_ms = 0;  // wall clock at MPI_Init
};

// Built on the reporter's thread: reads the communicators through the comm
// part's registry and the fault-tolerance state (never p2p's hot paths).
// `finalized` marks the last record of a process that called MPI_Finalize.
nlohmann::json snapshot(const Identity &id, int64_t update, bool finalized);

}  // namespace ftmpi::cominfo
