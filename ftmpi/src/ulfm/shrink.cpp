// MPIX_Comm_shrink's work, shared by the blocking and non-blocking bindings (shrink.hpp).
//
// An intracommunicator, in one fault-tolerant agreement when nothing clashes:
// 1. Each member reserves the context id derived from what all share
//    (comm's id, the agreement's number, the attempt: comm::derived_context)
//    and agrees, with ft::agree, on the failed set (the union of what every
//    member knows: it contains every failure any survivor has reported to
//    the program) and on the AND of "reserved here".
// 2. AND = 1: every survivor reserved the id (the agreed value holds every
//    survivor's contribution: a live member is never in an epoch's failed
//    set, so every proposal gathered one from each survivor), and every
//    survivor that decided holds the same failed set and computes the same
//    id, so all build the same communicator with no further message. A
//    survivor whose agreement failed returns the error and gives the id back.
// 3. AND = 0 (some survivor had held the derived id, a rare coincidence of
//    seeds): the survivors allocate an id with the comm part's
//    allocate_context over them, on fault-tolerance tags (so revocation of
//    comm does not stop it), then ft::agree on "the allocation succeeded
//    here". The allocation is not itself fault tolerant (its leader gathers
//    and answers), so a failure during it can leave some survivors with an
//    id and others with an error; that agreement makes the outcome uniform:
//    all build the communicator, or all start again from step 1 with a
//    larger failed set. Each retry needs a new failure, so there are at most
//    comm->size attempts.
//
// An intercommunicator shrinks to an intercommunicator of both groups'
// survivors, always through step 3: the agreements run over both groups at
// once (participants.hpp), the allocation agrees on two ids, one for the new
// intercommunicator (this side's survivors and the other side's, bridged by
// the first survivor of each) and one for its private local communicator
// (this side's survivors), and the outcome agreement covers both. With no survivor on the other side there is
// no intercommunicator to make: MPIX_ERR_PROC_FAILED everywhere.
#include "shrink.hpp"

#include "failed_members.hpp"
#include "participants.hpp"

#include "../comm/agree.hpp"
#include "../comm/objects.hpp"
#include "../internal/cominfo.hpp"
#include "../internal/ft.hpp"
#include "../internal/p2p.hpp"

#include <algorithm>

