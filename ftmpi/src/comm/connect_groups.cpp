// Two groups of processes that share no communicator become one
// intercommunicator: MPI_Comm_spawn's parents and children, MPI_Comm_accept
// and MPI_Comm_connect's two sides, MPI_Comm_join's two processes.
//
// The leaders talk over a bridge, an intercommunicator of just the two of
// them on a context id kept for bridges (no allocation ever hands it out), so
// nothing has to be agreed before they can talk. The rest is
// MPI_Intercomm_create's: the leaders swap their groups, both sides agree on
// a context id, and each side gets its private local communicator. Tags
// separate bridges between the same two processes; a message that arrives
// before its bridge exists waits in the unexpected queue like any other.
#include "../internal/comm.hpp"
#include "../internal/p2p.hpp"
#include "agree.hpp"
#include "objects.hpp"

namespace ftmpi::comm {

MPI_Comm make_bridge(int other_world) {
    return make_comm(make_group({my_world_rank()}), make_group({other_world}), bridge_context, MPI_COMM_NULL);
}

int share_from_root(MPI_Comm comm, int root, std::vector<int> &data) {
    if (!valid(comm) || comm->inter) return MPI_ERR_COMM;
    if (root < 0 || root >= comm->size) return MPI_ERR_ROOT;
    Scope s = led_by(comm, root);
    s.tag = share_tag;
    return share(s, data);
}

int connect_groups(MPI_Comm local_comm, int local_leader, int remote_leader_world, int tag, MPI_Comm *out) {
    if (!valid(local_comm) || local_comm->inter) return MPI_ERR_COMM;
    if (local_leader < 0 || local_leader >= local_comm->size) return MPI_ERR_ROOT;
    const bool leader = local_comm->rank == local_leader;
    // Members known failed take no part (a spawned process whose sibling
    // died while they started still meets its parents): only the leader
    // reads the list beyond its first entry, so its view is the one used.
    Scope s = led_by(local_comm, local_leader);
    std::erase_if(s.members, [&](int r) {
        return r != local_leader && p2p::is_failed(local_comm->group->world[static_cast<size_t>(r)]);
    });
    s.tag = tag;
    uint32_t local_context = 0;
    int err = allocate_context(s, &local_context);  // the local group's private communicator
    if (err != MPI_SUCCESS) return err;

    MPI_Comm bridge = leader ? make_bridge(remote_leader_world) : MPI_COMM_NULL;
    s.bridge = bridge;
    s.remote_leader = 0;
    std::vector<int> remote = leader ? local_comm->group->world : std::vector<int>{};
    err = share(s, remote);
    uint32_t context = 0;
    if (err == MPI_SUCCESS) err = allocate_context(s, &context);
    if (bridge != MPI_COMM_NULL) release(bridge);
    if (err != MPI_SUCCESS) {
        release_context(local_context);
        return err;
    }
    retain(local_comm->group);
    MPI_Comm local = make_comm(local_comm->group, nullptr, local_context, MPI_COMM_NULL);
    local->name = "intercommunicator local group";
    retain(local_comm->group);
    MPI_Comm ic = make_comm(local_comm->group, make_group(std::move(remote)), context, local_comm);
    ic->local = local;
    *out = ic;
    return MPI_SUCCESS;
}

}  // namespace ftmpi::comm
