// Local communicator queries: size, rank, compare, names,
// inter-ness, and the info hints kept on a communicator.
#include "../internal/cominfo.hpp"
#include "../internal/errors.hpp"
#include "../internal/pmpi.hpp"
#include "objects.hpp"

#include <algorithm>
#include <cstring>

using namespace ftmpi::comm;

extern "C" int MPI_Comm_size(MPI_Comm comm, int *size) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_size");
    if (size == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_size");
    *size = comm->size;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Comm_size)

extern "C" int MPI_Comm_rank(MPI_Comm comm, int *rank) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_rank");
    if (rank == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_rank");
    *rank = comm->rank;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Comm_rank)

extern "C" int MPI_Comm_test_inter(MPI_Comm comm, int *flag) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_test_inter");
    if (flag == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_test_inter");
    *flag = comm->inter ? 1 : 0;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Comm_test_inter)

extern "C" int MPI_Comm_remote_size(MPI_Comm comm, int *size) noexcept {
    if (!valid(comm) || !comm->inter) return raise(comm, MPI_ERR_COMM, "MPI_Comm_remote_size");
    if (size == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_remote_size");
    *size = static_cast<int>(comm->remote->world.size());
    return MPI_SUCCESS;
}
FTMPI_PMPI(Comm_remote_size)

namespace {
// IDENT/SIMILAR/UNEQUAL of two groups, as MPI_Group_compare.
int compare_groups(MPI_Group a, MPI_Group b) {
    if (a->world == b->world) return MPI_IDENT;
    auto x = a->world, y = b->world;
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    return x == y ? MPI_SIMILAR : MPI_UNEQUAL;
}
}  // namespace

extern "C" int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result) noexcept {
    if (!valid(comm1)) return raise(comm1, MPI_ERR_COMM, "MPI_Comm_compare");
    if (!valid(comm2)) return raise(comm2, MPI_ERR_COMM, "MPI_Comm_compare");
    if (result == nullptr) return raise(comm1, MPI_ERR_ARG, "MPI_Comm_compare");
    if (comm1 == comm2) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    if (comm1->inter != comm2->inter) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    int local = compare_groups(comm1->group, comm2->group);
    if (comm1->inter) local = std::max(local, compare_groups(comm1->remote, comm2->remote));
    // Same members in the same order but another context: congruent.
    *result = local == MPI_IDENT ? MPI_CONGRUENT : local;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Comm_compare)

extern "C" int MPI_Comm_set_name(MPI_Comm comm, const char *comm_name) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_set_name");
    if (comm_name == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_set_name");
    // Longer names are truncated, as the standard allows.
    comm->name.assign(comm_name, strnlen(comm_name, MPI_MAX_OBJECT_NAME - 1));
    ftmpi::cominfo::named(comm, comm->name);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Comm_set_name)

extern "C" int MPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_get_name");
    if (comm_name == nullptr || resultlen == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_get_name");
    std::memcpy(comm_name, comm->name.c_str(), comm->name.size() + 1);
    *resultlen = static_cast<int>(comm->name.size());
    return MPI_SUCCESS;
}
FTMPI_PMPI(Comm_get_name)

extern "C" int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_set_info");
    if (!valid(info)) return raise(comm, MPI_ERR_INFO, "MPI_Comm_set_info");
    auto *copy = new (std::nothrow) ftmpi_info_s;
    if (copy == nullptr) return raise(comm, MPI_ERR_NO_MEM, "MPI_Comm_set_info");
    copy->entries = info->entries;
    delete comm->info;
    comm->info = copy;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Comm_set_info)

extern "C" int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_get_info");
    if (info_used == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_get_info");
    auto *copy = new (std::nothrow) ftmpi_info_s;
    if (copy == nullptr) return raise(comm, MPI_ERR_NO_MEM, "MPI_Comm_get_info");
    if (comm->info != nullptr) copy->entries = comm->info->entries;
    register_object(copy);
    *info_used = copy;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Comm_get_info)
