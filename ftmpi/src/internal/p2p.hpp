// Point-to-point as the collectives and the
// communicator part use it: the same engine as MPI_Isend/MPI_Irecv, on the
// user or the collective channel of a communicator, returning MPI error codes
// and never calling an error handler (the public binding does that).
//
// Every wait can end with a failure: when a peer is known to have failed,
// operations that need it complete with MPIX_ERR_PROC_FAILED (mpi-ext.h).
#pragma once

#include "mpi.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ftmpi::p2p {
enum class Channel { user, collective };  // collective = context + 1

int isend(const void *buf, MPI_Count count, MPI_Datatype, int dest, int tag, MPI_Comm, Channel, MPI_Request *);
int irecv(void *buf, MPI_Count count, MPI_Datatype, int source, int tag, MPI_Comm, Channel, MPI_Request *);
int send(const void *buf, MPI_Count count, MPI_Datatype, int dest, int tag, MPI_Comm, Channel);
int recv(void *buf, MPI_Count count, MPI_Datatype, int source, int tag, MPI_Comm, Channel, MPI_Status *);
// MPI_Waitall without error-handler calls; statuses may be MPI_STATUSES_IGNORE.
// Returns MPI_SUCCESS or MPI_ERR_IN_STATUS (per-request codes in statuses,
// or the first failing request's code when statuses are ignored).
int wait_all(int n, MPI_Request *, MPI_Status *);
// MPI_Testall without error-handler calls (same status conventions as
// wait_all); never blocks. *flag is true when all completed (then freed).
int test_all(int n, MPI_Request *, int *flag, MPI_Status *);
// test_all that only looks: it does not poll the drivers first. For code
// that runs right after a poll step (a generalized request's advance),
// where polling again finds nothing new and costs the engine's lock twice.
int test_all_after_poll(int n, MPI_Request *, int *flag, MPI_Status *);
// wait_all for one request, unless `comm` is revoked first (also by another
// process): then MPIX_ERR_REVOKED, and the request is left pending. For a
// wait on something a revoke does not stop (an agreement).
int wait_unless_revoked(MPI_Request *, MPI_Status *, MPI_Comm comm);

// A request completed by a user of the progress engine (non-blocking
// collectives): `advance` is called from Wait/Test and from the progress
// thread until it returns true; it must not block. It is called by one
// thread at a time, without p2p's internal lock held (so it may call isend,
// irecv and test_all). It fills the status
// (MPI_ERROR in particular) when it returns true. Free it with
// MPI_Wait/Test/Request_free like any request.
MPI_Request make_generalized(std::function<bool(MPI_Status *)> advance);
// The same, for an advance that has work only once the engine took in
// messages or learned of a failure (a handler of incoming messages, such as
// a one-sided window's target side): the progress thread then sleeps until
// such an event instead of waking every millisecond to call it. User
// threads waiting in MPI still call it every millisecond at least (a
// message a thread sends to itself is no event).
MPI_Request make_event_driven(std::function<bool(MPI_Status *)> advance);
// While one lives, the p2p calls of its thread run no generalized request's
// advance (other threads, and this one's later calls, still do). For code
// that calls p2p while holding a lock which some advance also takes: that
// advance would otherwise run inside the call and wait for its own thread.
class AdvancesDeferred {
public:
    AdvancesDeferred();
    ~AdvancesDeferred();
    AdvancesDeferred(const AdvancesDeferred &) = delete;
    AdvancesDeferred &operator=(const AdvancesDeferred &) = delete;
};

// A persistent collective request (MPI_Bcast_init, …): inactive until
// MPI_Start, which calls `start` to begin the non-blocking collective and
// completes the persistent request when that one completes. Freed with
// MPI_Request_free like any persistent request.
MPI_Request make_persistent_collective(std::function<int(MPI_Request *)> start);
// A persistent request whose rounds its maker ends itself (partitioned
// communication): MPI_Start marks it active and calls `start` with the
// request, which begins the round and may set *drive, a function the
// progress engine then calls (from Wait/Test and the progress thread, as a
// generalized request's advance, with no lock of p2p held) until it returns
// true. Whoever learns first that the round ended, the driver or another
// call of the maker (MPI_Parrived), calls complete_round once: Wait and
// Test see the request complete from then on, with no progress step in
// between. A start that returns an error ends the round with it.
MPI_Request make_persistent_owned(std::function<int(MPI_Request self, std::function<bool()> *drive)> start);
void complete_round(MPI_Request, const MPI_Status &);

