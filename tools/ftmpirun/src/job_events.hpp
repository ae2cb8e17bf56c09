// job_events.hpp — the events on topic job/<FTMPI_JOB> that ftmpirun reads and
// writes (ftmpi/FT_CONTRACTS.md, "Events on job/<FTMPI_JOB>"): it acts on
// `fence`, `respawn` and `spawn` (MPI_Comm_spawn) from the ranks and
// publishes `rank_lost`, `promote` (to a hot standby), `respawned`,
// `respawn_failed`, `spawned` and `spawn_failed`. Pack buffers, first field the kind. Pure, so tests
// check the encodings without a VM.
#pragma once

#include <harness/common/pack.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace harness::ftmpirun {

// What ftmpirun is asked to do; other kinds (proc_exit, what ftmpirun itself
// published) are read as "nothing to do".
struct FenceRequest {
    int rank = 0;
    int incarnation = 0;
    int by_rank = 0;
    std::string why;
};
struct RespawnRequest {
    int round = 0;
    std::vector<int> ranks;
};
// MPI_Comm_spawn(_multiple): new processes, one MPI_COMM_WORLD for all apps.
struct SpawnApp {
    std::string command;
    std::vector<std::string> argv;
    int count = 0;
    std::string host;  // a daemon's member id or host; "" any of the job's
    std::string wdir;  // "" the job's
};
struct SpawnRequest {
    std::string id;  // the requester's, echoed in the answer
    int leader = 0;  // the parents' leader (world rank): the children's FTMPI_PARENT
    std::vector<SpawnApp> apps;
    // The new processes' world ranks start there at the least: the numbers
    // below were given by the parents to another job's processes
    // (MPI_Comm_connect/accept). 0: no constraint (also when not sent).
    int lowest_base = 0;
};
struct JobRequest {
    std::optional<FenceRequest> fence;
    std::optional<RespawnRequest> respawn;
    std::optional<SpawnRequest> spawn;
    std::string malformed;  // non-empty: a request whose fields did not parse
};

JobRequest parse_job_event(std::span<const std::uint8_t> payload);

Bytes pack_rank_lost(int rank, int incarnation, const std::string &member, const std::string &why);
// Hot standby number `standby` (FTMPI_STANDBY) becomes `rank` with that
// incarnation in recovery round `round`; published before the `respawned`
// that tells the survivors (ftmpi/src/ft/RECOVERY.md "Hot standbys").
Bytes pack_promote(int standby, int round, int rank, int incarnation);
Bytes pack_respawned(int round, int rank, int incarnation, const std::string &member);
Bytes pack_respawn_failed(int round, int rank, const std::string &why);
Bytes pack_spawned(const std::string &id, int spawn_id, int base, int count);
Bytes pack_spawn_failed(const std::string &id, const std::string &why);
// What the ranks publish (tests use them to drive ftmpirun).
Bytes pack_spawn(const SpawnRequest &r);
Bytes pack_fence(int rank, int incarnation, int by_rank, const std::string &why);
Bytes pack_respawn(int round, const std::vector<int> &ranks);

}  // namespace harness::ftmpirun
