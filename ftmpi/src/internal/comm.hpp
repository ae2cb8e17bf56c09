// Groups and communicators as the other parts of
// libftmpi see them.
//
// A communicator is a context id plus a group (and a remote group for an
// intercommunicator). p2p sends name the destination by its rank in the
// communicator and translate it with world_rank_of(); receives report the
// source with comm_rank_of_world(). The structs are plain so that the
// fault-tolerance state (ft.hpp) can sit at the end of
// ftmpi_comm_s without touching the fields above it.
#pragma once

#include "bsend_buffer.hpp"
#include "ft.hpp"
#include "mpi.h"
#include "predefined_storage.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ftmpi::comm {
struct Topology;  // Cartesian or graph layout, defined in src/comm/topology.hpp
}
namespace ftmpi::part {
struct CommMatching;  // partitioned requests' matching state, src/part/matching.hpp
}
namespace ftmpi::coll::node {
struct State;  // the shared-memory collectives' segment, src/coll/node_state.hpp
}

struct ftmpi_group_s {
    std::vector<int> world;    // group rank -> world rank
    int rank = MPI_UNDEFINED;  // this process's rank in the group
    std::atomic<int> refs{1};
    // A group from MPI_Group_from_session_pset: its session's buffer for
    // buffered sends, passed on to communicators made from the group.
    std::shared_ptr<ftmpi::p2p::BsendBuffer> session_bsend_buffer;
};

struct ftmpi_comm_s {
    uint32_t context = 0;        // point-to-point context id;
                                 // context + 1 is the collective context
    MPI_Group group = nullptr;   // local group
    MPI_Group remote = nullptr;  // remote group (intercommunicators), else null
    int rank = MPI_UNDEFINED, size = 0;
    bool inter = false;
    MPI_Errhandler errhandler = nullptr;
    std::string name;
    std::map<int, void *> attributes;                 // keyval -> value (comm part manages)
    std::vector<int> attribute_order;                 // keyvals in the order they were set: deleted in reverse
    std::shared_ptr<ftmpi::comm::Topology> topology;  // null unless Cart/Graph
    std::atomic<int> refs{1};
    // Intercommunicators: a private intracommunicator over the local group,
    // through which the comm part agrees on context ids (dup, merge).
    MPI_Comm local = nullptr;
    MPI_Info info = nullptr;  // hints from Comm_set_info / dup_with_info
    // MPI_Comm_idup calls on this communicator so far: every member counts
    // the same (collective order), so the n-th idup's agreement has tags of
    // its own and runs beside the program's other collectives.
    uint32_t idups_started = 0;
    // Collective calls on this communicator so far: the next one's tag
    // (coll/tags.hpp). Atomic because threads may start collectives on
    // different communicators, and a recovery resets it.
    std::atomic<uint32_t> collectives_started{0};
    // Persistent collectives initialised on this communicator so far: their
    // tags come from a range of their own (coll/tags.hpp).
    std::atomic<uint32_t> persistent_inits{0};
    // Buffered sends (internal/bsend_buffer.hpp): the buffer attached to this
    // communicator (null until the first MPI_Comm_attach_buffer), and that
    // of the session it was made from (null for the world model's).
    std::shared_ptr<ftmpi::p2p::BsendBuffer> bsend_buffer;
    std::shared_ptr<ftmpi::p2p::BsendBuffer> session_bsend_buffer;
    // Partitioned communication (src/part/matching.hpp): the order of the
    // MPI_Psend_init/MPI_Precv_init calls on this communicator, by which
    // they match; null until the first one.
    std::shared_ptr<ftmpi::part::CommMatching> partitioned;
    // Shared-memory collectives (src/coll/node.hpp): null until the first
    // call that picks them.
    std::shared_ptr<ftmpi::coll::node::State> coll_node;
    // Fault tolerance: modes, revocation, acknowledgements (ft.hpp).
    ftmpi::ft::CommFt ft;
};

// The fixed-size storage of MPI_COMM_WORLD, MPI_COMM_SELF and MPI_GROUP_EMPTY
// (internal/predefined_storage.hpp).
FTMPI_PREDEFINED_STORAGE(ftmpi_predefined_comm_u, ftmpi_comm_s, 1024);
FTMPI_PREDEFINED_STORAGE(ftmpi_predefined_group_u, ftmpi_group_s, 256);

