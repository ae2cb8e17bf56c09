// The events of the job topic job/<FTMPI_JOB> as the
// notifier reads them (FT_CONTRACTS.md "Events"): decoding of the
// failure-related kinds, the readable reasons recorded in the failure
// list, the encoding of the `fence` event this process publishes, and the
// `promote` a hot standby waits for (runtime/standby.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ftmpi::ft {

// One event as fetched, in the topic's sequence order.
struct Event {
    int64_t seq = 0;
    std::string kind;  // first field of the payload ("" if malformed)
    std::vector<uint8_t> payload;
};

// A failure an event reports: which process and why. `normal_exit` marks a
// proc_exit of a process that finalized, or — when the daemon did not say
// (no lifecycle word) — one with status 0 and no signal (then a failure only
// if its connection broke without bye: see notifier.cpp).
struct FailureEvent {
    int rank = -1;
    int incarnation = 0;
    bool normal_exit = false;
    std::string why;
};

std::string kind_of(const std::vector<uint8_t> &payload);
// proc_exit, rank_lost and fence events; nothing for other kinds or a
// malformed payload.
std::optional<FailureEvent> decode_failure(const std::vector<uint8_t> &payload);
// spawn_notify's tag: "<rank>" or "<rank>.<incarnation>".
bool parse_tag(const std::string &tag, int *rank, int *incarnation);
// "SIGKILL" for 9; "signal N" for one without a name here.
std::string signal_name(int sig);
// `respawn` (round, ranks) and `respawn_failed` (round, rank): REBUILD's
// requests for replacements, for the JOINING process state.
bool decode_respawn(const std::vector<uint8_t> &payload, int *round, std::vector<int> *ranks);
bool decode_respawn_failed(const std::vector<uint8_t> &payload, int *round, int *rank);
// `promote` (standby, round, rank, incarnation): ftmpirun makes hot standby
// number `standby` the replacement of world rank `rank` (ft/RECOVERY.md
// "Hot standbys"). False for another kind, a payload whose fields do not
// parse or a negative field; the values are checked against the job by the
// standby itself.
struct Promotion {
    int standby = -1;
    int round = 0;
    int rank = -1;
    int incarnation = 0;
};
bool decode_promote(const std::vector<uint8_t> &payload, Promotion *out);
// The promote addressed to standby `number` in one event, checked against a
// job of `world_size` ranks. Nothing for another kind or another standby's
// promote; a promote whose fields do not parse is to be ignored with a
// warning (`ignored` says why); one addressed here that names no replacement of
// the job (rank out of range, incarnation or round below 1) is an error.
struct PromoteMatch {
    std::optional<Promotion> promotion;
    std::string error;    // addressed here, unusable: the standby ends
    std::string ignored;  // malformed: logged and skipped
};
PromoteMatch match_promote(const std::vector<uint8_t> &payload, int number, int world_size);

std::vector<uint8_t> encode_fence(int rank, int incarnation, int by_rank, const std::string &why);

}  // namespace ftmpi::ft
