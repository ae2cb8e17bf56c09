#include "raft_node.hpp"

#include "auth_transport.hpp"

#include <array>
#include <atomic>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <deque>
#include <future>
#include <mutex>
#include <pthread.h>
#include <set>
#include <thread>

namespace harness::drd {

// What RaftNode::Impl holds, outside the anonymous namespace: a class with
// linkage must not hold members of a type without it.

// One caller waiting for the loop thread.
struct RaftWaiter {
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    std::optional<Error> error;
    ApplyOutcome outcome;
    ClusterView view;
};
using RaftWaiterPtr = std::shared_ptr<RaftWaiter>;

// The outcome of applying an entry, read by the writer's callback.
struct ApplySlot {
    ApplyOutcome outcome;
    std::string error;
};

namespace {

void complete(const RaftWaiterPtr &w, std::optional<Error> error, const ApplyOutcome *outcome = nullptr,
              ClusterView *view = nullptr) {
    std::lock_guard lock(w->m);
    if (w->done) return;
    w->error = std::move(error);
    if (outcome) w->outcome = *outcome;
    if (view) w->view = std::move(*view);
    w->done = true;
    w->cv.notify_all();
}

Error raft_error(int rv, const char *what) {
    std::string m = std::string(what) + ": " + raft_strerror(rv);
    switch (rv) {
    case RAFT_NOTLEADER: return make_error(HARNESS_ERR_BUSY, kNotLeader);
    case RAFT_LEADERSHIPLOST: return make_error(HARNESS_ERR_BUSY, m + " (the write may or may not have committed)");
    case RAFT_CANTCHANGE: return make_error(HARNESS_ERR_BUSY, m);
    case RAFT_SHUTDOWN: return make_error(HARNESS_ERR_UNREACHABLE, "drd is shutting down");
    case RAFT_BADID:
    case RAFT_NOTFOUND: return make_error(HARNESS_ERR_NOT_FOUND, m);
    case RAFT_DUPLICATEID:
    case RAFT_DUPLICATEADDRESS: return make_error(HARNESS_ERR_INVALID_ARGUMENT, m);
    default: return make_error(HARNESS_ERR_INTERNAL, m);
    }
}

constexpr std::size_t kSlots = 4096;

}  // namespace

struct RaftNode::Impl {
    RaftNodeOptions o;
    std::string address;
    std::thread thread;

    uv_loop_t loop{};
    uv_async_t wakeup{};
    raft_uv_transport transport{};
    raft_io io{};
    raft_fsm fsm{};
    struct raft raft {};
    bool raft_inited = false;
    std::atomic<bool> raft_started{false};  // raft_start succeeded (written on the loop)

    std::mutex queue_mutex;
    std::deque<std::function<void()>> queue;
    bool stopping = false;
    std::set<RaftWaiterPtr> waiting;  // failed at once when the node stops
    std::array<ApplySlot, kSlots> slots;

    void log(int level, const std::string &m) const {
        if (o.log) o.log(level, m);
    }

    // ---- caller side
    RaftWaiterPtr post(std::function<void(const RaftWaiterPtr &)> task) {
        auto w = std::make_shared<RaftWaiter>();
        {
            std::lock_guard lock(queue_mutex);
            if (stopping) {
                complete(w, make_error(HARNESS_ERR_UNREACHABLE, "drd is shutting down"));
                return w;
            }
            waiting.insert(w);
            queue.push_back([task = std::move(task), w] { task(w); });
            // Under the lock: once `stopping` is set the loop may close the
            // async handle, so no send may slip in after that.
            uv_async_send(&wakeup);
        }
        return w;
    }
    Result<void> wait(const RaftWaiterPtr &w, Deadline deadline, const char *what) {
        std::unique_lock lock(w->m);
        bool done = w->cv.wait_until(lock, deadline, [&] { return w->done; });
        lock.unlock();
        {
            std::lock_guard q(queue_mutex);
            waiting.erase(w);
        }
        if (!done) return make_error(HARNESS_ERR_TIMEOUT, std::string("drd: ") + what + " did not complete in time");
        if (w->error) return *w->error;
        return {};
    }

