// Runs a collective Schedule, blocking or as a generalized request (schedule.hpp).
#include "schedule.hpp"

#include "buffers.hpp"
#include "internal/comm.hpp"
#include "internal/datatype.hpp"
#include "internal/ft.hpp"
#include "internal/op.hpp"
#include "internal/p2p.hpp"
#include "mpi-ext.h"
#include "tags.hpp"

#include <algorithm>
#include <mutex>
#include <utility>

namespace ftmpi::coll {

namespace {

// Storage kept per thread for its next schedules: enough for the few a
// thread has under way at once (nested or non-blocking collectives).
constexpr size_t pooled_storages = 4;
// A schedule with more rounds than this (a pairwise alltoall on many ranks)
// gives its storage back to the heap instead.
constexpr size_t pooled_rounds = 64;
// A round whose receives are all this small posts its sends first (post).
constexpr size_t sends_first_bytes = 1024;

}  // namespace

void Schedule::take_storage(Storage &into) {
    Pool *pool = storage_pool();
    if (pool == nullptr || pool->free.empty()) return;
    into = std::move(pool->free.back());
    pool->free.pop_back();
}

void Schedule::give_back_storage(Storage &&from, size_t used) {
    Pool *pool = storage_pool();
    if (pool == nullptr || pool->free.size() >= pooled_storages || from.rounds.size() > pooled_rounds) return;
    for (size_t i = 0; i < used; ++i) {
        from.rounds[i].messages.clear();
        from.rounds[i].steps.clear();
        from.rounds[i].largest_receive = 0;
        from.rounds[i].agreement = false;
    }
    from.requests.clear();
    pool->free.push_back(std::move(from));
}

namespace {
thread_local bool pool_destroyed = false;  // trivially destructible: still readable while the thread exits
}  // namespace

Schedule::Pool::~Pool() {
    pool_destroyed = true;
}

Schedule::Pool *Schedule::storage_pool() {
    if (pool_destroyed) return nullptr;
    thread_local Pool pool;
    return &pool;
}

Schedule::Schedule(MPI_Comm comm) : comm_(comm), tag_(next_tag(comm)), size_(comm->size), rank_(comm->rank) {
    adopt_storage();
    if (comm->inter || comm->group == nullptr) return;
    // A gap (BLANK mode) is rare; looking for one costs a scan of p ints,
    // nothing next to a message. Only a comm with gaps builds a view.
    const std::vector<int> &world = comm->group->world;
    if (std::find(world.begin(), world.end(), -1) == world.end()) return;
    for (int c = 0; c < static_cast<int>(world.size()); ++c)
        if (world[static_cast<size_t>(c)] != -1) live_.push_back(c);
    size_ = static_cast<int>(live_.size());
    rank_ = view_rank(comm->rank);
}

Schedule::Schedule(MPI_Comm comm, std::vector<int> live)
    : comm_(comm), tag_(next_tag(comm)), size_(static_cast<int>(live.size())), live_(std::move(live)) {
    adopt_storage();
    rank_ = view_rank(comm->rank);
}

void Schedule::adopt_storage() {
    Storage storage;
    take_storage(storage);
    rounds_ = std::move(storage.rounds);
    requests_ = std::move(storage.requests);
    statuses_ = std::move(storage.statuses);
}

Schedule::~Schedule() {
    // A non-blocking agreement still running (the request was freed early)
    // keeps pointing at agreement_; let it finish first.
    if (agreement_ && agreement_->request != MPI_REQUEST_NULL)
        p2p::wait_all(1, &agreement_->request, MPI_STATUSES_IGNORE);
    for (MPI_Datatype type : held_types_) dt::release(type);
    for (MPI_Op op : held_ops_) op::release(op);
    give_back_storage({std::move(rounds_), std::move(requests_), std::move(statuses_)}, rounds_used_);
}

int Schedule::view_rank(int c) const {
    if (live_.empty()) return c;
    const auto it = std::lower_bound(live_.begin(), live_.end(), c);
    return it != live_.end() && *it == c ? static_cast<int>(it - live_.begin()) : -1;
}

Schedule::Round &Schedule::add_round() {
    if (rounds_used_ == rounds_.size()) rounds_.emplace_back();
    return rounds_[rounds_used_++];  // a reused round was emptied when it was given back
}

Schedule::Round &Schedule::current() {
    if (!round_open_) {
        add_round();
        round_open_ = true;
    }
    return rounds_[rounds_used_ - 1];
}

void Schedule::send(const void *buf, int count, MPI_Datatype type, int peer) {
    current().messages.push_back({true, const_cast<void *>(buf), count, type, comm_rank(peer), 0});
}

void Schedule::recv(void *buf, int count, MPI_Datatype type, int peer) {
    Round &round = current();
    const size_t bytes = data_bytes(count, type);
    round.messages.push_back({false, buf, count, type, comm_rank(peer), bytes});
    round.largest_receive = std::max(round.largest_receive, bytes);
}

void Schedule::then(std::function<int()> step) {
    add_step(Step{.kind = Step::Kind::call, .call = std::move(step)});
}

void Schedule::then_reduce(MPI_Op op, const void *in, void *inout, int count, MPI_Datatype type) {
    add_step(Step{.kind = Step::Kind::reduce, .op = op, .src = in, .dst = inout, .count = count, .type = type});
}

void Schedule::then_copy(const void *src, int scount, MPI_Datatype stype, void *dst, int rcount, MPI_Datatype rtype) {
    add_step(Step{.kind = Step::Kind::copy,
                  .src = src,
                  .dst = dst,
                  .count = scount,
                  .type = stype,
                  .dst_count = rcount,
                  .dst_type = rtype});
}

void Schedule::add_step(Step &&step) {
    current().steps.push_back(std::move(step));
    // A step closes its round: messages added after it belong to the next
    // round, since they may depend on the step's result.
    round_open_ = false;
}

int Schedule::Step::run() const {
    switch (kind) {
    case Kind::reduce: return op::apply(op, src, dst, count, type);
    case Kind::copy: return copy(src, count, type, dst, dst_count, dst_type);
    case Kind::call: break;
    }
    return call();
}

void Schedule::end_round() {
    round_open_ = false;
}

void Schedule::agree_at_end() {
    round_open_ = false;
    add_round().agreement = true;
}

std::vector<int> Schedule::known_failed(MPI_Comm comm) {
    std::vector<int> failed;
    for (int c = 0; c < comm->size; ++c) {
        const int world = comm::world_rank_of(comm, c);
        // member_failed also counts a member replaced after comm was made (REBUILD).
        if (world >= 0 && ft::member_failed(comm, world)) failed.push_back(c);
    }
    return failed;
}

char *Schedule::scratch(size_t bytes) {
    const size_t aligned =
        (std::max<size_t>(bytes, 1) + alignof(std::max_align_t) - 1) & ~(alignof(std::max_align_t) - 1);
    if (aligned <= sizeof small_scratch_ - small_scratch_used_) {
        char *p = small_scratch_ + small_scratch_used_;
        small_scratch_used_ += aligned;
        return p;
    }
    scratch_.emplace_back(new char[bytes == 0 ? 1 : bytes]);
    return scratch_.back().get();
}

char *Schedule::scratch_for(int count, MPI_Datatype type) {
    if (count <= 0) return scratch(0);
    const MPI_Aint span = dt::true_extent(type) + static_cast<MPI_Aint>(count - 1) * dt::extent(type);
    return scratch(static_cast<size_t>(span)) - dt::true_lb(type);
}

void Schedule::hold(MPI_Datatype type) {
    dt::retain(type);
    held_types_.push_back(type);
}

void Schedule::hold(MPI_Op op) {
    op::retain(op);
    held_ops_.push_back(op);
}

namespace {
// An error marker stands in for data a sender can no longer provide: its
// size differs from the data's (0 bytes instead of n, 1 byte instead of 0).
const char marker_byte = 0;

int marker_error(MPI_Comm comm) {
    return comm->ft.revoked.load(std::memory_order_relaxed) ? MPIX_ERR_REVOKED : MPIX_ERR_PROC_FAILED;
}
}  // namespace

int Schedule::post(Round &round, bool degraded) {
    requests_.assign(round.messages.size(), MPI_REQUEST_NULL);
    statuses_.resize(round.messages.size());
    // A degraded round of a NOP communicator that knows of a failure sends
    // its markers but receives nothing: its live peers may have left the
    // collective for the recovery (every operation of theirs failed too) and
    // would never send; what those still in it send is purged by the
    // recovery.
    const bool send_only = degraded && ft::blocks_user_ops(comm_);
    // Receives first, so a peer's eager data finds its buffer already posted;
    // but when every receive is small, sends first: a peer waits for them
    // (in a barrier, only for them), and a small message that arrives before
    // its receive costs only a short copy. The order does not change what
    // matches what (one tag per call, FIFO per peer). Every message is
    // posted even after one fails to post (a failed peer refuses at once):
    // the others still owe or are owed theirs.
    const bool sends_first = round.largest_receive <= sends_first_bytes;
    int err = MPI_SUCCESS;
    for (int pass = 0; pass < 2; ++pass) {
        const bool posting_sends = (pass == 0) == sends_first;
        for (size_t i = 0; i < round.messages.size(); ++i) {
            const Message &m = round.messages[i];
            if (m.is_send != posting_sends || (send_only && !m.is_send)) continue;
            int rc;
            if (!m.is_send) {
                rc = p2p::irecv(m.buf, m.count, m.type, m.peer, tag_, comm_, p2p::Channel::collective, &requests_[i]);
            } else if (degraded) {
                const bool empty = data_bytes(m.count, m.type) == 0;
                rc = p2p::isend(&marker_byte, empty ? 1 : 0, MPI_BYTE, m.peer, tag_, comm_, p2p::Channel::collective,
                                &requests_[i]);
            } else {
                rc = p2p::isend(m.buf, m.count, m.type, m.peer, tag_, comm_, p2p::Channel::collective, &requests_[i]);
            }
            if (rc != MPI_SUCCESS) {
                requests_[i] = MPI_REQUEST_NULL;
                if (err == MPI_SUCCESS) err = rc;
            }
        }
    }
    return err;
}

// The round's error: the first failing request (wait_all and test_all
// report MPI_ERR_IN_STATUS and put each request's code in its status), or a
// marker among the receives.
int Schedule::received_error(const Round &round, int waited) const {
    int err = waited == MPI_ERR_IN_STATUS ? MPI_SUCCESS : waited;
    for (size_t i = 0; i < round.messages.size() && err == MPI_SUCCESS; ++i) {
        const Message &m = round.messages[i];
        const MPI_Status &st = statuses_[i];
        if (st.MPI_ERROR != MPI_SUCCESS && st.MPI_ERROR != MPI_ERR_PENDING)
            err = !m.is_send && m.bytes == 0 && st.MPI_ERROR == MPI_ERR_TRUNCATE ? marker_error(comm_) : st.MPI_ERROR;
        else if (!m.is_send && m.bytes > 0 && st.ftmpi_count == 0)
            err = marker_error(comm_);
    }
    return err;
}

int Schedule::finish(Round &round) {
    for (const Step &step : round.steps)
        if (int rc = step.run(); rc != MPI_SUCCESS) return rc;
    return MPI_SUCCESS;
}

bool Schedule::talks_to_nobody() const {
    for (size_t i = 0; i < rounds_used_; ++i)
        if (rounds_[i].agreement || !rounds_[i].messages.empty()) return false;
    return true;
}

int Schedule::run() {
    for (size_t i = 0; i < rounds_used_; ++i) {
        Round &round = rounds_[i];
        if (round.agreement) {
            error_ = agree_blocking();
            continue;
        }
        if (!round.messages.empty()) {
            const bool degraded = error_ != MPI_SUCCESS;
            const int posted = post(round, degraded);
            // Wait even for a degraded round: its receives take what live
            // peers still send, and the buffers must outlive the requests.
            const int waited = p2p::wait_all(static_cast<int>(requests_.size()), requests_.data(), statuses_.data());
            if (!degraded) error_ = posted != MPI_SUCCESS ? posted : received_error(round, waited);
            requests_.clear();
        }
        if (error_ == MPI_SUCCESS) error_ = finish(round);
    }
    return error_;
}

bool Schedule::advance(MPI_Status *status) {
    while (next_ < rounds_used_) {
        Round &round = rounds_[next_];
        if (round.agreement) {
            if (!agree_advance()) return false;
            ++next_;
            continue;
        }
        if (!round.messages.empty()) {
            if (!posted_) {
                posted_ = true;
                posted_degraded_ = error_ != MPI_SUCCESS;
                post_error_ = post(round, posted_degraded_);
            }
            int flag = 0;
            const int waited =
                p2p::test_all(static_cast<int>(requests_.size()), requests_.data(), &flag, statuses_.data());
            if (!flag) return false;
            if (!posted_degraded_) error_ = post_error_ != MPI_SUCCESS ? post_error_ : received_error(round, waited);
            requests_.clear();
        }
        if (error_ == MPI_SUCCESS) error_ = finish(round);
        posted_ = false;
        ++next_;
    }
    if (status) status->MPI_ERROR = error_;
    return true;
}

int Schedule::start(std::unique_ptr<Schedule> schedule, MPI_Request *request) {
    // The progress thread and a waiting user thread may both call advance;
    // whoever holds the lock advances, the other reports "not yet".
    struct State {
        std::unique_ptr<Schedule> schedule;
        std::mutex mutex;
        bool done = false;
        int error = MPI_SUCCESS;
    };
    auto state = std::make_shared<State>();
    state->schedule = std::move(schedule);
    *request = p2p::make_generalized([state](MPI_Status *status) {
        std::unique_lock lock(state->mutex, std::try_to_lock);
        if (!lock.owns_lock()) return false;
        if (!state->done && state->schedule->advance(status)) {
            state->done = true;
            state->error = state->schedule->error_;
            state->schedule.reset();  // buffers and held types go now
        }
        if (state->done && status) status->MPI_ERROR = state->error;
        return state->done;
    });
    return *request == MPI_REQUEST_NULL ? MPI_ERR_INTERN : MPI_SUCCESS;
}

}  // namespace ftmpi::coll
