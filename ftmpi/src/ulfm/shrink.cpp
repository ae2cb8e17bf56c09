// MPIX_Comm_shrink's work, shared by the blocking and non-blocking bindings (shrink.hpp).
//
// 1. ft::agree on the failed set (the union of what every member knows:
//    it contains every failure any survivor has reported to the program).
// 2. The survivors agree on a fresh context id with the comm part's
//    allocate_context over them, on fault-tolerance tags (so revocation of
//    comm does not stop it).
// 3. ft::agree on "step 2 succeeded here". Step 2 is not itself fault
//    tolerant (its leader gathers and answers), so a failure during it can
//    leave some survivors with an id and others with an error; this
//    agreement makes the outcome uniform: all build the communicator, or all
//    start again from step 1 with a larger failed set. Each retry needs a new
//    failure, so there are at most comm->size attempts.
#include "shrink.hpp"

#include "failed_members.hpp"

#include "../comm/agree.hpp"
#include "../comm/objects.hpp"
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

std::vector<int> failed_ranks(MPI_Comm comm) {
    std::vector<int> out;
    for (const auto &m : failed_members(comm)) out.push_back(m.rank);
    return out;
}
}  // namespace

int shrink(MPI_Comm comm, MPI_Comm *newcomm) {
    for (int attempt = 0;; ++attempt) {
        ft::Agreement failed;
        failed.failed = failed_ranks(comm);
        const uint32_t seq = comm->ft.agreements.load();
        int err = ft::agree(comm, failed);
        if (err != MPI_SUCCESS) return err;

        comm::Scope scope;
        scope.comm = comm;
        scope.tag = context_tag(seq, attempt);
        std::vector<int> survivors_world;
        for (int r = 0; r < comm->size; ++r) {
            const int w = comm->group->world[static_cast<size_t>(r)];
            if (w < 0 || std::binary_search(failed.failed.begin(), failed.failed.end(), r)) continue;
            scope.members.push_back(r);
            survivors_world.push_back(w);
        }
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

}  // namespace ftmpi::ulfm