    // ---- loop side
    static void on_wakeup(uv_async_t *a) {
        auto *im = static_cast<Impl *>(a->data);
        std::deque<std::function<void()>> tasks;
        {
            std::lock_guard lock(im->queue_mutex);
            tasks.swap(im->queue);
        }
        for (auto &t : tasks) t();
    }

    static int fsm_apply(raft_fsm *fsm, const raft_buffer *buf, void **result) {
        auto *im = static_cast<Impl *>(fsm->data);
        // c-raft moves last_applied past an entry only after apply returns.
        auto index = static_cast<std::int64_t>(raft_last_applied(&im->raft) + 1);
        ApplySlot &slot = im->slots[static_cast<std::size_t>(index) % kSlots];
        slot = ApplySlot{};
        auto command = decode_command({static_cast<const std::uint8_t *>(buf->base), buf->len});
        if (!command) {
            slot.error = command.error().message;
            im->log(3, "drd: entry " + std::to_string(index) + " cannot be decoded: " + slot.error);
        } else if (auto r = im->o.store->apply(index, *command); !r) {
            slot.error = r.error().message;
            im->log(3, "drd: applying entry " + std::to_string(index) + " failed: " + slot.error);
        } else {
            slot.outcome = *r;
        }
        *result = &slot;
        if (im->o.on_applied) im->o.on_applied(index);
        return 0;
    }
    // Asynchronous snapshots: snapshot() only reserves the buffer list on the
    // loop; snapshot_async() serializes the store on a worker thread (the
    // store may include entries past the snapshot's index, which is harmless:
    // applying is idempotent by index); finalize frees what we allocated.
    static int fsm_snapshot(raft_fsm *, raft_buffer *bufs[], unsigned *n_bufs) {
        *bufs = static_cast<raft_buffer *>(raft_calloc(1, sizeof(raft_buffer)));
        if (!*bufs) return RAFT_NOMEM;
        *n_bufs = 1;
        return 0;
    }
    static int fsm_snapshot_async(raft_fsm *fsm, raft_buffer *bufs[], unsigned *n_bufs) {
        auto *im = static_cast<Impl *>(fsm->data);
        auto data = im->o.store->snapshot();
        if (!data || *n_bufs < 1) return RAFT_IOERR;
        void *p = raft_malloc(data->size());
        if (!p) return RAFT_NOMEM;
        std::memcpy(p, data->data(), data->size());
        (*bufs)[0].base = p;
        (*bufs)[0].len = data->size();
        return 0;
    }
    // Without io->async_work (Debian's c-raft 0.15 libuv io is version 1) the
    // snapshot is taken synchronously on the loop: fine for the DRD's small
    // state, and still never holds the store's lock across a loop iteration.
    static int fsm_snapshot_sync(raft_fsm *fsm, raft_buffer *bufs[], unsigned *n_bufs) {
        if (int rv = fsm_snapshot(fsm, bufs, n_bufs); rv != 0) return rv;
        if (int rv = fsm_snapshot_async(fsm, bufs, n_bufs); rv != 0) {
            unsigned n = *n_bufs;
            fsm_snapshot_finalize(fsm, bufs, &n);
            return rv;
        }
        return 0;
    }
    static int fsm_snapshot_finalize(raft_fsm *, raft_buffer *bufs[], unsigned *n_bufs) {
        if (*bufs) {
            for (unsigned i = 0; i < *n_bufs; ++i) raft_free((*bufs)[i].base);
            raft_free(*bufs);
        }
        *bufs = nullptr;
        *n_bufs = 0;
        return 0;
    }
    static int fsm_restore(raft_fsm *fsm, raft_buffer *buf) {
        auto *im = static_cast<Impl *>(fsm->data);
        auto r = im->o.store->restore({static_cast<const std::uint8_t *>(buf->base), buf->len});
        if (!r) {
            im->log(3, "drd: restoring a snapshot failed: " + r.error().message);
            return RAFT_MALFORMED;
        }
        raft_free(buf->base);  // the FSM owns a restored snapshot's buffer
        return 0;
    }