// Failure knowledge (world ranks). notify_failed() is how a failure learned
// elsewhere (a daemon's event) enters p2p: the peer's connection is
// dropped and every operation that needs it completes with
// MPIX_ERR_PROC_FAILED, exactly as when the connection breaks by itself.
// notify_failed may be called from any thread holding no lock of libftmpi:
// it applies the failure before returning and may call ft::on_failure itself.
void notify_failed(int world_rank);
bool is_failed(int world_rank);
// The process said bye (it called MPI_Finalize): its end is not a failure.
bool said_bye(int world_rank);

// ---- Fault tolerance (ftmpi/FT_CONTRACTS.md) ----

// Tags at or above ft_tag_base on the collective channel belong to the
// fault-tolerance machinery (agreement, shrink, recovery). Operations with
// such tags are not stopped by revocation, and an MPI_ANY_SOURCE receive
// with such a tag is not stopped by a failure (the agreement watches
// failures itself through is_failed / failure_epoch).
constexpr int ft_tag_base = 0x7f000000;

// The lengths of the matching queues now, for MPI_T's performance variables:
// receives posted and not matched yet, messages that arrived before their
// receive (any communicator). Takes the engine's lock.
struct QueueLengths {
    std::size_t posted = 0;
    std::size_t unexpected = 0;
};
QueueLengths queue_lengths();

// Whether messages to `world` travel through shared memory: the process
// runs on this host and could map a segment this one shares (true for this
// process itself).
bool shares_memory_with(int world_rank);
// How a waiting call polls before it blocks: FTMPI_SPIN_US, and whether it
// gives the core away between polls (FTMPI_YIELD_WHEN_IDLE, by default when
// the host runs more of the job's ranks than it has CPUs).
struct WaitPolicy {
    std::chrono::microseconds spin;
    bool yield;
};
WaitPolicy wait_policy();
// One non-blocking progress step, as MPI_Test makes: a caller that waits on
// something other than p2p (the collectives' shared segment) calls it now
// and then, so messages and one-sided operations others wait for move on.
// `blocking_between`: the caller sleeps elsewhere between steps, so the
// progress thread must go on waiting for frames meanwhile (a window's
// target handler then answers at once, not at the caller's next step).
void progress(bool blocking_between = false);

// Counts failures declared so far (any peer); changes whenever a process is
// declared failed, so a waiting loop can notice a failure it does not wait on.
uint64_t failure_epoch();
// Grows whenever a pending request completes (any kind, any communicator;
// one that completes within its own post may not count: its poster sees
// it done). Read without the engine's lock: a poller that finds it and
// failure_epoch() unchanged since its last look knows that none of its
// pending requests completed meanwhile.
uint64_t completions();
// Returns once every failure declared so far has reached ftstate
// (ft::on_failure): what an operation's MPIX_ERR_PROC_FAILED told the
// program is then in the failure list that MPIX_Comm_failure_ack and
// get_failed read. Without effect before MPI_Init has ended.
void settle_failure_reports();

// ULFM revoke: marks comm revoked and floods a revoke frame to every live
// member (each member marks and forwards once), so the mark reaches every
// live member even when the initiator dies during the call. Pending and new
// operations on comm (both channels, except ft tags) complete with
// MPIX_ERR_REVOKED. A revoke that arrives before this process made the
// communicator is kept by context id and applies when it is made.
int revoke(MPI_Comm);
bool is_revoked(MPI_Comm);
// The comm part calls this when a communicator is freed (its context id may
// be reused by a later communicator).
void forget_context(uint32_t context);

