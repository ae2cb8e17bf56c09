// Owner: coll (mpicoll). See schedule.hpp.
#include "schedule.hpp"

#include "internal/datatype.hpp"
#include "internal/op.hpp"
#include "internal/p2p.hpp"
#include "tags.hpp"

#include <mutex>
#include <utility>

namespace ftmpi::coll {

Schedule::Schedule(MPI_Comm comm) : comm_(comm), tag_(next_tag(comm)) {}

Schedule::~Schedule() {
    for (MPI_Datatype type : held_types_) dt::release(type);
    for (MPI_Op op : held_ops_) op::release(op);
}

Schedule::Round &Schedule::current() {
    if (!round_open_) {
        rounds_.emplace_back();
        round_open_ = true;
    }
    return rounds_.back();
}

void Schedule::send(const void *buf, int count, MPI_Datatype type, int peer) {
    current().messages.push_back({true, const_cast<void *>(buf), count, type, peer});
}

void Schedule::recv(void *buf, int count, MPI_Datatype type, int peer) {
    current().messages.push_back({false, buf, count, type, peer});
}

void Schedule::then(std::function<int()> step) {
    current().steps.push_back(std::move(step));
    // A step closes its round: messages added after it belong to the next
    // round, since they may depend on the step's result.
    round_open_ = false;
}

void Schedule::end_round() { round_open_ = false; }

char *Schedule::scratch(size_t bytes) {
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

int Schedule::post(Round &round) {
    requests_.assign(round.messages.size(), MPI_REQUEST_NULL);
    statuses_.resize(round.messages.size());
    // Receives first, so a peer's eager data finds its buffer already posted.
    int err = MPI_SUCCESS;
    for (int pass = 0; pass < 2 && err == MPI_SUCCESS; ++pass) {
        for (size_t i = 0; i < round.messages.size(); ++i) {
            const Message &m = round.messages[i];
            if (m.is_send != (pass == 1)) continue;
            err = m.is_send ? p2p::isend(m.buf, m.count, m.type, m.peer, tag_, comm_,
                                         p2p::Channel::collective, &requests_[i])
                            : p2p::irecv(m.buf, m.count, m.type, m.peer, tag_, comm_,
                                         p2p::Channel::collective, &requests_[i]);
            if (err != MPI_SUCCESS) break;
        }
    }
    return err;
}

// The first error among a completed round's requests (wait_all and test_all
// report MPI_ERR_IN_STATUS and put each request's code in its status).
static int first_error(int err, const std::vector<MPI_Status> &statuses) {
    if (err != MPI_ERR_IN_STATUS) return err;
    for (const MPI_Status &s : statuses)
        if (s.MPI_ERROR != MPI_SUCCESS && s.MPI_ERROR != MPI_ERR_PENDING) return s.MPI_ERROR;
    return err;
}

int Schedule::finish(Round &round, int err) {
    if (err != MPI_SUCCESS) return err;
    for (auto &step : round.steps)
        if (int rc = step(); rc != MPI_SUCCESS) return rc;
    return MPI_SUCCESS;
}

int Schedule::run() {
    for (Round &round : rounds_) {
        int err = round.messages.empty() ? MPI_SUCCESS : post(round);
        if (!requests_.empty() && !round.messages.empty()) {
            // Even after a failed post, wait for what was posted: those
            // requests still point into buffers we are about to give back.
            const int waited = first_error(
                p2p::wait_all(static_cast<int>(requests_.size()), requests_.data(), statuses_.data()),
                statuses_);
            if (err == MPI_SUCCESS) err = waited;
        }
        requests_.clear();
        if (int rc = finish(round, err); rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

bool Schedule::advance(MPI_Status *status) {
    while (next_ < rounds_.size() && error_ == MPI_SUCCESS) {
        Round &round = rounds_[next_];
        if (!posted_) {
            posted_ = true;
            if (!round.messages.empty()) error_ = post(round);
        }
        if (!round.messages.empty()) {
            int flag = 0;
            const int err = first_error(
                p2p::test_all(static_cast<int>(requests_.size()), requests_.data(), &flag, statuses_.data()),
                statuses_);
            if (!flag) return false;
            if (error_ == MPI_SUCCESS) error_ = err;
        }
        requests_.clear();
        error_ = finish(round, error_);
        posted_ = false;
        ++next_;
    }
    // A failed post leaves earlier requests of its round in flight: wait for
    // them (without blocking) before completing.
    if (!requests_.empty()) {
        int flag = 0;
        p2p::test_all(static_cast<int>(requests_.size()), requests_.data(), &flag, statuses_.data());
        if (!flag) return false;
        requests_.clear();
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
