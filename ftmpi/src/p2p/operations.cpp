// Owner: core (mpicore). See operations.hpp.
#include "p2p/operations.hpp"

#include "p2p/checks.hpp"
#include "p2p/engine.hpp"

#include <vector>

namespace ftmpi::p2p {

namespace {

ftmpi_request_s *build(RequestKind kind, const void *buf, int count, MPI_Datatype type, int rank, int tag,
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

int check_send(int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, Channel channel) {
    if (int e = check_common(comm, count, type)) return e;
    if (int e = check_dest(comm, dest)) return e;
    return check_send_tag(tag, channel);
}

int check_recv(int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, Channel channel) {
    if (int e = check_common(comm, count, type)) return e;
    if (int e = check_source(comm, source)) return e;
    return check_recv_tag(tag, channel);
}

bool done(MPI_Request r) { return inert(r) || r->complete; }

}  // namespace

int start_send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, Channel channel,
               SendMode mode, MPI_Request *request) {
    if (!request) return MPI_ERR_REQUEST;
    if (int e = check_send(count, type, dest, tag, comm, channel)) return e;
    MPI_Request r = build(RequestKind::send, buf, count, type, dest, tag, comm, channel, mode);
    if (int e = Engine::get().post(r)) {
        delete r;
        return e;
    }
    *request = r;
    return MPI_SUCCESS;
}

int start_recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, Channel channel,
               MPI_Request *request) {
    if (!request) return MPI_ERR_REQUEST;
    if (int e = check_recv(count, type, source, tag, comm, channel)) return e;
    MPI_Request r = build(RequestKind::recv, buf, count, type, source, tag, comm, channel, SendMode::standard);
    Engine::get().post(r);
    *request = r;
    return MPI_SUCCESS;
}

int make_persistent_send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                         SendMode mode, MPI_Request *request) {
    if (!request) return MPI_ERR_REQUEST;
    if (int e = check_send(count, type, dest, tag, comm, Channel::user)) return e;
    MPI_Request r = build(RequestKind::send, buf, count, type, dest, tag, comm, Channel::user, mode);
    r->persistent = true;
    empty_status(&r->status);
    *request = r;
    return MPI_SUCCESS;
}

int make_persistent_recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                         MPI_Request *request) {
    if (!request) return MPI_ERR_REQUEST;
    if (int e = check_recv(count, type, source, tag, comm, Channel::user)) return e;
    MPI_Request r = build(RequestKind::recv, buf, count, type, source, tag, comm, Channel::user, SendMode::standard);
    r->persistent = true;
    empty_status(&r->status);
    *request = r;
    return MPI_SUCCESS;
}

int start_persistent(MPI_Request r) {
    if (r == MPI_REQUEST_NULL || !r->persistent) return MPI_ERR_REQUEST;
    if (r->active) return MPI_ERR_REQUEST;  // started twice without a wait
    return Engine::get().post(r);
}

bool inert(MPI_Request r) { return r == MPI_REQUEST_NULL || (r->persistent && !r->active); }

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
        delete r;
        *rp = MPI_REQUEST_NULL;
    }
    return error;
}

MPI_Comm error_comm(MPI_Request r) { return r && r->comm ? r->comm : MPI_COMM_WORLD; }

int wait_one(MPI_Request *rp, MPI_Status *status) {
    MPI_Request r = *rp;
    if (!inert(r)) Engine::get().wait_until([r] { return r->complete; });
    return retire(rp, status);
}

int test_one(MPI_Request *rp, int *flag, MPI_Status *status) {
    MPI_Request r = *rp;
    auto &engine = Engine::get();
    auto complete = [&] {
        std::lock_guard<std::mutex> lk(engine.mutex());
        return done(r);
    };
    if (!complete()) {
        engine.progress();
        if (!complete()) {
            *flag = 0;
            return MPI_SUCCESS;
        }
    }
    *flag = 1;
    return retire(rp, status);
}

int wait_any(int n, MPI_Request *rs, int *index, MPI_Status *status) {
    int found = MPI_UNDEFINED;
    Engine::get().wait_until([&] {
        bool any_active = false;
        for (int i = 0; i < n; ++i) {
            if (inert(rs[i])) continue;
            any_active = true;
            if (rs[i]->complete) {
                found = i;
                return true;
            }
        }
        return !any_active;
    });
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
    return MPI_SUCCESS;
}

