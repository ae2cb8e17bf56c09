// The non-blocking core of every p2p call (operations.hpp).
#include "p2p/operations.hpp"

#include "internal/ft.hpp"
#include "mpi-ext.h"
#include "p2p/checks.hpp"
#include "p2p/engine.hpp"

#include <vector>

namespace ftmpi::p2p {

namespace {

ftmpi_request_s *build(RequestKind kind, const void *buf, MPI_Count count, MPI_Datatype type, int rank, int tag,
                       MPI_Comm comm, Channel channel, SendMode mode) {
    auto *r = new ftmpi_request_s();
    r->kind = kind;
    r->mode = mode;
    r->buf = const_cast<void *>(buf);
    r->count = count;
    r->type = type;
    r->comm = comm;
    r->channel = channel;
    r->rank_arg = rank;
    r->tag = tag;
    return r;
}

// An empty operation may name no datatype (count 0 with
// MPI_DATATYPE_NULL), as MPICH accepts: nothing moves, so it moves as zero
// MPI_BYTEs. Any other use of MPI_DATATYPE_NULL stays MPI_ERR_TYPE.
MPI_Datatype moved_type(MPI_Count count, MPI_Datatype type) {
    return count == 0 && type == MPI_DATATYPE_NULL ? MPI_BYTE : type;
}

int check_send(MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, Channel channel) {
    if (int e = check_common(comm, count, type)) return e;
    if (int e = check_dest(comm, dest)) return e;
    return check_send_tag(tag, channel);
}

int check_recv(MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm, Channel channel) {
    if (int e = check_common(comm, count, type)) return e;
    if (int e = check_source(comm, source)) return e;
    return check_recv_tag(tag, channel);
}

bool done(MPI_Request r) {
    return inert(r) || r->complete;
}

// Operations that complete at once with MPIX_ERR_PROC_FAILED (asked
// outside the engine's lock; atomic reads while nothing has failed or been
// replaced): NOP message mode, a user operation on a communicator with an
// unrecovered failure; and any operation naming a rank that REBUILD
// replaced after the communicator was made (a window's, a file's or the
// program's old communicator): the new process does not know that
// communicator, so nothing sent to it or expected from it there would
// ever complete.
int refused(MPI_Comm comm, Channel channel, int rank) {
    if (channel == Channel::user && ft::blocks_user_ops(comm)) return MPIX_ERR_PROC_FAILED;
    if (ft::replaced_member(comm, rank)) return MPIX_ERR_PROC_FAILED;
    return MPI_SUCCESS;
}

// A persistent request starts inactive with an empty status and holds its
// datatype until it is freed.
int hand_out_persistent(MPI_Request r, MPI_Datatype type, MPI_Request *request) {
    r->persistent = true;
    if (type != MPI_DATATYPE_NULL) {
        dt::retain(type);
        r->held_type = type;
    }
    empty_status(&r->status);
    *request = r;
    return MPI_SUCCESS;
}

}  // namespace

int start_send(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, Channel channel,
               SendMode mode, MPI_Request *request, bool *completed) {
    if (!request) return MPI_ERR_REQUEST;
    type = moved_type(count, type);
    if (int e = check_send(count, type, dest, tag, comm, channel)) return e;
    MPI_Request r = build(RequestKind::send, buf, count, type, dest, tag, comm, channel, mode);
    if (int e = Engine::get().post(r, refused(comm, channel, r->rank_arg), completed)) {
        delete r;
        return e;
    }
    *request = r;
    return MPI_SUCCESS;
}

int start_recv(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm, Channel channel,
               MPI_Request *request, bool *completed) {
    if (!request) return MPI_ERR_REQUEST;
    type = moved_type(count, type);
    if (int e = check_recv(count, type, source, tag, comm, channel)) return e;
    MPI_Request r = build(RequestKind::recv, buf, count, type, source, tag, comm, channel, SendMode::standard);
    Engine::get().post(r, refused(comm, channel, r->rank_arg), completed);
    *request = r;
    return MPI_SUCCESS;
}

int make_persistent_send(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                         SendMode mode, MPI_Request *request) {
    if (!request) return MPI_ERR_REQUEST;
    type = moved_type(count, type);
    if (int e = check_send(count, type, dest, tag, comm, Channel::user)) return e;
    MPI_Request r = build(RequestKind::send, buf, count, type, dest, tag, comm, Channel::user, mode);
    return hand_out_persistent(r, type, request);
}

int make_persistent_recv(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                         MPI_Request *request) {
    if (!request) return MPI_ERR_REQUEST;
    type = moved_type(count, type);
    if (int e = check_recv(count, type, source, tag, comm, Channel::user)) return e;
    MPI_Request r = build(RequestKind::recv, buf, count, type, source, tag, comm, Channel::user, SendMode::standard);
    return hand_out_persistent(r, type, request);
}

int start_persistent(MPI_Request r) {
    if (r == MPI_REQUEST_NULL || !r->persistent) return MPI_ERR_REQUEST;
    if (r->active) return MPI_ERR_REQUEST;  // started twice without a wait
    if (r->start_collective || r->start_owned) return start_persistent_collective(r);
    return Engine::get().post(r, refused(r->comm, r->channel, r->rank_arg));
}

bool inert(MPI_Request r) {
    return r == MPI_REQUEST_NULL || (r->persistent && !r->active);
}

void empty_status(MPI_Status *s) {
    if (!s) return;
    s->MPI_SOURCE = MPI_ANY_SOURCE;
    s->MPI_TAG = MPI_ANY_TAG;
    s->MPI_ERROR = MPI_SUCCESS;
    s->ftmpi_count = 0;
    s->ftmpi_cancelled = 0;
}

int retire(MPI_Request *rp, MPI_Status *status) {
    MPI_Request r = *rp;
    if (inert(r)) {
        empty_status(status);
        return MPI_SUCCESS;
    }
    int error = r->status.MPI_ERROR;
    if (status) *status = r->status;
    if (r->persistent) {
        r->active = false;
    } else {
        std::function<int()> on_release = std::move(r->on_release);
        delete r;
        *rp = MPI_REQUEST_NULL;
        if (on_release) {
            const int released = on_release();
            if (error == MPI_SUCCESS && released != MPI_SUCCESS) {
                error = released;
                if (status) status->MPI_ERROR = released;
            }
        }
    }
    return error;
}

MPI_Comm error_comm(MPI_Request r) {
    return r && r->comm ? r->comm : MPI_COMM_WORLD;
}

// ULFM (FT_CONTRACTS.md "Message modes"): a user-channel MPI_ANY_SOURCE
// receive that nothing matched yet, on a communicator with a failed member
// not yet acknowledged, is *stopped*: a non-blocking one reports
// MPIX_ERR_PROC_FAILED_PENDING from Wait/Test and stays pending (it can be
// waited again after MPIX_Comm_failure_ack); a blocking receive ends with
// MPIX_ERR_PROC_FAILED. ftstate is asked without the engine's lock; a wait
// on such a receive also ends when a failure has been reported to ftstate
// (reported_epoch), so it can ask again.
namespace {

bool watched(MPI_Request r) {
    return !inert(r) && r->watch_failures;
}

bool any_watched(int n, MPI_Request *rs) {
    for (int i = 0; i < n; ++i)
        if (watched(rs[i])) return true;
    return false;
}

bool stopped(MPI_Request r) {
    return watched(r) && ft::any_source_blocked(r->comm) && Engine::get().awaiting_match(r);
}

bool complete_now(MPI_Request r) {
    std::lock_guard<std::mutex> lk(Engine::get().mutex());
    return done(r);
}

// Which of rs are stopped now. A blocking call takes them back and lets
// them complete with MPIX_ERR_PROC_FAILED instead (withdraw).
std::vector<char> find_stopped(int n, MPI_Request *rs, bool blocking, bool *any) {
    std::vector<char> stop(static_cast<size_t>(n), 0);
    *any = false;
    for (int i = 0; i < n; ++i) {
        if (!stopped(rs[i])) continue;
        if (blocking) {
            Engine::get().withdraw(rs[i]);
        } else {
            stop[static_cast<size_t>(i)] = 1;
            *any = true;
        }
    }
    return stop;
}

}  // namespace

int wait_one(MPI_Request *rp, MPI_Status *status, bool blocking) {
    MPI_Request r = *rp;
    auto &engine = Engine::get();
    if (!watched(r)) {
        if (!inert(r)) engine.wait_until([r] { return r->complete; });
        return retire(rp, status);
    }
    for (;;) {
        const uint64_t seen = engine.reported_epoch();
        bool any = false;
        find_stopped(1, rp, blocking, &any);
        if (any) return MPIX_ERR_PROC_FAILED_PENDING;  // the request stays active
        bool complete = false;
        engine.wait_until([&] {
            complete = r->complete;
            return complete || engine.reported_epoch() != seen;
        });
        if (complete) return retire(rp, status);
    }
}

int wait_one(MPI_Request *rp, MPI_Status *status) {
    return wait_one(rp, status, false);
}

int test_one(MPI_Request *rp, int *flag, MPI_Status *status) {
    MPI_Request r = *rp;
    auto &engine = Engine::get();
    if (!complete_now(r)) {
        engine.progress();
        if (!complete_now(r)) {
            *flag = 0;
            return stopped(r) ? MPIX_ERR_PROC_FAILED_PENDING : MPI_SUCCESS;
        }
    }
    *flag = 1;
    return retire(rp, status);
}

int wait_any(int n, MPI_Request *rs, int *index, MPI_Status *status) {
    auto &engine = Engine::get();
    const bool watch = any_watched(n, rs);
    int found = MPI_UNDEFINED;
    bool any_active = false;
    auto scan = [&] {  // lock held
        found = MPI_UNDEFINED;
        any_active = false;
        for (int i = 0; i < n; ++i) {
            if (inert(rs[i])) continue;
            any_active = true;
            if (rs[i]->complete) {
                found = i;
                return true;
            }
        }
        return !any_active;
    };
    for (;;) {
        const uint64_t seen = engine.reported_epoch();
        if (watch) {
            bool settled;
            {
                std::lock_guard<std::mutex> lk(engine.mutex());
                settled = scan();
            }
            if (!settled) {
                for (int i = 0; i < n; ++i)
                    if (stopped(rs[i])) {
                        *index = i;
                        return MPIX_ERR_PROC_FAILED_PENDING;
                    }
            }
        }
        bool settled = false;
        engine.wait_until([&] {
            settled = scan();
            return settled || (watch && engine.reported_epoch() != seen);
        });
        if (settled) break;
    }
    *index = found;
    if (found == MPI_UNDEFINED) {
        empty_status(status);
        return MPI_SUCCESS;
    }
    return retire(&rs[found], status);
}

int test_any(int n, MPI_Request *rs, int *index, int *flag, MPI_Status *status) {
    auto &engine = Engine::get();
    for (int pass = 0; pass < 2; ++pass) {
        int found = MPI_UNDEFINED;
        bool any_active = false;
        {
            std::lock_guard<std::mutex> lk(engine.mutex());
            for (int i = 0; i < n && found == MPI_UNDEFINED; ++i) {
                if (inert(rs[i])) continue;
                any_active = true;
                if (rs[i]->complete) found = i;
            }
        }
        if (!any_active) {
            *flag = 1;
            *index = MPI_UNDEFINED;
            empty_status(status);
            return MPI_SUCCESS;
        }
        if (found != MPI_UNDEFINED) {
            *flag = 1;
            *index = found;
            return retire(&rs[found], status);
        }
        if (pass == 0) engine.progress();
    }
    *flag = 0;
    *index = MPI_UNDEFINED;
    for (int i = 0; i < n; ++i)
        if (stopped(rs[i])) {
            *index = i;
            return MPIX_ERR_PROC_FAILED_PENDING;
        }
    return MPI_SUCCESS;
}

namespace {

// Retires the completed requests among rs into indices/statuses; the
// stopped ones (stop[i]) are listed too, with MPIX_ERR_PROC_FAILED_PENDING
// in their status, and stay active.
int collect_some(int n, MPI_Request *rs, int *outcount, int *indices, MPI_Status *statuses,
                 const std::vector<char> &stop) {
    auto &engine = Engine::get();
    std::vector<int> ready, pending;
    bool any_active = false;
    {
        std::lock_guard<std::mutex> lk(engine.mutex());
        for (int i = 0; i < n; ++i) {
            if (inert(rs[i])) continue;
            any_active = true;
            if (rs[i]->complete)
                ready.push_back(i);
            else if (!stop.empty() && stop[static_cast<size_t>(i)])
                pending.push_back(i);
        }
    }
    if (!any_active) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    int result = MPI_SUCCESS;
    *outcount = static_cast<int>(ready.size() + pending.size());
    size_t k = 0;
    for (int i : ready) {
        indices[k] = i;
        MPI_Status tmp;
        int e = retire(&rs[i], statuses ? &statuses[k] : &tmp);
        if (e != MPI_SUCCESS) result = MPI_ERR_IN_STATUS;
        ++k;
    }
    for (int i : pending) {
        indices[k] = i;
        if (statuses) {
            empty_status(&statuses[k]);
            statuses[k].MPI_ERROR = MPIX_ERR_PROC_FAILED_PENDING;
        }
        result = MPI_ERR_IN_STATUS;
        ++k;
    }
    return result;
}

}  // namespace

int wait_some(int n, MPI_Request *rs, int *outcount, int *indices, MPI_Status *statuses) {
    auto &engine = Engine::get();
    const bool watch = any_watched(n, rs);
    for (;;) {
        const uint64_t seen = engine.reported_epoch();
        bool any_stopped = false;
        std::vector<char> stop = watch ? find_stopped(n, rs, false, &any_stopped) : std::vector<char>{};
        if (any_stopped) return collect_some(n, rs, outcount, indices, statuses, stop);
        bool settled = false;
        engine.wait_until([&] {
            bool any_active = false;
            settled = true;
            for (int i = 0; i < n; ++i) {
                if (inert(rs[i])) continue;
                any_active = true;
                if (rs[i]->complete) return true;
            }
            settled = !any_active;
            return settled || (watch && engine.reported_epoch() != seen);
        });
        if (settled) return collect_some(n, rs, outcount, indices, statuses, {});
    }
}

int test_some(int n, MPI_Request *rs, int *outcount, int *indices, MPI_Status *statuses) {
    Engine::get().progress();
    bool any_stopped = false;
    std::vector<char> stop = any_watched(n, rs) ? find_stopped(n, rs, false, &any_stopped) : std::vector<char>{};
    return collect_some(n, rs, outcount, indices, statuses, stop);
}

int wait_all(int n, MPI_Request *rs, MPI_Status *statuses, bool blocking) {
    auto &engine = Engine::get();
    const bool watch = any_watched(n, rs);
    std::vector<char> stop;
    for (;;) {
        const uint64_t seen = engine.reported_epoch();
        bool any_stopped = false;
        if (watch) stop = find_stopped(n, rs, blocking, &any_stopped);
        bool all = false;
        engine.wait_until([&] {
            all = true;
            for (int i = 0; i < n && all; ++i)
                if (!done(rs[i]) && !(any_stopped && stop[static_cast<size_t>(i)])) all = false;
            return all || (watch && engine.reported_epoch() != seen);
        });
        if (all) break;
    }
    int first_error = MPI_SUCCESS;
    for (int i = 0; i < n; ++i) {
        MPI_Status tmp;
        MPI_Status *s = statuses ? &statuses[i] : &tmp;
        int e;
        if (!stop.empty() && stop[static_cast<size_t>(i)] && !complete_now(rs[i])) {
            empty_status(s);  // stopped: it stays active for a later wait
            e = MPIX_ERR_PROC_FAILED_PENDING;
        } else {
            e = retire(&rs[i], s);
        }
        s->MPI_ERROR = e;
        if (e != MPI_SUCCESS && first_error == MPI_SUCCESS) first_error = e;
    }
    if (first_error == MPI_SUCCESS) return MPI_SUCCESS;
    return statuses ? MPI_ERR_IN_STATUS : first_error;
}

int wait_all(int n, MPI_Request *rs, MPI_Status *statuses) {
    return wait_all(n, rs, statuses, false);
}

// ---- ftmpi::p2p (internal/p2p.hpp) ----------------------------------------

int wait_unless_revoked(MPI_Request *rp, MPI_Status *status, MPI_Comm comm) {
    MPI_Request r = *rp;
    auto &engine = Engine::get();
    bool complete = false;
    engine.wait_until([&] {
        complete = done(r);
        return complete || engine.revoked_locked(comm);
    });
    if (!complete) return MPIX_ERR_REVOKED;
    return wait_all(1, rp, status);
}

int isend(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, Channel channel,
          MPI_Request *request) {
    return start_send(buf, count, type, dest, tag, comm, channel, SendMode::standard, request);
}

int irecv(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm, Channel channel,
          MPI_Request *request) {
    return start_recv(buf, count, type, source, tag, comm, channel, request);
}

int send(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, Channel channel) {
    MPI_Request r;
    if (int e = isend(buf, count, type, dest, tag, comm, channel, &r)) return e;
    return wait_one(&r, MPI_STATUS_IGNORE);
}

int recv(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm, Channel channel,
         MPI_Status *status) {
    MPI_Request r;
    if (int e = irecv(buf, count, type, source, tag, comm, channel, &r)) return e;
    return wait_one(&r, status, true);
}

namespace {
int test_all(int n, MPI_Request *rs, int *flag, MPI_Status *statuses, bool poll) {
    auto &engine = Engine::get();
    auto all_done = [&] {
        std::lock_guard<std::mutex> lk(engine.mutex());
        for (int i = 0; i < n; ++i)
            if (!done(rs[i])) return false;
        return true;
    };
    if (!all_done()) {
        if (poll) engine.progress();
        if (!poll || !all_done()) {
            *flag = 0;
            for (int i = 0; i < n; ++i)
                if (stopped(rs[i])) return MPIX_ERR_PROC_FAILED_PENDING;
            return MPI_SUCCESS;
        }
    }
    *flag = 1;
    return wait_all(n, rs, statuses, false);
}
}  // namespace

int test_all(int n, MPI_Request *rs, int *flag, MPI_Status *statuses) {
    return test_all(n, rs, flag, statuses, true);
}

int test_all_after_poll(int n, MPI_Request *rs, int *flag, MPI_Status *statuses) {
    return test_all(n, rs, flag, statuses, false);
}

MPI_Request make_generalized(std::function<bool(MPI_Status *)> advance) {
    return Engine::get().make_generalized(std::move(advance));
}

MPI_Request make_event_driven(std::function<bool(MPI_Status *)> advance) {
    return Engine::get().make_generalized(std::move(advance), true);
}

void notify_failed(int world_rank) {
    Engine::get().declare_failed(world_rank);
}

bool is_failed(int world_rank) {
    auto &engine = Engine::get();
    if (engine.failure_epoch() == 0) return false;  // nothing was ever declared failed: no lock
    std::lock_guard<std::mutex> lk(engine.mutex());
    return engine.failed(world_rank);
}

}  // namespace ftmpi::p2p
