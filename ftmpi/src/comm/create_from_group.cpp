// MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups (MPI-4.0
// §7.4.2, §7.6.2) without sessions: groups of processes of MPI_COMM_WORLD
// (from MPI_Comm_group and the group constructors). The new communicator
// is made as MPI_Comm_create_group over MPI_COMM_WORLD would make it, with
// a tag derived from the string tag; the intercommunicator joins two such
// communicators through MPI_COMM_WORLD as the leaders' peer communicator.
// Then the given error handler and info are attached.
#include "../internal/errors.hpp"
#include "../internal/pmpi.hpp"
#include "agree.hpp"
#include "objects.hpp"

#include <climits>
#include <cstdint>

namespace ftmpi::comm {
namespace {

// FNV-1a of the string tag, as a user tag (0..MPI_TAG_UB, the range
// MPI_Comm_create_group reserves above create_group_tag_base). Two string
// tags with one hash are told apart only by their groups: the standard asks
// for distinct tags on concurrent creations over overlapping groups, and a
// collision of those is as unlikely as 1 in 2^28.
int tag_of(const char *stringtag) {
    constexpr std::uint32_t user_tags = 0x10000000;  // MPI_TAG_UB + 1
    std::uint32_t h = 2166136261u;
    for (const char *c = stringtag; *c != '\0'; ++c) h = (h ^ static_cast<unsigned char>(*c)) * 16777619u;
    return static_cast<int>(h % user_tags);
}

int check(MPI_Group group, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler, MPI_Comm *newcomm) {
    if (!valid(group)) return MPI_ERR_GROUP;
    if (stringtag == nullptr || newcomm == nullptr) return MPI_ERR_ARG;
    if (info != MPI_INFO_NULL && !valid(info)) return MPI_ERR_INFO;
    if (errhandler == MPI_ERRHANDLER_NULL) return MPI_ERR_ARG;
    return MPI_SUCCESS;
}

// The error handler and info the caller gave the new communicator.
int attach(MPI_Comm comm, MPI_Info info, MPI_Errhandler errhandler) {
    if (comm == MPI_COMM_NULL) return MPI_SUCCESS;
    if (int e = PMPI_Comm_set_errhandler(comm, errhandler)) return e;
    return info == MPI_INFO_NULL ? MPI_SUCCESS : PMPI_Comm_set_info(comm, info);
}

// A rank of `group` as a rank of MPI_COMM_WORLD (MPI_UNDEFINED if none).
int world_rank_of_member(MPI_Group group, int rank) {
    MPI_Group world = MPI_GROUP_NULL;
    int out = MPI_UNDEFINED;
    if (PMPI_Comm_group(MPI_COMM_WORLD, &world) != MPI_SUCCESS) return MPI_UNDEFINED;
    PMPI_Group_translate_ranks(group, 1, &rank, world, &out);
    PMPI_Group_free(&world);
    return out;
}

}  // namespace
}  // namespace ftmpi::comm

using namespace ftmpi::comm;

// A process outside `group` gets MPI_COMM_NULL; a member outside
// MPI_COMM_WORLD (a spawned process's parents) is MPI_ERR_GROUP.
extern "C" int MPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                                          MPI_Errhandler errhandler, MPI_Comm *newcomm) noexcept {
    const char *fn = "MPI_Comm_create_from_group";
    if (int e = check(group, stringtag, info, errhandler, newcomm)) return raise_through(errhandler, e, fn);
    // Errors of the creation itself are raised there.
    if (int e = PMPI_Comm_create_group(MPI_COMM_WORLD, group, tag_of(stringtag), newcomm)) return e;
    // A group from a session's process set: buffered sends on the new
    // communicator fall back to the session's buffer.
    if (*newcomm != MPI_COMM_NULL) (*newcomm)->session_bsend_buffer = group->session_bsend_buffer;
    return raise(MPI_COMM_NULL, attach(*newcomm, info, errhandler), fn);
}
FTMPI_PMPI(Comm_create_from_group)

extern "C" int MPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                                int remote_leader, const char *stringtag, MPI_Info info,
                                                MPI_Errhandler errhandler, MPI_Comm *newintercomm) noexcept {
    const char *fn = "MPI_Intercomm_create_from_groups";
    if (int e = check(local_group, stringtag, info, errhandler, newintercomm)) return raise_through(errhandler, e, fn);
    if (!valid(remote_group)) return raise_through(errhandler, MPI_ERR_GROUP, fn);
    int local_size = 0, remote_size = 0, my_rank = MPI_UNDEFINED;
    PMPI_Group_size(local_group, &local_size);
    PMPI_Group_size(remote_group, &remote_size);
    PMPI_Group_rank(local_group, &my_rank);
    if (my_rank == MPI_UNDEFINED) return raise_through(errhandler, MPI_ERR_GROUP, fn);  // the caller is in local_group
    if (local_leader < 0 || local_leader >= local_size || remote_leader < 0 || remote_leader >= remote_size)
        return raise(MPI_COMM_NULL, MPI_ERR_RANK, fn);
    const int remote_world = world_rank_of_member(remote_group, remote_leader);
    if (remote_world == MPI_UNDEFINED) return raise(MPI_COMM_NULL, MPI_ERR_GROUP, fn);
    const int tag = tag_of(stringtag);
    MPI_Comm local = MPI_COMM_NULL;
    if (int e = PMPI_Comm_create_group(MPI_COMM_WORLD, local_group, tag, &local)) return e;
    const int e = PMPI_Intercomm_create(local, local_leader, MPI_COMM_WORLD, remote_world, tag, newintercomm);
    PMPI_Comm_free(&local);
    if (e != MPI_SUCCESS) return e;
    return raise(MPI_COMM_NULL, attach(*newintercomm, info, errhandler), fn);
}
FTMPI_PMPI(Intercomm_create_from_groups)