    Result<void> open_on_loop_thread() {
        uv_loop_init(&loop);
        uv_async_init(&loop, &wakeup, on_wakeup);
        wakeup.data = this;
        AuthTransportOptions t;
        t.key = o.key;
        t.log = o.log;
        if (auth_transport_init(&transport, &loop, std::move(t)) != 0)
            return make_error(HARNESS_ERR_INTERNAL, "drd: out of memory");
        std::uint16_t port = 0;
        if (auth_transport_bind(&transport, o.host, o.port, &port) != 0)
            return make_error(HARNESS_ERR_BUSY, transport.errmsg);
        address = o.host + ":" + std::to_string(port);
        if (int rv = raft_uv_init(&io, &loop, o.dir.c_str(), &transport); rv != 0)
            return make_error(HARNESS_ERR_INTERNAL, std::string("drd: raft_uv_init: ") + io.errmsg);
        raft_uv_set_connect_retry_delay(&io, 100);
        // Asynchronous snapshots need an io with async_work (version ≥ 2).
        bool async_snapshots = io.version >= 2 && io.async_work != nullptr;
        fsm.version = async_snapshots ? 3 : 2;
        fsm.data = this;
        fsm.apply = fsm_apply;
        fsm.snapshot = async_snapshots ? fsm_snapshot : fsm_snapshot_sync;
        fsm.restore = fsm_restore;
        fsm.snapshot_finalize = fsm_snapshot_finalize;
        fsm.snapshot_async = async_snapshots ? fsm_snapshot_async : nullptr;
        if (int rv = raft_init(&raft, &io, &fsm, o.id, address.c_str()); rv != 0)
            return make_error(HARNESS_ERR_INTERNAL, std::string("drd: raft_init: ") + raft_errmsg(&raft));
        raft_inited = true;
        raft.data = this;
        raft_set_election_timeout(&raft, o.election_timeout_ms);
        raft_set_heartbeat_timeout(&raft, o.heartbeat_timeout_ms);
        raft_set_pre_vote(&raft, true);
        raft_set_snapshot_threshold(&raft, o.snapshot_threshold);
        raft_set_snapshot_trailing(&raft, o.snapshot_trailing);
        if (o.deferred) return {};
        return start_on_loop_thread(o.bootstrap);
    }

    Result<void> start_on_loop_thread(bool bootstrap) {
        if (raft_started) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "drd: the raft server is started already");
        if (bootstrap) {
            raft_configuration conf;
            raft_configuration_init(&conf);
            raft_configuration_add(&conf, o.id, address.c_str(), RAFT_VOTER);
            int rv = raft_bootstrap(&raft, &conf);
            raft_configuration_close(&conf);
            if (rv == 0)
                log(1, "drd: bootstrapped a one-voter cluster as raft server " + std::to_string(o.id));
            else if (rv != RAFT_CANTBOOTSTRAP)
                return make_error(HARNESS_ERR_INTERNAL, std::string("drd: raft_bootstrap: ") + raft_errmsg(&raft));
        }
        if (int rv = raft_start(&raft); rv != 0)
            return make_error(HARNESS_ERR_INTERNAL, std::string("drd: raft_start: ") + raft_errmsg(&raft));
        raft_started = true;
        return {};
    }

    // Closes whatever open_on_loop_thread opened; the loop then runs dry.
    void close_on_loop_thread() {
        if (raft_inited) {
            raft_inited = false;
            raft_close(&raft, [](struct raft *r) {
                auto *im = static_cast<Impl *>(r->data);
                raft_uv_close(&im->io);
                auth_transport_free(&im->transport);
                uv_close(reinterpret_cast<uv_handle_t *>(&im->wakeup), nullptr);
            });
            return;
        }
        if (transport.impl) {
            transport.close(&transport, [](raft_uv_transport *t) { auth_transport_free(t); });
        }
        uv_close(reinterpret_cast<uv_handle_t *>(&wakeup), nullptr);
    }