// NOP message mode: completes every pending operation on comm with `code`,
// its collectives' included but not the fault-tolerance machinery's (tags
// from ft_tag_base; src/ft calls it when a member of a NOP comm fails). A collective that only waits on live members would otherwise wait
// for ever: they leave it for the recovery once they know of the failure.
// The recovery's purge drops what such collectives left in flight.
void fail_pending(MPI_Comm comm, int code);

// Recovery's flush (FT-MPI's flush protocol): sends a flush marker for
// `context` to every process in `worlds` that is alive and waits until the
// marker of each of them arrived or it failed. Because a connection is FIFO,
// everything a survivor sent before its marker has then arrived. Returns
// MPI_SUCCESS (failures during the flush are not errors: the failed are
// simply not waited for).
int flush(const std::vector<int> &worlds, uint32_t context);
// After a flush: drops the unexpected messages that came from failed
// processes (any context) and every unexpected message on `context` + 1
// (strays of collectives a failure interrupted). User-channel messages
// between survivors stay: they are neither lost nor duplicated.
void purge(uint32_t context);

// REBUILD: a replacement of `world` (incarnation > the failed one) connects
// to every survivor (the survivors keep their listening socket). The
// survivor holds the new connection as "joining" until admit() makes it the
// peer's connection and clears its failed mark. wait_joined waits until a
// connection from each listed world rank's `incarnation` arrived (or the
// deadline: MPIX_ERR_PROC_FAILED).
int wait_joined(const std::vector<int> &worlds, const std::vector<int> &incarnations, int deadline_ms);
void admit(int world, int incarnation);
// A replacement's fellow replacement of its round (Engine::reach_fellow):
// true once connected to `world` at `incarnation`.
bool reach_fellow(int world, int incarnation, int deadline_ms, const std::function<bool()> &gone);

// World ranks 0..n-1 are known here: the job's and those spawned since.
int known_world_ranks();
// Processes MPI_Comm_spawn added (world ranks after the job's others):
// makes room for `worlds` and waits until each connected to this process
// or failed, declaring failed those still missing at the deadline
// (is_failed tells which).
void wait_connected(const std::vector<int> &worlds, int deadline_ms,
                    const char *why = "a spawned process did not connect in time");

// Processes of another job, joined by MPI_Comm_connect/accept
// (p2p/foreign.cpp, transport/tcp_foreign.cpp). Each job numbers the other's
// processes after its own world ranks (`peer` below); frames are told apart
// by their connection. The connecting side reaches every process of the
// accepting group; the accepting side expects those connections and waits
// for them with wait_connected. A broken connection to such a process is
// its failure at once (the VM does not know it).
// This process's TCP contact record ("host:port incarnation round"), ""
// when it has no network (a singleton started without a launcher).
std::string own_contact();
struct ForeignPeer {
    int peer = -1;           // the number this process gives it
    int world = -1;          // its world rank in its own job
    int alias_there = -1;    // the number its job gives this process (reach_foreign)
    std::string record;      // its TCP contact record (reach_foreign)
    std::string job;         // its job's id
    bool job_first = false;  // its job's id sorts before this process's job's
};
void expect_foreign(const std::vector<ForeignPeer> &peers);
// Connects to each; those that do not answer before the deadline are
// declared failed (is_failed tells which).
void reach_foreign(const std::vector<ForeignPeer> &peers, int deadline_ms);
// Some number here was given to a process of another job: the world ranks
// the launcher would give new processes are taken (MPI_Comm_spawn asks it
// to start after known_world_ranks()).
bool has_foreign();
// An order of processes that both jobs of a connection see alike: by job id,
// then by world rank in that job (a number given to a process of another job
// stands for that job and that process's own world rank). Within one job it
// is the order of world ranks. Orders the two groups of an
// intercommunicator alike on both sides (agreements, MPI_Intercomm_merge).
bool process_before(int a, int b);
// The incarnation of the connection currently used for `world`.
int peer_incarnation(int world);
}  // namespace ftmpi::p2p
