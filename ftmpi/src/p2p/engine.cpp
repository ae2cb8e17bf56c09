// The engine's life cycle, waiting and progress; the
// matching and protocols are in matching.cpp.
#include "p2p/engine.hpp"

#include "internal/comm.hpp"
#include "internal/datatype.hpp"
#include "mpi-ext.h"
#include "settings/values.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sched.h>
#include <sys/sysinfo.h>
#include <unistd.h>

namespace ftmpi::p2p {

namespace {

constexpr unsigned spin_check_every = 32;  // spinning steps between clock reads

}  // namespace

Settings Settings::from_environment() {
    using ftmpi::settings::Id;
    const ftmpi::settings::Values &env = ftmpi::settings::current();
    Settings s;
    s.eager_limit = static_cast<size_t>(env.number(Id::eager_limit));
    s.idle = std::chrono::microseconds(env.number(Id::progress_idle));
    const long long local_ranks = env.number(Id::local_size);
    const bool oversubscribed = local_ranks <= 0 || local_ranks > get_nprocs();
    // A rank with a core of its own spins through a large transfer (1 MiB
    // takes ~100 us here); blocking costs a wake-up of 20 us or more on these
    // virtual machines, and 1 MiB ping-pong was 20 % slower, 256 KiB
    // streaming 3x slower, with 50 us. Ranks sharing cores block soon.
    const bool spin_given = env.is_set(Id::spin) && env.valid(Id::spin);
    s.spin = std::chrono::microseconds(spin_given ? env.number(Id::spin) : oversubscribed ? 50 : 2000);
    s.yield_when_idle = env.optional_flag(Id::yield_when_idle).value_or(oversubscribed);
    return s;
}

Engine &Engine::get() {
    // Never destroyed: the progress thread and atexit handlers may outlive
    // static destruction order.
    static Engine *engine = new Engine();
    return *engine;
}

std::string Engine::start(const transport::RouterOptions &options, const Exchange &exchange) {
    Lock lk(mu_);
    settings_ = Settings::from_environment();
    rank_ = options.rank;
    size_ = options.size;
    failures_.reset(size_);
    match_.reset(size_);
    stopping_ = false;
    net_ = std::make_unique<transport::Router>(*this);
    networked_ = size_ > 1 || options.reachable_alone;
    if (networked_) {
        try {
            transport::RouterOptions o = options;
            o.incarnation = my_incarnation_;
            o.round = my_round_;
            Wired wired = exchange(net_->open(o));
            reread_card_ = std::move(wired.reread);
            if (static_cast<int>(wired.cards.size()) != size_) return "wire-up returned the wrong number of contacts";
            const long long timeout_ms = ftmpi::settings::current().number(ftmpi::settings::Id::wireup_timeout);
            // A rank without a card is left out of the mesh (router.hpp),
            // and so is one that ends while this rank connects to it.
            std::vector<std::pair<int, std::string>> ended = std::move(wired.ended);
            transport::PeerEnded ended_since;
            if (wired.ended_since)
                ended_since = [&](int peer) {
                    std::string why;
                    if (!wired.ended_since(peer, &why)) return false;
                    ended.emplace_back(peer, why);
                    return true;
                };
            if (options.first_sibling >= 0) {  // a process MPI_Comm_spawn added
                // Reported to ftstate (open_reports), unlike a replacement's
                // dead peers, which its recovery learns from the survivors.
                for (int lost : net_->join_spawned(wired.cards, options.first_sibling, join_connect_timeout(),
                                                   std::chrono::milliseconds(timeout_ms), ended_since))
                    if (!failures_.failed(lost) &&
                        std::find(options.absent.begin(), options.absent.end(), lost) == options.absent.end())
                        failures_.mark_failed(lost, "it ended or did not answer while this spawned process started");
            } else if (my_incarnation_ > 0) {
                for (int lost : net_->join(wired.cards, join_connect_timeout()))  // a replacement (joins.cpp)
                    failures_.mark_failed_at_start(lost);
            } else {
                net_->connect(wired.cards, std::chrono::milliseconds(timeout_ms), ended_since);
                for (const auto &[world, why] : ended)
                    if (world >= 0 && world < size_ && world != rank_ && !failures_.failed(world))
                        failures_.mark_failed(world, why + " during MPI_Init");
            }
        } catch (const std::exception &e) {
            return e.what();
        }
    }
    running_ = true;
    turn_.last_user_exit = std::chrono::steady_clock::now();
    if (networked_) progress_thread_ = std::thread([this] { progress_thread_main(); });
    return {};
}

void Engine::open_reports() {
    Lock lk(mu_);
    failures_.open();
    report(lk);
}

std::string Engine::transport_summary() {
    Lock lk(mu_);
    return net_ && networked_ ? net_->summary() : "none";
}

bool Engine::shares_memory_with(int world) {
    if (world == rank_) return true;
    Lock lk(mu_);
    return net_ && networked_ && world >= 0 && world < size_ && net_->connected(world) &&
        net_->route_name(world) == "shm";
}

bool Engine::failed(int world) const {
    return world >= 0 && world < size_ && failures_.failed(world);
}

void Engine::finalize(const std::vector<int> &connected) {
    if (!running_) return;
    if (networked_) {
        {
            Lock lk(mu_);
            transport::Frame bye{};
            bye.kind = transport::FrameKind::bye;
            bye.source = rank_;
            for (int p = 0; p < size_; ++p)
                if (p != rank_) net_->send(p, bye, nullptr, 0, true, 0);
        }
        // Every connected peer has said bye (so everything it sent us has
        // arrived) or failed, and everything we queued is written. A process
        // MPI_Comm_disconnect parted us from may run on: it got our bye, so
        // our end of file is no failure there.
        wait_until([&] {
            for (int p : connected)
                if (p != rank_ && p < size_ && net_->connected(p)) return false;
            return net_->flushed();
        });
        {
            Lock lk(mu_);
            stopping_ = true;
            net_->wake();
        }
        turn_.unpark();
        progress_thread_.join();
    }
    Lock lk(mu_);
    running_ = false;
    net_.reset();
}

void Engine::abort(int code) {
    if (running_ && networked_) {
        // Best effort, without waiting: the launcher kills what remains.
        std::unique_lock<std::mutex> lk(mu_, std::try_to_lock);
        if (lk.owns_lock()) {
            transport::Frame f{};
            f.kind = transport::FrameKind::abort;
            f.source = rank_;
            f.length = static_cast<uint64_t>(code);
            for (int p = 0; p < size_; ++p)
                if (p != rank_) net_->send(p, f, nullptr, 0, true, 0);
        }
    }
    std::fflush(stdout);
    std::fflush(stderr);
    int status = code & 0xff;  // an exit status has 8 bits; an abort never exits 0
    _exit(status == 0 ? 1 : status);
}

// One turn as the poller. Called with the lock held and turn_.polling false.
void Engine::poll_step(Lock &lk, bool block) {
    // Asked of this thread, not of turn_: a user thread may take the turn
    // while the progress thread is still in its own poll_step's advances.
    const bool by_progress_thread = std::this_thread::get_id() == progress_thread_id_;
    turn_.polling = true;
    turn_.poller = std::this_thread::get_id();
    turn_.progress_thread = by_progress_thread;
    turn_.blocked = block;
    // A generalized request may advance without any socket event (a local
    // step); never sleep long while one is active. Event-driven ones (the
    // handlers of incoming messages) have work only after frames or a
    // failure, which wake the poller anyway: the progress thread sleeps
    // through them. A user thread keeps the short timeout: its own sends to
    // itself reach such a handler without any event.
    const bool timed = std::any_of(generalized_.begin(), generalized_.end(),
                                   [&](MPI_Request r) { return !r->event_driven || !by_progress_thread; });
    int timeout = block ? (timed ? 1 : -1) : 0;
    if (timeout != 0 && !net_->prepare_wait()) timeout = 0;  // the drivers' state is touched under the lock only
    int n;
    if (timeout == 0) {
        n = net_->wait_events(0);  // no system call: keep the lock (the spinning caller lets others in)
    } else {
        lk.unlock();
        n = net_->wait_events(timeout);
        lk.lock();
    }
    turn_.blocked = false;
    apply_injected();  // a failure the notifier injected goes ahead of the frames read now
    net_->process_events(n);
    turn_.polling = false;
    turn_.poller = {};
    turn_.progress_thread = false;
    run_advances(lk);
    report(lk);
    turn_.wake_followers();
}

namespace {
thread_local int advances_deferred = 0;  // AdvancesDeferred objects alive on this thread
thread_local int advancing = 0;          // generalized requests' advance functions running on this thread
}  // namespace

bool Engine::called_by_user() const {
    return advancing == 0 && std::this_thread::get_id() != progress_thread_id_;
}

AdvancesDeferred::AdvancesDeferred() {
    ++advances_deferred;
}

AdvancesDeferred::~AdvancesDeferred() {
    --advances_deferred;
}

void Engine::run_advances(Lock &lk) {
    if (generalized_.empty() || advances_deferred > 0) return;
    // This runs at every poll step: a few requests need no allocation.
    constexpr size_t inline_batch = 8;
    MPI_Request inline_requests[inline_batch];
    std::vector<MPI_Request> more;
    MPI_Request *batch = inline_requests;
    if (generalized_.size() > inline_batch) {
        more.resize(generalized_.size());
        batch = more.data();
    }
    size_t count = 0;
    for (MPI_Request r : generalized_)
        if (!r->advancing && !r->complete) {
            r->advancing = true;
            batch[count++] = r;
        }
    for (size_t i = 0; i < count; ++i) {
        MPI_Request r = batch[i];
        MPI_Status st{};
        st.MPI_SOURCE = MPI_ANY_SOURCE;
        st.MPI_TAG = MPI_ANY_TAG;
        lk.unlock();
        bool done = false;
        ++advancing;
        try {
            done = r->advance(&st);
        } catch (...) {
            done = true;
            st.MPI_ERROR = MPI_ERR_INTERN;
        }
        --advancing;
        lk.lock();
        r->advancing = false;
        if (done) {
            std::erase(generalized_, r);
            r->status = st;
            std::function<int()> on_release;
            if (r->user_freed) on_release = std::move(r->on_release);  // finish deletes it
            finish(r, st.MPI_ERROR);
            if (on_release) {
                lk.unlock();
                on_release();
                lk.lock();
            }
        }
    }
}

void Engine::wait_until(const std::function<bool()> &done) {
    Lock lk(mu_);
    wait_locked(lk, done);
}

void Engine::wait_locked(Lock &lk, const std::function<bool()> &done) {
    if (done()) return;
    run_advances(lk);
    ++turn_.user_waiting;
    const auto spin_end = std::chrono::steady_clock::now() + settings_.spin;
    bool kicked = false;
    bool spinning = settings_.spin.count() > 0;
    unsigned steps = 0;
    while (!done()) {
        // The clock is read, and the lock given to other threads, every few
        // steps: both cost more than a spinning step over shared memory.
        const bool checkpoint = ++steps % spin_check_every == 0;
        if (checkpoint && spinning) spinning = std::chrono::steady_clock::now() < spin_end;
        if (!turn_.polling) {
            if (networked_) {
                poll_step(lk, !spinning);
                if (spinning && (settings_.yield_when_idle || checkpoint) && !done()) {
                    // Let another runnable process (the peer we wait for, on an
                    // oversubscribed host) have the core; returns at once on an idle one.
                    lk.unlock();
                    if (settings_.yield_when_idle) sched_yield();
                    lk.lock();
                }
            } else {
                run_advances(lk);  // nothing to poll; only local progress
                if (!done() && generalized_.empty()) {
                    ++turn_.followers;
                    turn_.followers_cv.wait(lk);
                    --turn_.followers;
                } else if (!done()) {
                    lk.unlock();
                    std::this_thread::yield();
                    lk.lock();
                }
            }
            continue;
        }
        if (turn_.progress_thread && !kicked) {
            net_->wake();  // the progress thread hands polling over to us
            kicked = true;
        }
        if (spinning) {
            lk.unlock();
            sched_yield();
            lk.lock();
            continue;
        }
        ++turn_.followers;
        turn_.followers_cv.wait(lk);
        --turn_.followers;
    }
    --turn_.user_waiting;
    if (called_by_user()) ++turn_.user_activity;
}

void Engine::progress() {
    if (called_by_user()) {
        Lock lk(mu_);
        ++turn_.user_activity;  // a user is polling: keep the progress thread parked
    }
    progress_between_sleeps();
}

void Engine::progress_between_sleeps() {
    Lock lk(mu_);
    if (!turn_.polling && networked_)
        poll_step(lk, false);
    else
        run_advances(lk);
    report(lk);
}

void Engine::progress_thread_main() {
    Lock lk(mu_);
    progress_thread_id_ = std::this_thread::get_id();
    uint64_t seen_activity = turn_.user_activity;
    while (!stopping_) {
        if (turn_.user_activity != seen_activity) {
            seen_activity = turn_.user_activity;
            turn_.last_user_exit = std::chrono::steady_clock::now();
        }
        auto quiet = std::chrono::steady_clock::now() - turn_.last_user_exit;
        if (turn_.polling || turn_.user_waiting > 0 || quiet < settings_.idle) {
            // Users drive progress themselves; look again after a quiet
            // spell, sleeping off the engine's lock and coming back only
            // when the lock is free: a user thread spinning in a wait holds
            // it nearly all the time, and one that finds it taken sleeps in
            // the kernel until it is handed back (20 us or more here).
            lk.unlock();
            do turn_.park(settings_.idle);
            while (!lk.try_lock() && !turn_.unparked());
            if (!lk.owns_lock()) lk.lock();  // stopping: wait for the lock
            continue;
        }
        poll_step(lk, true);
    }
}

}  // namespace ftmpi::p2p
