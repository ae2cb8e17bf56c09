// Fault tolerance as the parts of libftmpi see each other.
// Design and protocol: ftmpi/FT_CONTRACTS.md. Each declaration says which
// part implements it:
//   engine   — ftmpi/src/p2p, transport, runtime    (revoke, flush, joins)
//   ft state — ftmpi/src/ft/ state, notifier, modes, attributes
//   recovery — ftmpi/src/ft/recovery*, comm constructors' recovery point
//   ulfm     — ftmpi/src/ulfm/ agreement and MPIX_ bindings
#pragma once

#include "mpi-ext.h"
#include "mpi.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ftmpi::ft {

// Fault-tolerance state of one communicator, the last member of
// ftmpi_comm_s (comm.hpp). make_comm copies comm_mode, msg_mode and strict
// from the parent; the rest starts at its defaults.
struct CommFt {
    std::atomic<int> comm_mode{FTMPI_COMM_MODE_ULFM};
    std::atomic<int> msg_mode{FTMPI_MSG_MODE_CONT};
    std::atomic<bool> strict{false};
    std::atomic<bool> revoked{false};       // set by the engine (p2p::revoke / a revoke frame)
    std::atomic<int> state{FTMPI_COMM_OK};  // kept by src/ft and src/ft/recovery
    // The world recovery round when the communicator was made: a member
    // whose world rank was replaced in a later round is failed for it.
    int round = 0;
    // ULFM acknowledgement: failures of this comm's members with a
    // failure-list index below `acked_upto` are acknowledged (the failure list below).
    std::atomic<uint64_t> acked_upto{0};
    // Failure-list index at the last recovery (attributes count from here).
    uint64_t recovered_at = 0;
    // Sequence of agreements started on this comm (src/ulfm): every member runs
    // them in the same order, so the n-th agreement has the same id everywhere.
    std::atomic<uint32_t> agreements{0};
    // Storage for attribute values handed out by pointer (attribute_value).
    int attr_ints[4] = {0, 0, 0, 0};
    std::vector<int> attr_list, attr_counts;
    std::string attr_text;
};

// ------------------------------------------------------- ft state (src/ft)
// One failure as this process learned it, in local order (index = position).
struct Failure {
    int world = -1;       // world rank
    int incarnation = 0;  // which incarnation of that rank failed
    std::string why;      // "killed by signal 9 on member 3f2a…", "lost with its host …"
};

// Called by the engine once per (world rank, incarnation) when a process is
// declared failed (connection loss without confirmation, notify_failed, a
// VM event), after p2p has failed the operations that need it, without the
// engine lock held. Appends to the failure list, updates communicator
// states, applies ABORT mode.
void on_failure(int world, const std::string &why);
// The failure list so far (a copy) and its length.
std::vector<Failure> failures();
uint64_t failure_count();
// Index in the failure list of the latest failure of `world`'s current
// incarnation, or -1 if that process is not failed.
int64_t failure_index(int world);

// Suspicion (engine → src/ft): the connection to `world` broke without a
// bye. When confirm() is false (no VM notifier: dir: wire-up without a
// daemon, or ABORT mode) the engine declares the failure at once; otherwise
// it calls suspect() and keeps the peer's operations pending; src/ft calls
// p2p::notify_failed when the VM confirms (an event) or the deadline
// FTMPI_CONFIRM_MS passes (then it also publishes a `fence` event).
bool confirm();
void suspect(int world);

// p2p asks these on its paths (cheap, lock-free reads):
// A user-channel operation on comm must fail at once with
// MPIX_ERR_PROC_FAILED: msg mode NOP and the comm has an unrecovered failure.
bool blocks_user_ops(MPI_Comm comm);
// A user-channel MPI_ANY_SOURCE receive on comm must stop (PENDING for a
// non-blocking one, PROC_FAILED for a blocking one): a member failed and is
// not acknowledged.
bool any_source_blocked(MPI_Comm comm);
// The world rank is a failed member of comm (process failed, or replaced in
// a round after comm->ft.round).
bool member_failed(MPI_Comm comm, int world);
// The process at `rank` of comm (of its remote group for an
// intercommunicator) was replaced (REBUILD) in a round after comm was made:
// the process there now does not know comm. One relaxed atomic read while
// no process was ever replaced; lock-free unless a replacement happened
// after comm's round.
bool replaced_member(MPI_Comm comm, int rank);
// After an agreement on comm's failed members (comm ranks): declares failed
// here each one this process had not seen fail yet (its connection's end
// still waits for the VM's confirmation, which another survivor had).
// Every member of an agreed set was declared failed by some survivor, which
// takes a dead process (FT_CONTRACTS.md: suspects are fenced first), so the
// failure record, count and failed-members queries then match what the
// survivors agreed, and the late notice is not taken for a new failure. A
// member replaced (REBUILD) after comm was made is a new, live process and
// is left alone.
void adopt_agreed_failures(MPI_Comm comm, const std::vector<int> &failed_ranks);
// ABORT mode: true when any failure must end the job (FTMPI_COMM_MODE at
// launch is ABORT); then on_failure aborts the job.
bool abort_mode();

