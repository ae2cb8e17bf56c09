// Group queries and the group algebra (MPI-3.1 §6.3). Groups
// are ordered lists of world ranks; every constructor keeps the order the
// standard prescribes.
#include "../internal/errors.hpp"
#include "../internal/pmpi.hpp"
#include "objects.hpp"

#include <algorithm>
#include <unordered_set>

using namespace ftmpi::comm;

namespace {
int size_of(MPI_Group g) {
    return static_cast<int>(g->world.size());
}

bool contains(const std::unordered_set<int> &set, int world) {
    return set.count(world) != 0;
}

// The processes of a group: gaps (world rank -1, BLANK) are not processes,
// so the set algebra never matches one gap with another.
std::unordered_set<int> world_set(MPI_Group g) {
    std::unordered_set<int> set;
    for (int w : g->world)
        if (w >= 0) set.insert(w);
    return set;
}

// Ranges as MPI_Group_range_incl/excl take them, expanded in order; false
// when a range names a rank outside the group or has a zero stride.
bool expand_ranges(MPI_Group g, int n, int ranges[][3], std::vector<int> &out) {
    const int size = size_of(g);
    for (int i = 0; i < n; ++i) {
        const int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (stride == 0 || first < 0 || first >= size || last < 0 || last >= size) return false;
        if ((stride > 0 && first > last) || (stride < 0 && first < last)) continue;  // empty range
        for (long r = first; stride > 0 ? r <= last : r >= last; r += stride) out.push_back(static_cast<int>(r));
    }
    return true;
}

// Distinct ranks of the group, each in [0, size).
bool valid_rank_list(MPI_Group g, int n, const int ranks[]) {
    std::vector<char> seen(static_cast<size_t>(size_of(g)), 0);
    for (int i = 0; i < n; ++i) {
        if (ranks[i] < 0 || ranks[i] >= size_of(g) || seen[static_cast<size_t>(ranks[i])]) return false;
        seen[static_cast<size_t>(ranks[i])] = 1;
    }
    return true;
}

int incl(MPI_Group g, const std::vector<int> &ranks, MPI_Group *out) {
    std::vector<int> world;
    world.reserve(ranks.size());
    for (int r : ranks) world.push_back(g->world[static_cast<size_t>(r)]);
    *out = make_group(std::move(world));
    return MPI_SUCCESS;
}

int excl(MPI_Group g, const std::vector<int> &ranks, MPI_Group *out) {
    std::vector<char> drop(static_cast<size_t>(size_of(g)), 0);
    for (int r : ranks) drop[static_cast<size_t>(r)] = 1;
    std::vector<int> world;
    for (size_t i = 0; i < g->world.size(); ++i)
        if (!drop[i]) world.push_back(g->world[i]);
    *out = make_group(std::move(world));
    return MPI_SUCCESS;
}
}  // namespace

