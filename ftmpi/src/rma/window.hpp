// One-sided communication: the object behind an MPI_Win handle and what the
// rma part's files share. A window is a private duplicate of the
// communicator it was made on (MPI_ERRORS_RETURN; every message of the
// window travels there, and MPIX_Win_revoke revokes it), the local memory
// it exposes, what each member exposes (for range checks at the origin),
// the target side (target.cpp: a handler that applies incoming operations
// and grants locks, run by whichever thread progresses the p2p engine), and
// the origin side (origin.cpp: operations in flight and their replies).
// README.md has the design.
#pragma once

#include "internal/errors.hpp"

#include <mpi-ext.h>
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace ftmpi::rma {

// A region of memory the target exposes: the whole window, or one region
// attached to a dynamic window.
struct Region {
    uintptr_t base = 0;
    size_t size = 0;
};

// An operation in flight from this origin: its request message and the
// receive of the target's reply (a code, then for fetching operations the
// target's data). Guarded by the window's origin mutex.
struct Pending {
    int target = 0;
    MPI_Request send = MPI_REQUEST_NULL;
    MPI_Request recv = MPI_REQUEST_NULL;
    std::vector<char> message;  // the request: header, block list, data
    std::vector<char> reply;    // the reply's landing place: code, then data
    // Where a fetching operation's data goes.
    void *result = nullptr;
    int result_count = 0;
    MPI_Datatype result_type = MPI_DATATYPE_NULL;
    bool requested = false;  // started by an R* call: its request reports the outcome
    bool claimed = false;    // a thread is testing or waiting on send/recv without the mutex
    bool done = false;
    int code = MPI_SUCCESS;
};

// A lock request the target cannot grant yet.
struct LockWaiter {
    int origin = 0;
    int type = 0;
    int reply_tag = 0;
};

enum class Epoch { none, fence, start, lock, lock_all };

// Names a member's window segment (direct.cpp): the creating process and a
// random number. pid 0: the member has none (its memory is reached by
// messages only).
struct SegmentName {
    int64_t pid = 0;
    int64_t seq = 0;
};

// A window segment as mapped in this process: a header line holding the
// cross-process mutex of accumulates, then the member's window memory.
struct Segment {
    SegmentName name;
    char *map = nullptr;
    size_t map_bytes = 0;
};

}  // namespace ftmpi::rma

struct ftmpi_win_s {
    MPI_Comm comm = MPI_COMM_NULL;  // private dup of the user's communicator, MPI_ERRORS_RETURN
    int rank = 0, size = 1;         // in comm
    std::vector<int> worlds;        // MPI_COMM_WORLD rank of each member (failure queries)
    int flavor = MPI_WIN_FLAVOR_CREATE;
    void *base = nullptr;
    MPI_Aint bytes = 0;
    int disp_unit = 1;
    std::vector<MPI_Aint> sizes;  // every member's window size (not for dynamic windows)
    std::vector<int> disp_units;  // every member's displacement unit
    bool owns_memory = false;     // MPI_Win_allocate: freed with the window
    // MPI_Win_allocate_shared: one POSIX shared-memory segment mapped by
    // every member; each member's part starts at offsets[rank].
    char *shm = nullptr;
    size_t shm_bytes = 0;
    std::vector<size_t> shm_offsets;
    // MPI_Win_allocate: this member's memory as a segment of its own that
    // the members on its host map, and theirs as mapped here (peers[r].map
    // null: member r is reached by messages). direct.cpp.
    ftmpi::rma::Segment own_segment;
    std::vector<ftmpi::rma::Segment> peers;

    MPI_Errhandler errhandler = nullptr;
    std::string name;
    std::vector<std::pair<std::string, std::string>> info;  // keys set by create or set_info
    std::map<int, void *> attributes;                       // user keyvals

    // ---- Target side (target.cpp); guarded by target_mutex ----
    std::mutex target_mutex;                   // also what makes accumulates atomic
    std::vector<ftmpi::rma::Region> attached;  // dynamic windows
    int exclusive_holder = -1;                 // rank holding an exclusive lock
    std::map<int, int> shared_holders;         // rank -> shared locks it holds
    std::deque<ftmpi::rma::LockWaiter> lock_queue;
    uint64_t seen_failures = 0;              // p2p::failure_epoch() when locks were last checked
    MPI_Request handler = MPI_REQUEST_NULL;  // the generalized request that runs the handler
    std::atomic<bool> stopping{false};