namespace {

// Retires the completed requests among rs into indices/statuses.
int collect_some(int n, MPI_Request *rs, int *outcount, int *indices, MPI_Status *statuses) {
    auto &engine = Engine::get();
    std::vector<int> ready;
    bool any_active = false;
    {
        std::lock_guard<std::mutex> lk(engine.mutex());
        for (int i = 0; i < n; ++i) {
            if (inert(rs[i])) continue;
            any_active = true;
            if (rs[i]->complete) ready.push_back(i);
        }
    }
    if (!any_active) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    int result = MPI_SUCCESS;
    *outcount = static_cast<int>(ready.size());
    for (size_t k = 0; k < ready.size(); ++k) {
        indices[k] = ready[k];
        MPI_Status tmp;
        int e = retire(&rs[ready[k]], statuses ? &statuses[k] : &tmp);
        if (e != MPI_SUCCESS) result = MPI_ERR_IN_STATUS;
    }
    return result;
}

}  // namespace

int wait_some(int n, MPI_Request *rs, int *outcount, int *indices, MPI_Status *statuses) {
    Engine::get().wait_until([&] {
        bool any_active = false;
        for (int i = 0; i < n; ++i) {
            if (inert(rs[i])) continue;
            any_active = true;
            if (rs[i]->complete) return true;
        }
        return !any_active;
    });
    return collect_some(n, rs, outcount, indices, statuses);
}

int test_some(int n, MPI_Request *rs, int *outcount, int *indices, MPI_Status *statuses) {
    Engine::get().progress();
    return collect_some(n, rs, outcount, indices, statuses);
}

// ---- ftmpi::p2p (internal/p2p.hpp) ----------------------------------------

int isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, Channel channel,
          MPI_Request *request) {
    return start_send(buf, count, type, dest, tag, comm, channel, SendMode::standard, request);
}

int irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, Channel channel,
          MPI_Request *request) {
    return start_recv(buf, count, type, source, tag, comm, channel, request);
}

int send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, Channel channel) {
    MPI_Request r;
    if (int e = isend(buf, count, type, dest, tag, comm, channel, &r)) return e;
    return wait_one(&r, MPI_STATUS_IGNORE);
}

int recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, Channel channel,
         MPI_Status *status) {
    MPI_Request r;
    if (int e = irecv(buf, count, type, source, tag, comm, channel, &r)) return e;
    return wait_one(&r, status);
}

int wait_all(int n, MPI_Request *rs, MPI_Status *statuses) {
    Engine::get().wait_until([&] {
        for (int i = 0; i < n; ++i)
            if (!done(rs[i])) return false;
        return true;
    });
    int first_error = MPI_SUCCESS;
    for (int i = 0; i < n; ++i) {
        MPI_Status tmp;
        MPI_Status *s = statuses ? &statuses[i] : &tmp;
        int e = retire(&rs[i], s);
        s->MPI_ERROR = e;
        if (e != MPI_SUCCESS && first_error == MPI_SUCCESS) first_error = e;
    }
    if (first_error == MPI_SUCCESS) return MPI_SUCCESS;
    return statuses ? MPI_ERR_IN_STATUS : first_error;
}

int test_all(int n, MPI_Request *rs, int *flag, MPI_Status *statuses) {
    auto &engine = Engine::get();
    auto all_done = [&] {
        std::lock_guard<std::mutex> lk(engine.mutex());
        for (int i = 0; i < n; ++i)
            if (!done(rs[i])) return false;
        return true;
    };
    if (!all_done()) {
        engine.progress();
        if (!all_done()) {
            *flag = 0;
            return MPI_SUCCESS;
        }
    }
    *flag = 1;
    return wait_all(n, rs, statuses);
}

MPI_Request make_generalized(std::function<bool(MPI_Status *)> advance) {
    return Engine::get().make_generalized(std::move(advance));
}

void notify_failed(int world_rank) { Engine::get().declare_failed(world_rank); }

bool is_failed(int world_rank) {
    auto &engine = Engine::get();
    std::lock_guard<std::mutex> lk(engine.mutex());
    return engine.failed(world_rank);
}

}  // namespace ftmpi::p2p
