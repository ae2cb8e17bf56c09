// The participants of a communicator's agreements (participants.hpp).
#include "participants.hpp"

#include "../internal/p2p.hpp"

namespace ftmpi::ulfm {

namespace {
// The first member's world rank, for ordering the two sides.
int first_world(MPI_Group g) {
    for (int w : g->world)
        if (w >= 0) return w;
    return -1;
}
}  // namespace

Participants participants_of(MPI_Comm comm) {
    Participants p;
    p.local_size = static_cast<int>(comm->group->world.size());
    if (!comm->inter) {
        p.worlds = comm->group->world;
        p.me = comm->rank;
        return p;
    }
    p.inter = true;
    // The same order on both sides, also when they are two jobs.
    const bool local_first = p2p::process_before(first_world(comm->group), first_world(comm->remote));
    const auto &first = local_first ? comm->group->world : comm->remote->world;
    const auto &second = local_first ? comm->remote->world : comm->group->world;
    p.worlds = first;
    p.worlds.insert(p.worlds.end(), second.begin(), second.end());
    p.local_offset = local_first ? 0 : static_cast<int>(first.size());
    p.remote_offset = local_first ? static_cast<int>(first.size()) : 0;
    p.me = p.local_offset + comm->rank;
    return p;
}

Route route_to(MPI_Comm comm, const Participants &parts, int p) {
    if (!parts.inter) return {comm, p};
    if (p >= parts.local_offset && p < parts.local_offset + parts.local_size)
        return {comm->local, p - parts.local_offset};
    return {comm, p - parts.remote_offset};
}

}  // namespace ftmpi::ulfm
