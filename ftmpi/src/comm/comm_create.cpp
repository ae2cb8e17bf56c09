// MPI_Comm_create (collective over the parent) and
// MPI_Comm_create_group (collective over the group's members only).
#include "../ft/recovery/recovery.hpp"
#include "../internal/errors.hpp"
#include "../internal/ft.hpp"
#include "../internal/pmpi.hpp"
#include "agree.hpp"
#include "intercomm_split.hpp"
#include "objects.hpp"

#include <climits>

using namespace ftmpi::comm;

namespace {
// Ranks in comm of the group's members, in group order (gaps of a BLANK
// group are nobody and left out); false if one is not in comm.
bool ranks_in(MPI_Comm comm, MPI_Group group, std::vector<int> &ranks) {
    ranks.clear();
    for (int w : group->world) {
        if (w < 0) continue;
        const int r = comm_rank_of_world(comm, w);
        if (r == MPI_UNDEFINED) return false;
        ranks.push_back(r);
    }
    return true;
}
}  // namespace

extern "C" int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_create");
    if (!valid(group)) return raise(comm, MPI_ERR_GROUP, "MPI_Comm_create");
    if (newcomm == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_create");
    if (comm->inter) return raise(comm, create_intercomm(comm, group, newcomm), "MPI_Comm_create");
    if (int err = MPI_SUCCESS; ftmpi::ft::recover_if_needed(comm, newcomm, &err))
        return raise(comm, err, "MPI_Comm_create");
    std::vector<int> ranks;
    // Every process passes the same group, so all fail here alike.
    if (!ranks_in(comm, group, ranks)) return raise(comm, MPI_ERR_GROUP, "MPI_Comm_create");
    uint32_t context = 0;
    int err = allocate_context(comm, &context);
    if (err != MPI_SUCCESS) return raise(comm, err, "MPI_Comm_create");
    if (group->rank == MPI_UNDEFINED) {
        release_context(context);
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    *newcomm = make_comm(make_group(group->world), nullptr, context, comm);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Comm_create)

extern "C" int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_create_group");
    if (comm->inter) return raise(comm, MPI_ERR_COMM, "MPI_Comm_create_group");
    if (!valid(group)) return raise(comm, MPI_ERR_GROUP, "MPI_Comm_create_group");
    if (newcomm == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_create_group");
    if (int err = MPI_SUCCESS; ftmpi::ft::recovery::recover_if_failed_here(comm, &err))
        return raise(comm, err, "MPI_Comm_create_group");
    // The tag keeps concurrent creations over overlapping groups apart.
    if (tag < 0 || tag > INT_MAX - create_group_tag_base - 3) return raise(comm, MPI_ERR_TAG, "MPI_Comm_create_group");
    Scope s;
    s.comm = comm;
    if (!ranks_in(comm, group, s.members)) return raise(comm, MPI_ERR_GROUP, "MPI_Comm_create_group");
    if (group->rank == MPI_UNDEFINED) {  // not a member: nothing to agree on
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    s.tag = create_group_tag_base + tag;
    uint32_t context = 0;
    int err = allocate_context(s, &context);
    if (err != MPI_SUCCESS) return raise(comm, err, "MPI_Comm_create_group");
    *newcomm = make_comm(make_group(group->world), nullptr, context, comm);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Comm_create_group)
