// What every collective binding does around its algorithm: check the
// arguments (errors go through the communicator's error handler via
// comm::raise, in this one place), build the schedule, then run it (blocking)
// or hand it to the progress engine (non-blocking).
#pragma once

#include "internal/comm.hpp"
#include "internal/datatype.hpp"
#include "internal/errors.hpp"
#include "internal/op.hpp"
#include "internal/p2p.hpp"
#include "internal/pmpi.hpp"
#include "mpi-ext.h"
#include "schedule.hpp"

#include <memory>
#include <new>
#include <optional>
#include <utility>

namespace ftmpi::coll {

inline int check_comm(MPI_Comm comm) {
    return comm::valid(comm) ? MPI_SUCCESS : MPI_ERR_COMM;
}

inline int check_data(int count, MPI_Datatype type) {
    if (count < 0) return MPI_ERR_COUNT;
    if (!dt::valid(type)) return MPI_ERR_TYPE;
    return MPI_SUCCESS;
}

inline int check_counts(int n, const int counts[], MPI_Datatype type) {
    if (!dt::valid(type)) return MPI_ERR_TYPE;
    if (n > 0 && counts == nullptr) return MPI_ERR_ARG;
    for (int i = 0; i < n; ++i)
        if (counts[i] < 0) return MPI_ERR_COUNT;
    return MPI_SUCCESS;
}

inline int check_op(MPI_Op op, MPI_Datatype type) {
    if (op == MPI_OP_NULL || !op::valid(op, type)) return MPI_ERR_OP;
    return MPI_SUCCESS;
}

// Intracommunicator: 0 <= root < size. Intercommunicator: MPI_ROOT,
// MPI_PROC_NULL, or a rank of the remote group.
inline int check_root(MPI_Comm comm, int root) {
    if (comm->inter) {
        const int q = comm->remote ? static_cast<int>(comm->remote->world.size()) : 0;
        return root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < q) ? MPI_SUCCESS : MPI_ERR_ROOT;
    }
    if (root < 0 || root >= comm->size) return MPI_ERR_ROOT;
    // A gap of a BLANK communicator cannot be a root: it has no data.
    return comm->group->world[static_cast<size_t>(root)] == -1 ? MPI_ERR_ROOT : MPI_SUCCESS;
}

// How many entries an argument given per rank has (counts, displacements,
// types of the v- and w-forms): one per remote rank on an intercommunicator,
// whose blocks all come from / go to the other group; else one per rank.
inline int peer_count(MPI_Comm comm) {
    if (!comm->inter) return comm->size;
    return comm->remote ? static_cast<int>(comm->remote->world.size()) : 0;
}

// Whether a rooted gather's send side (a scatter's receive side) is used
// here: always on an intracommunicator (the root copies its own block unless
// in place); on an intercommunicator only in the group opposite the root (the
// root's group passes MPI_ROOT or MPI_PROC_NULL and has no block of its own,
// so its type arguments are not looked at).
inline bool has_own_block(MPI_Comm comm, int root) {
    return comm->inter ? root != MPI_ROOT && root != MPI_PROC_NULL : true;
}

// Whether this process is the root of a rooted collective: its rank on an
// intracommunicator, MPI_ROOT in the root's group of an intercommunicator.
inline bool is_root(MPI_Comm comm, int root) {
    return comm->inter ? root == MPI_ROOT : comm->rank == root;
}

// The root as the algorithms see it: a rank of the schedule's live view on
// an intracommunicator (equal to the comm rank unless the comm has gaps);
// MPI_ROOT / MPI_PROC_NULL / a remote rank as is on an intercommunicator.
inline int view_root(const Schedule &s, int root) {
    return s.comm()->inter ? root : s.view_rank(root);
}

// Strict collectives (FT_CONTRACTS.md "Collectives under failures"): those
// that combine the inputs of many ranks end with an agreement when the
// communicator is strict; Bcast has its own retry (api_bcast.cpp) and
// Scatter(v) hands out one input, so they pass Strict::none.
enum class Strict { agree, none };

inline void end_strict(Schedule &s, Strict strict) {
    MPI_Comm comm = s.comm();
    if (strict == Strict::agree && !comm->inter && comm->ft.strict.load(std::memory_order_relaxed)) s.agree_at_end();
}

