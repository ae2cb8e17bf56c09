// MPI_Comm_split and MPI_Comm_split_type: one allgather of
// (color, key) records, one context id for all the new communicators (they
// are disjoint, so each process holds only one of them).
#include "../internal/errors.hpp"
#include "../internal/ft.hpp"
#include "../internal/pmpi.hpp"
#include "agree.hpp"
#include "intercomm_split.hpp"
#include "objects.hpp"

#include <algorithm>
#include <cstring>

using namespace ftmpi::comm;

namespace {
// One member's wish; colors are compared as bytes so a host name can be one.
struct Wish {
    int32_t state;  // 0 join `color`, 1 MPI_UNDEFINED, 2 invalid arguments
    int32_t key;
    char color[72];
};
constexpr int32_t join = 0, undefined = 1, invalid = 2;

int split_by(MPI_Comm comm, const Wish &mine, MPI_Comm *newcomm) {
    std::vector<unsigned char> all;
    const Scope everyone = whole(comm);
    int err = allgather(everyone, &mine, sizeof mine, all);
    if (err != MPI_SUCCESS) return err;
    // One record per member; a gap (BLANK) joins nothing.
    std::vector<Wish> wishes(static_cast<size_t>(comm->size));
    for (Wish &w : wishes) w.state = undefined;
    for (size_t i = 0; i < everyone.members.size(); ++i)
        std::memcpy(&wishes[static_cast<size_t>(everyone.members[i])], all.data() + i * sizeof(Wish), sizeof(Wish));
    for (const Wish &w : wishes)
        if (w.state == invalid) return MPI_ERR_ARG;  // everyone fails alike, nobody waits

    uint32_t context = 0;
    err = allocate_context(comm, &context);
    if (err != MPI_SUCCESS) return err;
    if (mine.state == undefined) {
        release_context(context);
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    // Members of my color ordered by key, ties by rank in comm.
    std::vector<std::pair<int, int>> order;  // (key, rank)
    for (int r = 0; r < comm->size; ++r) {
        const Wish &w = wishes[static_cast<size_t>(r)];
        if (w.state == join && std::memcmp(w.color, mine.color, sizeof w.color) == 0) order.emplace_back(w.key, r);
    }
    std::stable_sort(order.begin(), order.end());
    std::vector<int> world;
    for (const auto &[key, r] : order) world.push_back(comm->group->world[static_cast<size_t>(r)]);
    *newcomm = make_comm(make_group(std::move(world)), nullptr, context, comm);
    return MPI_SUCCESS;
}
}  // namespace

int ftmpi::comm::split_comm(MPI_Comm comm, int color, int key, MPI_Comm *newcomm) {
    Wish w{};
    w.key = key;
    w.state = color == MPI_UNDEFINED ? undefined : color < 0 ? invalid : join;
    std::memcpy(w.color, &color, sizeof color);
    return split_by(comm, w, newcomm);
}

extern "C" int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_split");
    if (newcomm == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_split");
    if (comm->inter) return raise(comm, split_intercomm(comm, color, key, newcomm), "MPI_Comm_split");
    if (int err = MPI_SUCCESS; ftmpi::ft::recover_if_needed(comm, newcomm, &err))
        return raise(comm, err, "MPI_Comm_split");
    return raise(comm, split_comm(comm, color, key, newcomm), "MPI_Comm_split");
}
FTMPI_PMPI(Comm_split)

extern "C" int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_split_type");
    if (comm->inter) return raise(comm, MPI_ERR_COMM, "MPI_Comm_split_type");
    if (newcomm == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_split_type");
    if (info != MPI_INFO_NULL && !valid(info)) return raise(comm, MPI_ERR_INFO, "MPI_Comm_split_type");
    if (int err = MPI_SUCCESS; ftmpi::ft::recover_if_needed(comm, newcomm, &err))
        return raise(comm, err, "MPI_Comm_split_type");
    Wish w{};
    w.key = key;
    if (split_type == MPI_COMM_TYPE_SHARED) {
        // Processes that can share memory: the ones on this host.
        w.state = join;
        const std::string host = host_name();
        std::memcpy(w.color, host.data(), std::min(host.size(), sizeof w.color - 1));
    } else {
        w.state = split_type == MPI_UNDEFINED ? undefined : invalid;
    }
    return raise(comm, split_by(comm, w, newcomm), "MPI_Comm_split_type");
}
FTMPI_PMPI(Comm_split_type)
