// A communicator's failed and acknowledged members (failed_members.hpp).
#include "failed_members.hpp"
#include "participants.hpp"

#include "../comm/objects.hpp"
#include "../internal/ft.hpp"

#include <algorithm>

namespace ftmpi::ulfm {

std::vector<FailedMember> failed_members(MPI_Comm comm) {
    std::vector<FailedMember> out;
    const auto &world = comm->group->world;
    for (size_t i = 0; i < world.size(); ++i) {
        const int w = world[i];
        if (w < 0 || !ft::member_failed(comm, w)) continue;  // a BLANK gap is not a member
        out.push_back({static_cast<int>(i), w, ft::failure_index(w)});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const FailedMember &a, const FailedMember &b) { return a.index < b.index; });
    return out;
}

std::vector<FailedMember> failed_participants(MPI_Comm comm) {
    const Participants parts = participants_of(comm);
    std::vector<FailedMember> out;
    for (size_t p = 0; p < parts.worlds.size(); ++p) {
        const int w = parts.worlds[p];
        if (w >= 0 && ft::member_failed(comm, w)) out.push_back({static_cast<int>(p), w, ft::failure_index(w)});
    }
    return out;
}

bool acknowledged(MPI_Comm comm, const FailedMember &m) {
    // index -1: an older incarnation that was replaced (REBUILD) — nothing left to acknowledge.
    return m.index < 0 || static_cast<uint64_t>(m.index) < comm->ft.acked_upto.load(std::memory_order_acquire);
}

MPI_Group group_of(const std::vector<FailedMember> &members) {
    std::vector<int> world;
    world.reserve(members.size());
    for (const FailedMember &m : members) world.push_back(m.world);
    return comm::make_group(std::move(world));
}

}  // namespace ftmpi::ulfm
