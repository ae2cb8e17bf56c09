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

#include <algorithm>

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

int gather_to_all(MPI_Comm comm, int root, int tag, const void *mine, size_t len, std::vector<unsigned char> &all) {
    if (!valid(comm) || comm->inter) return MPI_ERR_COMM;
    if (root < 0 || root >= comm->size) return MPI_ERR_ROOT;
    Scope s = led_by(comm, root);
    s.tag = tag;
    std::vector<unsigned char> led;  // in the scope's member order
    if (int err = allgather(s, mine, len, led); err != MPI_SUCCESS) return err;
    if (led.size() != s.members.size() * len || s.members.size() != static_cast<size_t>(comm->size))
        return MPI_ERR_INTERN;
    all.assign(led.size(), 0);
    for (size_t i = 0; i < s.members.size(); ++i)
        std::copy_n(led.begin() + static_cast<std::ptrdiff_t>(i * len), len,
                    all.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(s.members[i]) * len));
    return MPI_SUCCESS;
}

int connect_groups(MPI_Comm local_comm, int local_leader, int remote_leader_world, int tag, MPI_Comm *out,
                   const std::vector<int> *as_seen_remotely) {
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
    std::vector<int> remote = !leader ? std::vector<int>{}
        : as_seen_remotely != nullptr ? *as_seen_remotely
                                      : local_comm->group->world;
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