    void run(std::promise<Result<void>> &started) {
        // A write to a peer that vanished must be EPIPE, not a SIGPIPE that
        // kills whatever process hosts us (hcored ignores it, others may not).
        sigset_t pipe;
        sigemptyset(&pipe);
        sigaddset(&pipe, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
        auto opened = open_on_loop_thread();
        bool ok = opened.ok();
        if (!ok) close_on_loop_thread();
        started.set_value(std::move(opened));
        uv_run(&loop, UV_RUN_DEFAULT);
        uv_loop_close(&loop);
        (void)ok;
    }
};

Result<std::unique_ptr<RaftNode>> RaftNode::start(RaftNodeOptions options) {
    auto im = std::make_unique<Impl>();
    im->o = std::move(options);
    std::promise<Result<void>> started;
    auto future = started.get_future();
    Impl *raw = im.get();
    im->thread = std::thread([raw, &started] { raw->run(started); });
    auto r = future.get();
    if (!r) {
        im->thread.join();
        return r.error();
    }
    return std::unique_ptr<RaftNode>(new RaftNode(std::move(im)));
}

RaftNode::RaftNode(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

RaftNode::~RaftNode() {
    Impl *im = impl_.get();
    std::set<RaftWaiterPtr> waiting;
    {
        std::lock_guard lock(im->queue_mutex);
        im->stopping = true;
        waiting.swap(im->waiting);
        im->queue.push_back([im] { im->close_on_loop_thread(); });
        uv_async_send(&im->wakeup);
    }
    for (const auto &w : waiting) complete(w, make_error(HARNESS_ERR_UNREACHABLE, "drd is shutting down"));
    im->thread.join();
}

Result<void> RaftNode::begin(bool bootstrap, Deadline deadline) {
    Impl *im = impl_.get();
    auto w = im->post([im, bootstrap](const RaftWaiterPtr &waiter) {
        auto r = im->start_on_loop_thread(bootstrap);
        complete(waiter, r ? std::nullopt : std::optional<Error>(r.error()));
    });
    return im->wait(w, deadline, "starting the raft server");
}

bool RaftNode::started() const {
    return impl_->raft_started;
}

const std::string &RaftNode::address() const {
    return impl_->address;
}
std::uint64_t RaftNode::id() const {
    return impl_->o.id;
}

Result<ApplyOutcome> RaftNode::submit(const Command &command, Deadline deadline) {
    Bytes entry = encode_command(command);
    Impl *im = impl_.get();
    struct Req {
        struct raft_apply req {};
        RaftWaiterPtr w;
    };
    auto w = im->post([im, entry = std::move(entry)](const RaftWaiterPtr &waiter) {
        if (raft_state(&im->raft) != RAFT_LEADER) return complete(waiter, raft_error(RAFT_NOTLEADER, "submit"));
        raft_buffer buf;
        buf.len = entry.size();  // a multiple of 8 (frame_padded)
        buf.base = raft_malloc(buf.len);
        if (!buf.base) return complete(waiter, make_error(HARNESS_ERR_INTERNAL, "drd: out of memory"));
        std::memcpy(buf.base, entry.data(), buf.len);
        auto *req = new Req();
        req->w = waiter;
        req->req.data = req;
        int rv = raft_apply(&im->raft, &req->req, &buf, 1, [](struct raft_apply *r, int status, void *result) {
            auto *q = static_cast<Req *>(r->data);
            if (status != 0) {
                complete(q->w, raft_error(status, "apply"));
            } else {
                auto *slot = static_cast<ApplySlot *>(result);
                if (!slot->error.empty())
                    complete(q->w, make_error(HARNESS_ERR_INTERNAL, slot->error));
                else
                    complete(q->w, std::nullopt, &slot->outcome);
            }
            delete q;
        });
        if (rv != 0) {
            raft_free(buf.base);
            complete(waiter, raft_error(rv, "apply"));
            delete req;
        }
    });
    if (auto r = im->wait(w, deadline, "write"); !r) return r.error();
    return w->outcome;
}

Result<void> RaftNode::barrier(Deadline deadline) {
    Impl *im = impl_.get();
    struct Req {
        struct raft_barrier req {};
        RaftWaiterPtr w;
    };
    auto w = im->post([im](const RaftWaiterPtr &waiter) {
        if (raft_state(&im->raft) != RAFT_LEADER) return complete(waiter, raft_error(RAFT_NOTLEADER, "barrier"));
        auto *req = new Req();
        req->w = waiter;
        req->req.data = req;
        int rv = raft_barrier(&im->raft, &req->req, [](struct raft_barrier *r, int status) {
            auto *q = static_cast<Req *>(r->data);
            complete(q->w, status == 0 ? std::nullopt : std::optional<Error>(raft_error(status, "barrier")));
            delete q;
        });
        if (rv != 0) {
            complete(waiter, raft_error(rv, "barrier"));
            delete req;
        }
    });
    return im->wait(w, deadline, "read barrier");
}

namespace {

struct ChangeReq {
    raft_change req{};
    RaftWaiterPtr w;
};

void change_done(raft_change *r, int status) {
    auto *q = static_cast<ChangeReq *>(r->data);
    complete(q->w, status == 0 ? std::nullopt : std::optional<Error>(raft_error(status, "membership change")));
    delete q;
}

template <class Start>
RaftWaiterPtr post_change(RaftNode::Impl *im, Start start) {
    return im->post([im, start](const RaftWaiterPtr &waiter) {
        if (raft_state(&im->raft) != RAFT_LEADER) return complete(waiter, raft_error(RAFT_NOTLEADER, "change"));
        auto *req = new ChangeReq();
        req->w = waiter;
        req->req.data = req;
        int rv = start(&im->raft, &req->req);
        if (rv != 0) {
            complete(waiter, raft_error(rv, "membership change"));
            delete req;
        }
    });
}

}  // namespace

Result<void> RaftNode::add(std::uint64_t id, const std::string &address, Deadline deadline) {
    auto w = post_change(impl_.get(), [id, address](struct raft *r, raft_change *req) {
        return raft_add(r, req, id, address.c_str(), change_done);
    });
    return impl_->wait(w, deadline, "adding a server");
}

Result<void> RaftNode::assign(std::uint64_t id, Role role, Deadline deadline) {
    auto w = post_change(impl_.get(), [id, role](struct raft *r, raft_change *req) {
        return raft_assign(r, req, id, static_cast<int>(role), change_done);
    });
    return impl_->wait(w, deadline, "assigning a role");
}

Result<void> RaftNode::remove(std::uint64_t id, Deadline deadline) {
    auto w = post_change(impl_.get(),
                         [id](struct raft *r, raft_change *req) { return raft_remove(r, req, id, change_done); });
    return impl_->wait(w, deadline, "removing a server");
}

Result<ClusterView> RaftNode::view(Deadline deadline) {
    Impl *im = impl_.get();
    auto w = im->post([im](const RaftWaiterPtr &waiter) {
        ClusterView v;
        v.self_id = im->o.id;
        raft_id leader = 0;
        const char *leader_address = nullptr;
        raft_leader(&im->raft, &leader, &leader_address);
        v.leader_id = leader;
        v.leader_address = leader_address ? leader_address : "";
        v.is_leader = raft_state(&im->raft) == RAFT_LEADER;
        for (unsigned i = 0; i < im->raft.configuration.n; ++i) {
            const raft_server &s = im->raft.configuration.servers[i];
            v.servers.push_back(ServerInfo{s.id, s.address ? s.address : "", static_cast<Role>(s.role)});
        }
        v.commit_index = static_cast<std::int64_t>(im->raft.commit_index);
        v.last_applied = static_cast<std::int64_t>(raft_last_applied(&im->raft));
        complete(waiter, std::nullopt, nullptr, &v);
    });
    if (auto r = im->wait(w, deadline, "status"); !r) return r.error();
    return w->view;
}

}  // namespace harness::drd