// Launch settings (read from the environment at MPI_Init):
// FTMPI_COMM_MODE, FTMPI_MSG_MODE (names as ftmpirun's options),
// FTMPI_COLL_STRICT, FTMPI_NOTIFIER (ordered|unordered), FTMPI_CONFIRM_MS.
// init() is called by the runtime's MPI_Init after the engine is up and the world
// communicator exists; it starts the notifier thread. finalize() stops it
// (before the engine stops).
void init();
void finalize();
int default_comm_mode();
int default_msg_mode();
bool default_strict();

// Hooks the comm part calls (implemented in src/ft). MPI_Comm_get_attr on
// any communicator for the keys FT_MPI_LIST_NUM_FAILED … FTMPI_INCARNATION
// of mpi-ext.h (8..15): the value is computed at the call into comm->ft's
// attr_* storage (or process-wide storage for MPIX_FT, FTMPI_RESTARTED and
// FTMPI_INCARNATION).
bool is_attribute_key(int keyval);
void *attribute_value(MPI_Comm comm, int keyval);
// comm/errhandler.cpp raise(): a communicator in ABORT comm mode given
// MPIX_ERR_PROC_FAILED ends the job (one line naming the failed rank),
// whatever its error handler; otherwise returns.
void abort_if_required(MPI_Comm comm, int code, const char *function);
// comm/errhandler.cpp raise(): the code the program sees for `code` raised
// on comm by `function`. MPIX_ERR_PROC_FAILED becomes MPI_ERR_OTHER when comm
// is in an FT-MPI comm mode (BLANK, SHRINK, REBUILD, REBUILD_APPEND) and
// function is not an MPIX_ call; every other code is returned as it is.
int reported_code(MPI_Comm comm, int code, const char *function);

// The recovery round and each world rank's incarnation, as this process
// knows them (recovery updates them; a replacement starts from
// FTMPI_ROUND / FTMPI_INCARNATION).
int round();
int incarnation(int world);
void set_incarnation(int world, int incarnation, int round);

// Publishes an event on the job's topic job/<FTMPI_JOB> through the local
// daemon's vm/events (payload built with harness::Packer, see the contract).
// Returns false when there is no VM to publish to.
bool publish(const std::vector<uint8_t> &payload);
// Waits (up to deadline_ms) for an event of `kind` on the job topic that
// `match` accepts; used by recovery to wait for `respawned`. The notifier
// keeps every event it fetched, so an event that came earlier is found too.
bool wait_event(const std::string &kind, const std::function<bool(const std::vector<uint8_t> &)> &match,
                int deadline_ms);

// ---------------------------------------------------------------- recovery
// The collective recovery point: comm constructors (dup, dup_with_info,
// create, create_group, split, split_type, idup) call this first. Returns
// false when the constructor should go on as usual: comm needed no
// recovery, or it was recovered in place (new group, same context; so the
// constructor builds *newcomm from the recovered shape — a dup of a
// recovered MPI_COMM_WORLD is "the recovered communicator"). Returns true
// with *err set when the recovery failed. (newcomm is not used.)
bool recover_if_needed(MPI_Comm comm, MPI_Comm *newcomm, int *err);
// MPI_Init of a replacement process (FTMPI_RESTARTED=1), after the engine
// connected: takes part in the survivors' recovery and installs the
// recovered MPI_COMM_WORLD. Returns MPI_SUCCESS or an error.
int join_as_replacement();

// ---------------------------------------------------------------- ulfm
// Fault-tolerant agreement over the live members of intracommunicator comm.
// Every live member calls it for the n-th time with the same n
// (comm->ft.agreements counts). It works on a revoked communicator, never
// blocks forever on a failed process, and all returning members get the
// same result, even when members fail during the call.
struct Agreement {
    uint32_t flag = ~0u;      // in: contribution; out: AND over the contributions
    std::vector<int> failed;  // in: failed members (comm ranks) known locally;
                              // out: the agreed set (sorted comm ranks), a superset of every contribution
    bool unacked = false;     // in: this process knows a failure it has not acknowledged;
                              // out: OR over the participants
    // in: the failed members (comm ranks) this process acknowledged, or none
    // when it does not take part in acknowledgements; out: those every
    // participant that said acknowledged (none if nobody said).
    std::optional<std::vector<int>> acked;
};
int agree(MPI_Comm comm, Agreement &a);
// Non-blocking form (a generalized request from p2p::make_generalized);
// `a` must live until the request completes.
int iagree(MPI_Comm comm, Agreement &a, MPI_Request *request);

}  // namespace ftmpi::ft
