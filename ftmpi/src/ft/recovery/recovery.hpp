// What the recovery files share (RECOVERY.md): the new
// shape of a communicator per mode, the in-place install, the REBUILD steps
// and the state a replacement receives.
#pragma once

#include "../../internal/comm.hpp"
#include "../../internal/p2p.hpp"

#include <cstdint>
#include <vector>

namespace ftmpi::ft::recovery {

// Tags on the collective channel from ft_tag_base + 0x100000 up are the
// recovery's (ulfm has ft_tag_base .. +0xfffff).
constexpr int state_header_tag = p2p::ft_tag_base + 0x100000;
constexpr int state_body_tag = state_header_tag + 1;

// A communicator mode that recovers in its constructors.
bool recovering_mode(int comm_mode);

// comm's group with the members `failed` (comm ranks) treated per `mode`:
// SHRINK (and REBUILD_APPEND before its appends) drops them and any gap,
// BLANK and REBUILD keep the extent with gaps (-1).
std::vector<int> shape_after(MPI_Comm comm, const std::vector<int> &failed, int mode);

// Installs `world` as comm's group: rank and size follow. The context stays
// (messages between survivors remain matchable).
void install_group(MPI_Comm comm, std::vector<int> world);

// The gaps of MPI_COMM_WORLD under REBUILD, as comm ranks: a REBUILD
// world keeps each world rank in its own slot, so slot r's gap is world
// rank r (a slot whose world rank sits elsewhere, after a mode change from
// SHRINK, is not one).
std::vector<int> gap_slots(MPI_Comm world);

// World ranks of comm's members that are neither gaps nor in `failed`.
std::vector<int> live_worlds(MPI_Comm comm, const std::vector<int> &failed);

// REBUILD(_APPEND) on MPI_COMM_WORLD after the agreement, flush and purge:
// asks ftmpirun for replacements of the failed world ranks, admits the ones
// that joined (agreed among the survivors) and returns the world rank list
// to install; replacements get the state after the install (send_state).
struct Rebuilt {
    std::vector<int> world;         // the new group of MPI_COMM_WORLD
    std::vector<int> replacements;  // world ranks that joined this round
    int round = 0;
};
int rebuild_world(const std::vector<int> &failed_ranks, int mode, Rebuilt *out);
// A failure event (proc_exit, rank_lost) of `world` at `incarnation` or
// later has arrived (no wait).
bool failed_at(int world, int incarnation);
// The leader (lowest live rank of the recovered world) sends each
// replacement the recovered state.
void send_state(const Rebuilt &r);

// The private communicator the recovery's agreements run on (shadow.cpp):
// comm's current shape under a context of its own. next_shadow moves comm
// to shape number `epoch` (after each recovery: shadow_epoch + 1, the same
// at every member; a replacement gets it with the state).
MPI_Comm agreement_comm(MPI_Comm comm);
uint32_t shadow_epoch(MPI_Comm comm);
void next_shadow(MPI_Comm comm, uint32_t epoch);
// comm (this context) is freed: its shadow goes too.
void forget_shadow(uint32_t context);
// True for a shadow: a communicator the recovery agrees on, which handles
// its members' failures itself.
bool is_agreement_comm(MPI_Comm comm);

// MPI_Comm_create_group's recovery point: it is collective over the group
// only, so an agreement over comm in every call would wait for members that
// never call. It recovers comm (collectively, with every live member) only
// when this process knows a member failed.
bool recover_if_failed_here(MPI_Comm comm, int *err);

// Set by join_as_replacement: this replacement's first constructor on
// MPI_COMM_WORLD meets the survivors right after their recovery, so it must
// not start an agreement of its own.
bool take_joined_world_pass();
void grant_joined_world_pass();

}  // namespace ftmpi::ft::recovery
