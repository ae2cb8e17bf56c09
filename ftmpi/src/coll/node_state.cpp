// Setting up a communicator's segment, and waiting on it (node_state.hpp).
#include "node_state.hpp"

#include "algorithms.hpp"
#include "node.hpp"
#include "tags.hpp"

#include "internal/ft.hpp"
#include "internal/p2p.hpp"
#include "mpi-ext.h"
#include "runtime/log.hpp"
#include "settings/values.hpp"

#include <chrono>
#include <cstring>
#include <memory>
#include <sched.h>
#include <string>

namespace ftmpi::coll::node {

namespace {

constexpr int most_members = 64;  // beyond, every member looking at every other's word costs more than a tree
// Segments one process keeps mapped at most (a program with many
// communicators runs the later ones' collectives as messages): bounds what
// a process holds in /dev/shm and in its address space.
constexpr int most_segments = 128;
// How long a blocked member sleeps at most before it looks for failures
// and makes a p2p progress step (neither a failure notice nor a message
// rings the bell).
constexpr long sleep_us = 1000;
// Polls of the segment between two looks at failures and p2p.
constexpr unsigned steps_between_checks = 128;

// The beginning of every file this process makes in /dev/shm, as the comm
// driver and the daemon's clean-up name them: /ftmpi.<job>.<rank>.<incarnation>.
std::string file_prefix() {
    using settings::Id;
    const settings::Values &env = settings::current();
    std::string job = env.is_set(Id::job) ? env.text(Id::job) : "singleton";
    if (env.is_set(Id::job_key)) job += "-" + env.text(Id::job_key);
    std::string prefix = "/ftmpi.";
    for (char c : job.substr(0, 96)) {
        const bool keep =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        prefix.push_back(keep ? c : '_');
    }
    return prefix + "." + std::to_string(env.integer(Id::rank)) + "." + std::to_string(env.integer(Id::incarnation));
}

// A hint to the core that this is a polling loop (lets a sibling thread run).
inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

bool reaches_all_through_memory(MPI_Comm comm) {
    for (int world : comm->group->world)
        if (!p2p::shares_memory_with(world)) return false;
    return true;
}

// p2p's record first: it is what p2p's failure count counts, and ftstate
// hears of a failure only after p2p declared it (a wait that looked only
// at ftstate when the count moved could miss the failure for good).
// ftstate also knows members replaced since comm was made (REBUILD).
bool any_member_failed(MPI_Comm comm) {
    for (int world : comm->group->world)
        if (p2p::is_failed(world) || ft::member_failed(comm, world)) return true;
    return false;
}

// What rank 0 tells the others at set-up.
struct Offer {
    int32_t usable;  // 1: a segment was made, `name` maps it
    char name[220];
};

int share_offer(MPI_Comm comm, Offer *offer) {
    Schedule s(comm);
    bcast_binomial(s, offer, static_cast<int>(sizeof *offer), MPI_BYTE, 0);
    return s.run();
}

int agree_all_usable(MPI_Comm comm, int *usable) {
    Schedule s(comm);
    allreduce_recursive_doubling(s, MPI_IN_PLACE, usable, 1, MPI_INT, MPI_MIN);
    return s.run();
}

void say_unusable(const std::string &why) {
    static std::atomic<bool> said{false};
    if (!said.exchange(true)) log::warn("shared-memory collectives not used: %s", why.c_str());
}

}  // namespace

size_t capacity() {
    return static_cast<size_t>(settings::current().number(settings::Id::coll_shm_bytes));
}

bool shaped_for(MPI_Comm comm) {
    if (comm->inter || comm->group == nullptr || comm->size < 2 || comm->size > most_members) return false;
    if (comm->ft.strict.load(std::memory_order_relaxed)) return false;
    for (int world : comm->group->world)
        if (world < 0) return false;  // a gap (BLANK)
    return true;
}

namespace {

// comm's state, set up at its first call (see enter()).
State *state_of(MPI_Comm comm, int *err) {
    *err = MPI_SUCCESS;
    if (comm->coll_node) return comm->coll_node->status == State::Status::on ? comm->coll_node.get() : nullptr;
    const bool willing = Segment::live() < most_segments && reaches_all_through_memory(comm);
    const size_t buffer = capacity();
    std::string why;
    Segment segment;
    Offer offer{};
    if (comm->rank == 0 && willing) {
        segment = Segment::create(file_prefix(), comm->size, buffer, &why);
        if (segment.mapped() && segment.name().size() < sizeof offer.name) {
            offer.usable = 1;
            std::memcpy(offer.name, segment.name().c_str(), segment.name().size() + 1);
        } else if (segment.mapped()) {
            why = "segment name too long";
            segment.unlink_name();
        }
    }
    if (int rc = share_offer(comm, &offer); rc != MPI_SUCCESS) {
        if (comm->rank == 0) segment.unlink_name();
        *err = rc;  // nothing kept: the next call sets up again
        return nullptr;
    }
    auto state = std::make_shared<State>();
    if (offer.usable) {
        if (comm->rank != 0 && willing) segment = Segment::attach(offer.name, comm->size, buffer, &why);
        int usable = segment.mapped() ? 1 : 0;
        const int rc = agree_all_usable(comm, &usable);
        if (comm->rank == 0) segment.unlink_name();  // every member has mapped it or never will
        if (rc != MPI_SUCCESS) {
            *err = rc;
            return nullptr;
        }
        if (usable) {
            state->status = State::Status::on;
            state->segment = std::move(segment);
            log::debug("shared-memory collectives on communicator %u (%d members)", comm->context, comm->size);
        }
    }
    if (!why.empty()) say_unusable(why);
    comm->coll_node = state;
    return state->status == State::Status::on ? state.get() : nullptr;
}

}  // namespace

State *enter(MPI_Comm comm, uint64_t *epoch, int *err) {
    *err = MPI_SUCCESS;
    // Read before the checks: a failure after them changes it, and the first
    // wait notices.
    *epoch = p2p::failure_epoch();
    if (p2p::is_revoked(comm) || (*epoch != 0 && any_member_failed(comm))) return nullptr;
    return state_of(comm, err);
}

void forget(MPI_Comm comm) {
    comm->coll_node.reset();
}

Call::Call(MPI_Comm comm, State &state, uint64_t epoch, size_t slot_bytes)
    : comm_(comm), segment_(state.segment), n_(++state.last), ring_(Ring::for_bytes(slot_bytes)), me_(comm->rank),
      members_(comm->size), failures_seen_(epoch) {
    next_tag(comm);  // keeps the collective sequence of the schedules in step
}

int Call::failure_code() {
    if (p2p::is_revoked(comm_)) return MPIX_ERR_REVOKED;
    const uint64_t epoch = p2p::failure_epoch();
    if (epoch == failures_seen_) return MPI_SUCCESS;
    failures_seen_ = epoch;
    return any_member_failed(comm_) ? MPIX_ERR_PROC_FAILED : MPI_SUCCESS;
}

template <class Ready>
int Call::wait(int m, Ready &&ready) {
    if (ready()) return MPI_SUCCESS;
    const p2p::WaitPolicy policy = p2p::wait_policy();
    const auto spin_end = std::chrono::steady_clock::now() + policy.spin;
    bool spinning = true;
    for (unsigned step = 1;; ++step) {
        if (ready()) return MPI_SUCCESS;
        if (spinning) {
            if (policy.yield)
                sched_yield();
            else
                relax();
            if (step % steps_between_checks != 0) continue;
        }
        if (int e = failure_code(); e != MPI_SUCCESS) return e;
        // What any MPI wait does: messages and one-sided operations that
        // peers wait for (a rendezvous send to this process, a target
        // handler) move on, also those that must happen before a peer
        // reaches this collective.
        p2p::progress(!spinning);
        if (spinning && std::chrono::steady_clock::now() < spin_end) continue;
        // Blocked from now on: woken by m's bell, or after sleep_us to look
        // at failures and p2p again.
        spinning = false;
        auto sleepers = segment_.sleepers(m);
        sleepers.fetch_add(1, std::memory_order_seq_cst);
        const uint32_t seen = segment_.bell(m);
        if (!ready()) segment_.sleep(m, seen, sleep_us);
        sleepers.fetch_sub(1, std::memory_order_relaxed);
    }
}

int Call::await_arrived(int m) {
    uint64_t &word = segment_.member(m).arrived;
    return wait(m, [&] { return load_acquire(word) >= n_; });
}

int Call::await_data(int m) {
    uint64_t &word = segment_.sequence(m, n_, ring_);
    return wait(m, [&] { return load_acquire(word) >= n_; });
}

int Call::await_slot_free() {
    const uint64_t depth = ring_.depth();
    if (n_ <= depth) return MPI_SUCCESS;
    for (int m = 0; m < members_; ++m) {
        if (m == me_) continue;
        uint64_t &word = segment_.member(m).finished;
        if (int e = wait(m, [&] { return load_acquire(word) >= n_ - depth; }); e != MPI_SUCCESS) return e;
    }
    return MPI_SUCCESS;
}

void Call::arrive() {
    store_release(segment_.member(me_).arrived, n_);
    segment_.ring(me_);
}

void Call::publish() {
    store_release(segment_.sequence(me_, n_, ring_), n_);
    segment_.ring(me_);
}

void Call::finish() {
    store_release(segment_.member(me_).finished, n_);
    segment_.ring(me_);
}

}  // namespace ftmpi::coll::node