namespace ftmpi::ulfm {
namespace {

// allocate_context uses tag, tag+1, tag+2; each attempt of each shrink gets
// its own tags (numbered by the agreement sequence, the same everywhere), so
// a stray message from a failed attempt can never match a later one.
constexpr int shrink_tag_base = p2p::ft_tag_base + 0x80000;
int context_tag(uint32_t agreement_seq, int attempt) {
    return shrink_tag_base + static_cast<int>(((agreement_seq % 8192) * 16 + static_cast<uint32_t>(attempt % 16)) * 4);
}

// Participant indexes of the failed (comm ranks on an intracommunicator).
std::vector<int> failed_ranks(MPI_Comm comm) {
    std::vector<int> out;
    for (const auto &m : failed_participants(comm)) out.push_back(m.rank);
    return out;
}

// The survivors of one side: ranks in that side's group and world ranks.
struct Side {
    std::vector<int> ranks, worlds;
};
Side survivors(const Participants &parts, int offset, int size, const std::vector<int> &failed) {
    Side side;
    for (int r = 0; r < size; ++r) {
        const int p = offset + r, w = parts.worlds[static_cast<size_t>(p)];
        if (w < 0 || std::binary_search(failed.begin(), failed.end(), p)) continue;
        side.ranks.push_back(r);
        side.worlds.push_back(w);
    }
    return side;
}

int shrink_inter(MPI_Comm ic, MPI_Comm *newcomm) {
    const Participants parts = participants_of(ic);
    const int remote_size = static_cast<int>(ic->remote->world.size());
    for (int attempt = 0;; ++attempt) {
        ft::Agreement failed;
        failed.failed = failed_ranks(ic);
        const uint32_t seq = ic->ft.agreements.load();
        int err = ft::agree(ic, failed);
        if (err != MPI_SUCCESS) return err;
        Side mine = survivors(parts, parts.local_offset, parts.local_size, failed.failed);
        Side theirs = survivors(parts, parts.remote_offset, remote_size, failed.failed);
        if (theirs.ranks.empty()) return MPIX_ERR_PROC_FAILED;

        comm::Scope both;
        both.comm = ic->local;
        both.members = mine.ranks;
        both.bridge = ic;
        both.remote_leader = theirs.ranks.front();
        both.tag = context_tag(seq, attempt);
        uint32_t context = 0, local_context = 0;
        int allocated = comm::allocate_context(both, &context);
        bool have_context = allocated == MPI_SUCCESS, have_local = false;
        if (have_context) {
            // The outcome agreement's sequence number is seq + 1, whose
            // context tags this attempt uses for nothing else.
            comm::Scope side_only;
            side_only.comm = ic->local;
            side_only.members = mine.ranks;
            side_only.tag = context_tag(seq + 1, attempt);
            allocated = comm::allocate_context(side_only, &local_context);
            have_local = allocated == MPI_SUCCESS;
        }

        ft::Agreement outcome;
        outcome.flag = allocated == MPI_SUCCESS ? 1u : 0u;
        outcome.failed = failed_ranks(ic);
        err = ft::agree(ic, outcome);
        if (err == MPI_SUCCESS && outcome.flag == 1u) {
            MPI_Group local_group = comm::make_group(std::move(mine.worlds));
            comm::retain(local_group);
            MPI_Comm local = comm::make_comm(local_group, MPI_GROUP_NULL, local_context, ic);
            local->name = "intercommunicator local group";
            *newcomm = comm::make_comm(local_group, comm::make_group(std::move(theirs.worlds)), context, ic);
            (*newcomm)->local = local;
            return MPI_SUCCESS;
        }
        if (have_context) comm::release_context(context);
        if (have_local) comm::release_context(local_context);
        if (err != MPI_SUCCESS) return err;
        if (attempt > static_cast<int>(parts.worlds.size()))
            return MPIX_ERR_PROC_FAILED;  // each retry needs a new failure
    }
}
// The id the survivors try first: derived from what they share (comm's id,
// the agreement's number, the attempt), so each reserves it before the
// agreement and the agreement's AND of "reserved here" settles it.
uint32_t derived_id(MPI_Comm comm, uint32_t agreement_seq, int attempt) {
    return comm::derived_context((uint64_t{comm->context} << 32) ^ (uint64_t{agreement_seq} << 4) ^
                                 static_cast<uint64_t>(attempt));
}

int shrink_intra(MPI_Comm comm, MPI_Comm *newcomm) {
    for (int attempt = 0;; ++attempt) {
        const uint32_t seq = comm->ft.agreements.load();
        const uint32_t derived = derived_id(comm, seq, attempt);
        const bool reserved = comm::reserve_derived_context(derived);
        ft::Agreement failed;
        failed.flag = reserved ? 1u : 0u;
        failed.failed = failed_ranks(comm);
        int err = ft::agree(comm, failed);
        if (err != MPI_SUCCESS) {
            if (reserved) comm::unreserve_derived_context(derived);
            return err;
        }
        ft::adopt_agreed_failures(comm, failed.failed);  // the members the new communicator leaves out

        std::vector<int> members, survivors_world;
        for (int r = 0; r < comm->size; ++r) {
            const int w = comm->group->world[static_cast<size_t>(r)];
            if (w < 0 || std::binary_search(failed.failed.begin(), failed.failed.end(), r)) continue;
            members.push_back(r);
            survivors_world.push_back(w);
        }
        if (failed.flag == 1u) {
            // Every survivor reserved the derived id (the AND covers every
            // process that is not in the agreed failed set) and every one
            // that decided holds the same failed set: all build the same
            // communicator, with no further message.
            *newcomm = comm::make_comm(comm::make_group(std::move(survivors_world)), MPI_GROUP_NULL, derived, comm);
            return MPI_SUCCESS;
        }
        if (reserved) comm::unreserve_derived_context(derived);

        // Some survivor held the derived id already: allocate one.
        comm::Scope scope;
        scope.comm = comm;
        scope.tag = context_tag(seq, attempt);
        scope.members = std::move(members);
        uint32_t context = 0;
        const int allocated = comm::allocate_context(scope, &context);

        ft::Agreement outcome;
        outcome.flag = allocated == MPI_SUCCESS ? 1u : 0u;
        outcome.failed = failed_ranks(comm);
        err = ft::agree(comm, outcome);
        if (err == MPI_SUCCESS && outcome.flag == 1u) {
            MPI_Group group = comm::make_group(std::move(survivors_world));
            *newcomm = comm::make_comm(group, MPI_GROUP_NULL, context, comm);
            return MPI_SUCCESS;
        }
        if (allocated == MPI_SUCCESS) comm::release_context(context);
        if (err != MPI_SUCCESS) return err;
        if (attempt > comm->size) return MPIX_ERR_PROC_FAILED;  // cannot happen: each retry needs a new failure
    }
}

}  // namespace

// The shrink is ULFM's recovery: cominfo shows when it started and ended.
int shrink(MPI_Comm comm, MPI_Comm *newcomm) {
    cominfo::recovery_started(comm, "ulfm-shrink");
    const int err = comm->inter ? shrink_inter(comm, newcomm) : shrink_intra(comm, newcomm);
    cominfo::recovery_ended(comm, "ulfm-shrink", err == MPI_SUCCESS ? *newcomm : MPI_COMM_NULL, err);
    return err;
}

}  // namespace ftmpi::ulfm
