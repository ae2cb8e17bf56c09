// job_events.hpp — the events on topic job/<FTMPI_JOB> that ftmpirun reads and
// writes (ftmpi/FT_CONTRACTS.md, "Events on job/<FTMPI_JOB>"): it acts on
// `fence` and `respawn` from the ranks and publishes `rank_lost`, `respawned`
// and `respawn_failed`. Pack buffers, first field the kind. Pure, so tests
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
struct JobRequest {
    std::optional<FenceRequest> fence;
    std::optional<RespawnRequest> respawn;
    std::string malformed;  // non-empty: a fence/respawn whose fields did not parse
};

JobRequest parse_job_event(std::span<const std::uint8_t> payload);

Bytes pack_rank_lost(int rank, int incarnation, const std::string &member, const std::string &why);
Bytes pack_respawned(int round, int rank, int incarnation, const std::string &member);
Bytes pack_respawn_failed(int round, int rank, const std::string &why);
// What the ranks publish (tests use them to drive ftmpirun).
Bytes pack_fence(int rank, int incarnation, int by_rank, const std::string &why);
Bytes pack_respawn(int round, const std::vector<int> &ranks);

}  // namespace harness::ftmpirun