namespace ftmpi::comm {
// For a send's dest: the world rank of `rank` in comm (in the remote group on
// an intercommunicator); -1 when rank is out of range.
int world_rank_of(MPI_Comm, int rank);
// For a receive's status.MPI_SOURCE: the rank in comm (remote group on an
// intercommunicator) of world rank `world`, MPI_UNDEFINED if absent.
int comm_rank_of_world(MPI_Comm, int world);
// Collective over parent (every member must call it): an agreement on the
// highest context id any member has seen, +2. Returns a fresh even id, or 0
// when a member failed (use the overload below to get the error code).
uint32_t allocate_context(MPI_Comm parent);
// The same, returning an MPI error code (MPIX_ERR_PROC_FAILED when a member
// failed during the agreement) and the id in *context on success.
int allocate_context(MPI_Comm parent, uint32_t *context);

// Dynamic processes: two groups that share no communicator yet.
// A bridge is an intercommunicator of this process and one other on
// bridge_context, which context allocation never hands out, so two leaders
// can talk before anything is agreed.
constexpr uint32_t bridge_context = 0xfffffff0u;
MPI_Comm make_bridge(int other_world);
// Collective over local_comm, and over the other side's comm through the two
// leaders (MPI_Intercomm_create without a peer communicator): the leader
// names the other side's leader by its world rank; `tag` (0..0x3fffffff)
// tells apart bridges between the same two leaders. *out: the new
// intercommunicator, local group first. Returns an MPI code.
// `as_seen_remotely`, when given, is the local group in the other side's
// numbering (processes of another job, dynamic/foreign.cpp); otherwise the
// two sides share the world numbering.
int connect_groups(MPI_Comm local_comm, int local_leader, int remote_leader_world, int tag, MPI_Comm *out,
                   const std::vector<int> *as_seen_remotely = nullptr);
// Collective over an intracommunicator: every member's `len` bytes reach
// every member, in comm rank order (`all` holds size * len bytes). The
// members use collective-channel tags tag..tag+2. An MPI code.
int gather_to_all(MPI_Comm comm, int root, int tag, const void *mine, size_t len, std::vector<unsigned char> &all);
// Collective over an intracommunicator: `root`'s `data` reaches every
// member (MPI_Comm_spawn's outcome, known at its root). An MPI code.
int share_from_root(MPI_Comm comm, int root, std::vector<int> &data);

// Hooks for the runtime: MPI_Init calls init_world() once the world rank and
// size are known (sets up MPI_COMM_WORLD, MPI_COMM_SELF and the predefined
// attributes); MPI_Finalize calls finalize_world() before tearing the
// transport down.
// `world_rank` is this process's in the job; MPI_COMM_WORLD holds the
// world ranks world_base..world_base+world_size-1 (world_base > 0 for
// processes MPI_Comm_spawn added).
void init_world(int world_rank, int world_base, int world_size);
void finalize_world();

// True for a non-null communicator handle that has not been freed.
// MPI_COMM_WORLD and MPI_COMM_SELF answer without a lock (hot paths check
// them on every call); other handles are looked up in a registry.
bool valid(MPI_Comm);
// A pending operation that outlives MPI_Comm_free holds a reference, so the
// communicator (its groups, for status sources) stays readable until the
// operation completes: retain when it starts, release when it ends.
void retain(MPI_Comm);
void release(MPI_Comm);
// True for a non-null group handle that has not been freed.
bool valid(MPI_Group);
// True for a non-null Info handle that has not been freed (MPI_INFO_ENV too).
bool valid(MPI_Info);

// Datatype attributes are kept by the comm part beside the handle:
// MPI_Type_dup copies them through their keyvals' copy callbacks (a
// callback's error fails the dup, which then deletes what it copied);
// MPI_Type_free runs their delete callbacks. Both return an MPI code.
int copy_type_attributes(MPI_Datatype from, MPI_Datatype to);
int delete_type_attributes(MPI_Datatype);

// For fault tolerance (implemented in comm/, used by revoke and recovery):
// the live communicator with this point-to-point context id, retained (the
// caller releases it), or null; and a visit of every live communicator
// (the registry's lock is not held during `visit`: it gets retained handles).
MPI_Comm find_by_context(uint32_t context);
void for_each_comm(const std::function<void(MPI_Comm)> &visit);
// The world ranks in some live communicator's groups (local and remote):
// the processes this one is still connected to in MPI's sense, whose end
// MPI_Finalize waits for (a disconnected parent or child is not among them).
std::vector<int> connected_world_ranks();
}  // namespace ftmpi::comm