    // ---- Origin side (origin.cpp, sync.cpp); guarded by origin_mutex ----
    std::mutex origin_mutex;
    std::list<std::shared_ptr<ftmpi::rma::Pending>> pending;
    uint32_t next_tag = 0;
    ftmpi::rma::Epoch epoch = ftmpi::rma::Epoch::none;
    std::map<int, int> locked;           // target -> lock type (Epoch::lock)
    std::vector<int> start_group;        // targets of the access epoch (MPI_Win_start)
    std::vector<int> post_group;         // origins of the exposure epoch (MPI_Win_post)
    std::vector<MPI_Request> completes;  // receives of their complete messages
    bool exposed = false;                // between MPI_Win_post and the end of MPI_Win_wait/test
};

namespace ftmpi::rma {

// Tags on the window's private communicator (user channel).
constexpr int tag_request = 1;   // origin -> target: an operation, lock, unlock
constexpr int tag_post = 2;      // MPI_Win_post -> MPI_Win_start
constexpr int tag_complete = 3;  // MPI_Win_complete -> MPI_Win_wait
constexpr int tag_reply_base = 16;
constexpr int tag_reply_span = 1 << 24;  // reply tags cycle through this many values

// Live-handle registry: a freed or made-up handle is MPI_ERR_WIN.
void register_window(MPI_Win);
void unregister_window(MPI_Win);
bool valid(MPI_Win);

// The one place where an error code meets the window's error handler
// (MPI_ERRORS_ARE_FATAL by default, as for communicators; MPI_COMM_WORLD's
// handler when win is not a live window). Returns code.
int raise(MPI_Win win, int code, const char *function);

template <typename Body>
int guarded(MPI_Win win, const char *function, Body &&body) noexcept {
    return raise(win, comm::code_of(body), function);
}

// Replaces the window's error handler (a reference is taken on `eh`).
void set_errhandler(MPI_Win win, MPI_Errhandler eh);

// MPI_ERR_ASSERT when `assertion` has a bit outside `allowed` (the
// MPI_MODE_* a synchronisation call takes); the assertions themselves are
// only hints here.
inline int check_assertion(int assertion, int allowed) {
    return (assertion & ~allowed) != 0 ? MPI_ERR_ASSERT : MPI_SUCCESS;
}

// What every operation on a window checks first: MPI_ERR_WIN for a bad
// handle, MPIX_ERR_REVOKED once the window is revoked.
int check_window(MPI_Win win);

// MPIX_ERR_PROC_FAILED when window rank `rank` failed or was replaced
// since the window was made (REBUILD starts a new process into a failed
// rank; that process does not know this window): a call that needs it
// fails at once instead of waiting for an answer that never comes.
int check_peer(MPI_Win win, int rank);

// Every member's window size, displacement unit and segment name over
// `comm` (one allgather). Creation and FTMPI_Win_rebuild both use it, so a new
// member's creation call meets the survivors' rebuild collective for
// collective.
int gather_exposure(MPI_Comm comm, MPI_Aint bytes, int disp_unit, SegmentName segment, std::vector<MPI_Aint> *sizes,
                    std::vector<int> *units, std::vector<SegmentName> *segments);

// Where member `rank`'s window memory is in this process, for load and
// store (MPI_Win_shared_query), or null: every part of an
// MPI_Win_allocate_shared segment, this member's own memory, and another
// member's MPI_Win_allocate segment mapped here (direct.hpp); null for
// memory of size 0 and for dynamic windows' (no size is known).
char *load_store_address(MPI_Win win, int rank);

// Frees what a window holds locally (comm, memory, handler); not collective.
void destroy(MPI_Win win);

// Calls the delete callback of every attribute and empties the map
// (MPI_Win_free).
void delete_all_attributes(MPI_Win win);

// Target side: starts and stops the handler (target.cpp).
int start_handler(MPI_Win win);
void stop_handler(MPI_Win win);

}  // namespace ftmpi::rma
