// Intercommunicators: MPI_Intercomm_create and
// MPI_Intercomm_merge. Each intercommunicator carries a private
// intracommunicator over its local group (ftmpi_comm_s::local) through which
// its members agree on context ids; the two leaders bridge the sides.
#include "../internal/errors.hpp"
#include "../internal/p2p.hpp"
#include "../internal/pmpi.hpp"
#include "agree.hpp"
#include "objects.hpp"

#include <climits>

using namespace ftmpi::comm;

namespace {
// A private copy of `comm` (same group, own context) for an intercomm's agreements.
int private_copy(MPI_Comm comm, MPI_Comm *out) {
    uint32_t context = 0;
    int err = allocate_context(comm, &context);
    if (err != MPI_SUCCESS) return err;
    retain(comm->group);
    *out = make_comm(comm->group, nullptr, context, MPI_COMM_NULL);
    (*out)->name = "intercommunicator local group";
    return MPI_SUCCESS;
}
}  // namespace

extern "C" int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader,
                                    int tag, MPI_Comm *newintercomm) noexcept {
    const char *fn = "MPI_Intercomm_create";
    if (!valid(local_comm) || local_comm->inter) return raise(local_comm, MPI_ERR_COMM, fn);
    if (newintercomm == nullptr) return raise(local_comm, MPI_ERR_ARG, fn);
    if (local_leader < 0 || local_leader >= local_comm->size) return raise(local_comm, MPI_ERR_RANK, fn);
    if (tag < 0 || tag > INT_MAX - create_group_tag_base - 3) return raise(local_comm, MPI_ERR_TAG, fn);
    const bool leader = local_comm->rank == local_leader;
    // peer_comm and remote_leader matter at the leader only (MPI-3.1 §6.6.2).
    // peer_comm may be an intercommunicator (one from MPI_Comm_spawn, say):
    // remote_leader is then a rank of its remote group, as its
    // point-to-point calls count, and the leaders talk through it the same way.
    if (leader) {
        if (!valid(peer_comm)) return raise(local_comm, MPI_ERR_COMM, fn);
        const int peers = peer_comm->inter ? static_cast<int>(peer_comm->remote->world.size()) : peer_comm->size;
        if (remote_leader < 0 || remote_leader >= peers || (!peer_comm->inter && remote_leader == peer_comm->rank))
            return raise(local_comm, MPI_ERR_RANK, fn);
    }
    Scope s = led_by(local_comm, local_leader);
    s.bridge = leader ? peer_comm : MPI_COMM_NULL;
    s.remote_leader = remote_leader;
    // The user's tag separates concurrent creations through the same peers.
    s.tag = create_group_tag_base + tag;

    // 1. The leaders swap their groups; every member learns the remote one.
    std::vector<int> remote = leader ? local_comm->group->world : std::vector<int>{};
    int err = share(s, remote);
    if (err != MPI_SUCCESS) return raise(local_comm, err, fn);
    // 2. A context id both sides agree on.
    uint32_t context = 0;
    err = allocate_context(s, &context);
    if (err != MPI_SUCCESS) return raise(local_comm, err, fn);
    // 3. The private local communicator.
    MPI_Comm local = MPI_COMM_NULL;
    err = private_copy(local_comm, &local);
    if (err != MPI_SUCCESS) {
        release_context(context);
        return raise(local_comm, err, fn);
    }
    retain(local_comm->group);
    MPI_Comm ic = make_comm(local_comm->group, make_group(std::move(remote)), context, local_comm);
    ic->local = local;
    *newintercomm = ic;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Intercomm_create)

extern "C" int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm) noexcept {
    const char *fn = "MPI_Intercomm_merge";
    if (!valid(intercomm) || !intercomm->inter) return raise(intercomm, MPI_ERR_COMM, fn);
    if (newintracomm == nullptr) return raise(intercomm, MPI_ERR_ARG, fn);
    // Learn the other side's `high` (its leader's).
    Scope s = whole(intercomm->local);
    s.bridge = intercomm->local->rank == 0 ? intercomm : MPI_COMM_NULL;
    s.remote_leader = 0;
    std::vector<int> flag{high ? 1 : 0};
    int err = share(s, flag);
    if (err != MPI_SUCCESS) return raise(intercomm, err, fn);
    if (flag.size() != 1) return raise(intercomm, MPI_ERR_INTERN, fn);
    const bool my_high = high != 0, their_high = flag[0] != 0;
    // Low side first; on a tie the side whose leader comes first (the lower
    // world rank within a job; alike on both sides of two jobs).
    bool me_first = my_high != their_high
        ? !my_high
        : ftmpi::p2p::process_before(intercomm->group->world[0], intercomm->remote->world[0]);
    uint32_t context = 0;
    err = allocate_context(intercomm, &context);
    if (err != MPI_SUCCESS) return raise(intercomm, err, fn);
    std::vector<int> world = me_first ? intercomm->group->world : intercomm->remote->world;
    const auto &second = me_first ? intercomm->remote->world : intercomm->group->world;
    world.insert(world.end(), second.begin(), second.end());
    *newintracomm = make_comm(make_group(std::move(world)), nullptr, context, intercomm);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Intercomm_merge)