// MPI_IN_PLACE is not allowed on an intercommunicator.
inline int in_place_on_inter(MPI_Comm comm, const void *buf) {
    return buf == MPI_IN_PLACE && comm->inter ? MPI_ERR_BUFFER : MPI_SUCCESS;
}

// One buffer given both as what this rank sends and as where its own
// result lands (`own_block`: the receive buffer for the reductions and
// all-to-all, this rank's block of it for the gathers and scatters): the
// standard forbids such aliasing (MPI_IN_PLACE says it instead), and a
// schedule would read what it is overwriting. Refused with MPI_ERR_BUFFER
// as MPICH does, when data moves; other overlaps are not looked for.
inline int aliased(const void *sendbuf, const void *own_block, bool moves_data) {
    return moves_data && sendbuf != MPI_IN_PLACE && own_block != MPI_IN_PLACE && sendbuf != nullptr &&
            sendbuf == own_block
        ? MPI_ERR_BUFFER
        : MPI_SUCCESS;
}

// Whether any of n counts moves data (buffers with nothing to move may well
// share an address: two empty arrays of a language binding).
inline bool any_positive(int n, const int counts[]) {
    for (int i = 0; counts != nullptr && i < n; ++i)
        if (counts[i] > 0) return true;
    return false;
}

// Where block `index` (in elements of `type`) of buf starts.
inline const void *block_of(const void *buf, MPI_Aint index, MPI_Datatype type) {
    return buf == MPI_IN_PLACE || buf == nullptr ? buf : static_cast<const char *>(buf) + index * dt::extent(type);
}

// Collectives without an intercommunicator form here (Scan, Exscan).
inline int intra_only(MPI_Comm comm) {
    return comm->inter ? MPI_ERR_COMM : MPI_SUCCESS;
}

// The first non-success code, so checks read as one expression.
template <class... Codes>
int first_error(Codes... codes) {
    int result = MPI_SUCCESS;
    ((result = result != MPI_SUCCESS ? result : codes), ...);
    return result;
}

// Runs build(schedule) and the schedule. `checks` is a callable returning
// the argument check's code, evaluated only once comm is known valid.
// `shortcut` (see blocking_or) may take the call instead.
template <class Checks, class Shortcut, class Build>
int blocking_or(const char *function, MPI_Comm comm, Checks &&checks, Shortcut &&shortcut, Build &&build,
                Strict strict = Strict::agree) {
    if (!comm::valid(comm)) return comm::raise(comm, MPI_ERR_COMM, function);
    if (int err = checks(); err != MPI_SUCCESS) return comm::raise(comm, err, function);
    return comm::guarded(comm, function, [&] {
        // The shared-memory collectives (node.hpp): nullopt when they do not take the call.
        if (const std::optional<int> done = shortcut(); done) return *done;
        Schedule schedule(comm);
        build(schedule);
        end_strict(schedule, strict);
        // ULFM: a collective on a revoked communicator fails, also when it
        // has no message to be refused (one member, nothing to move).
        if (schedule.talks_to_nobody() && p2p::is_revoked(comm)) return MPIX_ERR_REVOKED;
        return schedule.run();
    });
}

inline std::optional<int> no_shortcut() {
    return std::nullopt;
}

template <class Checks, class Build>
int blocking(const char *function, MPI_Comm comm, Checks &&checks, Build &&build, Strict strict = Strict::agree) {
    return blocking_or(function, comm, std::forward<Checks>(checks), no_shortcut, std::forward<Build>(build), strict);
}

template <class Checks, class Build>
int nonblocking(const char *function, MPI_Comm comm, MPI_Request *request, Checks &&checks, Build &&build,
                Strict strict = Strict::agree) {
    if (!comm::valid(comm)) return comm::raise(comm, MPI_ERR_COMM, function);
    if (request == nullptr) return comm::raise(comm, MPI_ERR_REQUEST, function);
    if (int err = checks(); err != MPI_SUCCESS) return comm::raise(comm, err, function);
    return comm::guarded(comm, function, [&] {
        auto schedule = std::make_unique<Schedule>(comm);
        build(*schedule);
        end_strict(*schedule, strict);
        if (schedule->talks_to_nobody() && p2p::is_revoked(comm)) return MPIX_ERR_REVOKED;
        return Schedule::start(std::move(schedule), request);
    });
}

}  // namespace ftmpi::coll
