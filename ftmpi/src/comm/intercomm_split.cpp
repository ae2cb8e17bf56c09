// MPI_Comm_split and MPI_Comm_create on an intercommunicator (MPI-3.1
// §6.4.2): each new intercommunicator joins the processes of one colour on
// both sides, its local group from this side and its remote group from the
// other; a colour that one side lacks gives MPI_COMM_NULL.
//
// Every member's (colour, key) is gathered on its own side over the private
// local intracommunicator, and the two leaders swap their sides' tables, so
// every process sees both. The new local groups come from a split of the
// private local communicator (which gives them their own private
// communicators), and one context id, agreed by both sides, serves every new
// intercommunicator (they are disjoint).
#include "intercomm_split.hpp"

#include "agree.hpp"
#include "objects.hpp"

#include <algorithm>
#include <cstring>

namespace ftmpi::comm {

namespace {

// One member's wish, as ints so that the leaders' swap (share) carries it.
struct SideWish {
    int32_t color;
    int32_t key;
};

// A colour no caller may pass (negative, not MPI_UNDEFINED).
constexpr int kInvalidColor = -2;
static_assert(kInvalidColor != MPI_UNDEFINED);

bool is_invalid_color(int color) {
    return color < 0 && color != MPI_UNDEFINED;
}

// The wishes of this side (in local rank order) and of the other side (in
// remote rank order). A member left out of a BLANK group wishes nothing.
int exchange_wishes(MPI_Comm ic, SideWish mine, std::vector<SideWish> &local, std::vector<SideWish> &remote) {
    const Scope side = whole(ic->local);
    std::vector<unsigned char> gathered;
    int err = allgather(side, &mine, sizeof mine, gathered);
    if (err != MPI_SUCCESS) return err;
    local.assign(static_cast<size_t>(ic->local->size), SideWish{MPI_UNDEFINED, 0});
    for (size_t i = 0; i < side.members.size(); ++i)
        std::memcpy(&local[static_cast<size_t>(side.members[i])], gathered.data() + i * sizeof(SideWish),
                    sizeof(SideWish));

    Scope bridged = side;
    bridged.bridge = ic->local->rank == side.members.front() ? ic : MPI_COMM_NULL;
    bridged.remote_leader = 0;
    std::vector<int> table;
    for (const SideWish &w : local) {
        table.push_back(w.color);
        table.push_back(w.key);
    }
    err = share(bridged, table);
    if (err != MPI_SUCCESS) return err;
    if (table.size() != 2 * ic->remote->world.size()) return MPI_ERR_INTERN;
    remote.clear();
    for (size_t i = 0; i < table.size(); i += 2) remote.push_back(SideWish{table[i], table[i + 1]});
    return MPI_SUCCESS;
}

// World ranks of the other side's members of `color`, ordered by key, ties
// by remote rank.
std::vector<int> remote_members(MPI_Comm ic, const std::vector<SideWish> &remote, int color) {
    std::vector<std::pair<int, int>> order;  // (key, remote rank)
    for (size_t r = 0; r < remote.size(); ++r)
        if (remote[r].color == color) order.emplace_back(remote[r].key, static_cast<int>(r));
    std::stable_sort(order.begin(), order.end());
    std::vector<int> world;
    for (const auto &[key, r] : order) world.push_back(ic->remote->world[static_cast<size_t>(r)]);
    return world;
}

}  // namespace

int split_intercomm(MPI_Comm ic, int color, int key, MPI_Comm *newcomm) {
    std::vector<SideWish> local, remote;
    int err = exchange_wishes(ic, SideWish{color, key}, local, remote);
    if (err != MPI_SUCCESS) return err;
    // Both sides see both tables, so every process fails alike.
    for (const auto *side : {&local, &remote})
        for (const SideWish &w : *side)
            if (is_invalid_color(w.color)) return MPI_ERR_ARG;

    uint32_t context = 0;
    err = allocate_context(ic, &context);
    if (err != MPI_SUCCESS) return err;
    MPI_Comm new_local = MPI_COMM_NULL;
    err = split_comm(ic->local, color, key, &new_local);
    if (err != MPI_SUCCESS) {
        release_context(context);
        return err;
    }
    std::vector<int> remote_world = color == MPI_UNDEFINED ? std::vector<int>{} : remote_members(ic, remote, color);
    if (new_local == MPI_COMM_NULL || remote_world.empty()) {
        if (new_local != MPI_COMM_NULL) release(new_local);
        release_context(context);
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    new_local->name = "intercommunicator local group";
    retain(new_local->group);
    MPI_Comm made = make_comm(new_local->group, make_group(std::move(remote_world)), context, ic);
    made->local = new_local;
    *newcomm = made;
    return MPI_SUCCESS;
}

int create_intercomm(MPI_Comm ic, MPI_Group group, MPI_Comm *newcomm) {
    // The group names members of the local group: each one joins colour 0
    // at its place in the group; every other process joins nothing. A group
    // with an outsider is wished as an invalid colour, so that the other
    // side fails too instead of waiting.
    const auto &local_world = ic->group->world;
    bool outsider = false;
    for (int w : group->world)
        if (w >= 0 && std::find(local_world.begin(), local_world.end(), w) == local_world.end()) outsider = true;
    const bool member = group->rank != MPI_UNDEFINED;
    const int color = outsider ? kInvalidColor : member ? 0 : MPI_UNDEFINED;
    const int err = split_intercomm(ic, color, member ? group->rank : 0, newcomm);
    return outsider && err == MPI_ERR_ARG ? MPI_ERR_GROUP : err;
}

}  // namespace ftmpi::comm