extern "C" int MPI_Group_size(MPI_Group group, int *size) noexcept {
    if (!valid(group)) return raise(MPI_COMM_NULL, MPI_ERR_GROUP, "MPI_Group_size");
    if (size == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_size");
    *size = size_of(group);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Group_size)

extern "C" int MPI_Group_rank(MPI_Group group, int *rank) noexcept {
    if (!valid(group)) return raise(MPI_COMM_NULL, MPI_ERR_GROUP, "MPI_Group_rank");
    if (rank == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_rank");
    *rank = group->rank;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Group_rank)

extern "C" int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                                         int ranks2[]) noexcept {
    const char *fn = "MPI_Group_translate_ranks";
    if (!valid(group1) || !valid(group2)) return raise(MPI_COMM_NULL, MPI_ERR_GROUP, fn);
    if (n < 0 || (n > 0 && (ranks1 == nullptr || ranks2 == nullptr))) return raise(MPI_COMM_NULL, MPI_ERR_ARG, fn);
    for (int i = 0; i < n; ++i) {
        if (ranks1[i] == MPI_PROC_NULL) continue;
        if (ranks1[i] < 0 || ranks1[i] >= size_of(group1)) return raise(MPI_COMM_NULL, MPI_ERR_RANK, fn);
    }
    for (int i = 0; i < n; ++i) {
        if (ranks1[i] == MPI_PROC_NULL) {
            ranks2[i] = MPI_PROC_NULL;
            continue;
        }
        const int world = group1->world[static_cast<size_t>(ranks1[i])];
        if (world < 0) {  // a gap (BLANK) is in no group
            ranks2[i] = MPI_UNDEFINED;
            continue;
        }
        auto it = std::find(group2->world.begin(), group2->world.end(), world);
        ranks2[i] = it == group2->world.end() ? MPI_UNDEFINED : static_cast<int>(it - group2->world.begin());
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Group_translate_ranks)

extern "C" int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result) noexcept {
    if (!valid(group1) || !valid(group2)) return raise(MPI_COMM_NULL, MPI_ERR_GROUP, "MPI_Group_compare");
    if (result == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_compare");
    if (group1->world == group2->world) {
        *result = MPI_IDENT;
    } else {
        auto a = group1->world, b = group2->world;
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        *result = a == b ? MPI_SIMILAR : MPI_UNEQUAL;
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Group_compare)

extern "C" int MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup) noexcept {
    if (!valid(group1) || !valid(group2)) return raise(MPI_COMM_NULL, MPI_ERR_GROUP, "MPI_Group_union");
    if (newgroup == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_union");
    // All of group1 in its order, then group2's others in theirs.
    std::vector<int> world = group1->world;
    const auto in1 = world_set(group1);
    for (int w : group2->world)
        if (w >= 0 && !contains(in1, w)) world.push_back(w);
    *newgroup = make_group(std::move(world));
    return MPI_SUCCESS;
}
FTMPI_PMPI(Group_union)

extern "C" int MPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup) noexcept {
    if (!valid(group1) || !valid(group2)) return raise(MPI_COMM_NULL, MPI_ERR_GROUP, "MPI_Group_intersection");
    if (newgroup == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_intersection");
    const auto in2 = world_set(group2);
    std::vector<int> world;
    for (int w : group1->world)
        if (w >= 0 && contains(in2, w)) world.push_back(w);
    *newgroup = make_group(std::move(world));
    return MPI_SUCCESS;
}
FTMPI_PMPI(Group_intersection)

extern "C" int MPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup) noexcept {
    if (!valid(group1) || !valid(group2)) return raise(MPI_COMM_NULL, MPI_ERR_GROUP, "MPI_Group_difference");
    if (newgroup == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_difference");
    const auto in2 = world_set(group2);
    std::vector<int> world;
    for (int w : group1->world)
        if (w >= 0 && !contains(in2, w)) world.push_back(w);
    *newgroup = make_group(std::move(world));
    return MPI_SUCCESS;
}
FTMPI_PMPI(Group_difference)

extern "C" int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup) noexcept {
    if (!valid(group)) return raise(MPI_COMM_NULL, MPI_ERR_GROUP, "MPI_Group_incl");
    if (newgroup == nullptr || n < 0 || (n > 0 && ranks == nullptr))
        return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_incl");
    if (!valid_rank_list(group, n, ranks)) return raise(MPI_COMM_NULL, MPI_ERR_RANK, "MPI_Group_incl");
    return incl(group, std::vector<int>(ranks, ranks + n), newgroup);
}
FTMPI_PMPI(Group_incl)

extern "C" int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup) noexcept {
    if (!valid(group)) return raise(MPI_COMM_NULL, MPI_ERR_GROUP, "MPI_Group_excl");
    if (newgroup == nullptr || n < 0 || (n > 0 && ranks == nullptr))
        return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_excl");
    if (!valid_rank_list(group, n, ranks)) return raise(MPI_COMM_NULL, MPI_ERR_RANK, "MPI_Group_excl");
    return excl(group, std::vector<int>(ranks, ranks + n), newgroup);
}
FTMPI_PMPI(Group_excl)

extern "C" int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup) noexcept {
    if (!valid(group)) return raise(MPI_COMM_NULL, MPI_ERR_GROUP, "MPI_Group_range_incl");
    if (newgroup == nullptr || n < 0 || (n > 0 && ranges == nullptr))
        return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_range_incl");
    std::vector<int> ranks;
    if (!expand_ranges(group, n, ranges, ranks) ||
        !valid_rank_list(group, static_cast<int>(ranks.size()), ranks.data()))
        return raise(MPI_COMM_NULL, MPI_ERR_RANK, "MPI_Group_range_incl");
    return incl(group, ranks, newgroup);
}
FTMPI_PMPI(Group_range_incl)

extern "C" int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup) noexcept {
    if (!valid(group)) return raise(MPI_COMM_NULL, MPI_ERR_GROUP, "MPI_Group_range_excl");
    if (newgroup == nullptr || n < 0 || (n > 0 && ranges == nullptr))
        return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_range_excl");
    std::vector<int> ranks;
    if (!expand_ranges(group, n, ranges, ranks) ||
        !valid_rank_list(group, static_cast<int>(ranks.size()), ranks.data()))
        return raise(MPI_COMM_NULL, MPI_ERR_RANK, "MPI_Group_range_excl");
    return excl(group, ranks, newgroup);
}
FTMPI_PMPI(Group_range_excl)

extern "C" int MPI_Group_free(MPI_Group *group) noexcept {
    if (group == nullptr || !valid(*group)) return raise(MPI_COMM_NULL, MPI_ERR_GROUP, "MPI_Group_free");
    release(*group);
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Group_free)

extern "C" int MPI_Comm_group(MPI_Comm comm, MPI_Group *group) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_group");
    if (group == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_group");
    retain(comm->group);
    *group = comm->group;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Comm_group)

extern "C" int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group) noexcept {
    if (!valid(comm) || !comm->inter) return raise(comm, MPI_ERR_COMM, "MPI_Comm_remote_group");
    if (group == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_remote_group");
    retain(comm->remote);
    *group = comm->remote;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Comm_remote_group)
