// A communicator's agreement board: routes agreement messages to their instances (agreement_board.hpp).
#include "agreement_board.hpp"
#include "participants.hpp"

#include "../comm/objects.hpp"
#include "../internal/ft.hpp"
#include "../internal/p2p.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>

namespace ftmpi::ulfm {
using wire::Bits;
using wire::Message;
using wire::Value;

namespace {
// Every agreement message of a communicator uses this one tag on its
// collective channel (the ulfm range is ft_tag_base .. +0xfffff).
constexpr int agreement_tag = p2p::ft_tag_base + 0x10;
// Decisions of forgotten instances kept to answer late messages.
constexpr size_t remembered_decisions = 16;
// How long a decided machine holds back the done it owes (Machine::
// owes_cleanup) waiting for the participants' next messages to say the
// instance is decided everywhere. A program that agrees again at once (a
// loop of agreements, strict collectives) starts its next instance within
// microseconds, and then sends no cleanup messages at all as long as that
// instance's messages come within cleanup_delay. One that does something
// else first has its dones sent after cleanup_idle_delay: meanwhile the
// board's driver runs at every progress step of the program's MPI calls.
constexpr auto cleanup_delay = std::chrono::milliseconds(1);
constexpr auto cleanup_idle_delay = std::chrono::microseconds(50);
}  // namespace

class Board : public std::enable_shared_from_this<Board> {
public:
    std::shared_ptr<Outcome> start(MPI_Comm comm, uint32_t instance, const Value &contribution);
    void try_work() {
        std::unique_lock lk(mu_, std::try_to_lock);
        p2p::AdvancesDeferred no_reentry;  // an advance may be an agreement starting on this board
        if (lk.owns_lock() && !quiet_locked()) work_locked();
    }
    bool driven() const { return driving_.load(std::memory_order_acquire); }

private:
    struct Outgoing {
        std::vector<int32_t> ints;
        MPI_Request request = MPI_REQUEST_NULL;
    };
    // A communicator agreement messages arrive through (an intercommunicator
    // has two: itself, and its private local communicator).
    struct Listener {
        MPI_Comm via = MPI_COMM_NULL;
        std::vector<int32_t> inbox;
        MPI_Request receive = MPI_REQUEST_NULL;
    };

    void activate_locked(MPI_Comm comm);
    bool driver_step();
    bool go_idle_locked();
    void work_locked();
    bool quiet_locked() const;
    bool cleanup_due_locked() const;
    bool receive_locked();
    bool receive_from_locked(Listener &);
    bool cancel_receive_locked(Listener &);
    void dispatch_locked(const Message &);
    void send_locked(int dest, Message &);
    void reap_sends_locked();
    Bits failed_now_locked() const;
    uint32_t settled_here_locked() const;
    void note_settled_locked(const Message &);
    void update_all_settled_locked();

    std::mutex mu_;
    MPI_Comm comm_ = MPI_COMM_NULL;  // retained while active
    int n_ = 0;
    Participants parts_;
    std::vector<int> worlds_;
    Bits gaps_;
    std::vector<Listener> listeners_;
    std::map<uint32_t, std::unique_ptr<Machine>> machines_;
    std::vector<Message> stash_;           // for instances not started here yet
    std::map<uint32_t, Value> forgotten_;  // recent released instances' decisions
    uint32_t next_instance_ = 0;           // instances below it were started here
    // What every participant has decided (wire::Message::settled and
    // all_settled): each instance below all_settled_ is decided everywhere.
    // An instance counts as settled here once it was started and decided
    // here; started ones are tracked exactly, since threads may start a
    // communicator's instances out of order.
    std::vector<uint32_t> peer_settled_;      // by participant: the settled its messages said
    std::vector<uint32_t> said_all_settled_;  // by participant: the all_settled its messages said
    std::vector<uint32_t> sent_settled_;      // by participant: the settled sent to it
    uint32_t all_settled_ = 0;
    uint32_t first_unstarted_ = 0;           // every instance below it was started here
    std::set<uint32_t> started_ahead_;       // started instances above first_unstarted_
    uint32_t ended_undecided_ = UINT32_MAX;  // lowest instance this process left undecided
    bool cleanup_timing_ = false;            // some machine owes cleanup since owing_since_
    bool started_since_owing_ = false;       // and this process started an instance since
    std::chrono::steady_clock::time_point owing_since_;
    // Sends in flight (request set) and free slots (MPI_REQUEST_NULL),
    // whose buffers are kept for the next messages.
    std::vector<Outgoing> sends_;
    size_t sends_in_flight_ = 0;
    std::atomic<bool> driving_{false};  // a driver request is alive (written under mu_)
    Message received_;                  // the message being handled (its vectors reused)
    uint64_t failure_epoch_seen_ = ~uint64_t{0};
    uint64_t completions_seen_ = ~uint64_t{0};  // p2p::completions() at the last pass of work_locked
};

void Board::activate_locked(MPI_Comm comm) {
    comm::retain(comm);
    comm_ = comm;
    parts_ = participants_of(comm);
    // The participants' numbering changes when the communicator is
    // recovered in place: what they said of themselves no longer applies.
    if (parts_.worlds != worlds_) {
        peer_settled_.assign(parts_.worlds.size(), 0);
        said_all_settled_.assign(parts_.worlds.size(), 0);
        sent_settled_.assign(parts_.worlds.size(), 0);
    }
    worlds_ = parts_.worlds;
    n_ = static_cast<int>(worlds_.size());
    gaps_.assign(wire::words_for(n_), 0);
    for (int r = 0; r < n_; ++r)
        if (worlds_[static_cast<size_t>(r)] < 0) wire::set(gaps_, r);
    listeners_.clear();
    for (MPI_Comm via : {comm, comm->inter ? comm->local : MPI_COMM_NULL})
        if (via != MPI_COMM_NULL) listeners_.push_back(Listener{via, std::vector<int32_t>(wire::message_ints(n_), 0)});
    failure_epoch_seen_ = ~uint64_t{0};
}

std::shared_ptr<Outcome> Board::start(MPI_Comm comm, uint32_t instance, const Value &contribution) {
    auto outcome = std::make_shared<Outcome>();
    std::unique_lock lk(mu_);
    // The board's p2p calls below run no advance: one may be another
    // collective's agreement starting on this board (a non-blocking strict
    // collective ends with one), which would wait for mu_ on this thread.
    p2p::AdvancesDeferred no_reentry;
    if (comm_ == MPI_COMM_NULL) activate_locked(comm);
    // The ballot starts from what p2p and src/ft declared failed; the
    // caller's list only enters the value (a caller's mistake must not
    // exclude a live process from the tree).
    auto machine =
        std::make_unique<Machine>(instance, n_, parts_.me, gaps_, failed_now_locked(), contribution, outcome);
    if (instance >= next_instance_) next_instance_ = instance + 1;
    started_since_owing_ = true;
    if (instance == first_unstarted_) {
        ++first_unstarted_;  // the usual case: instances start in order
        while (!started_ahead_.empty() && *started_ahead_.begin() == first_unstarted_) {
            started_ahead_.erase(started_ahead_.begin());
            ++first_unstarted_;
        }
    } else if (instance > first_unstarted_) {
        started_ahead_.insert(instance);
    }
    machines_[instance] = std::move(machine);
    // Messages that came before this process started the instance.
    std::vector<Message> early;
    std::erase_if(stash_, [&](const Message &m) {
        if (m.instance != instance) return false;
        early.push_back(m);
        return true;
    });
    for (const Message &m : early) machines_[instance]->receive(m);
    work_locked();
    if (!driving_ && !go_idle_locked()) {
        // Something is left to do after this process's decision (answering,
        // releasing): a request of its own drives it until it is done.
        driving_ = true;
        auto self = shared_from_this();
        MPI_Request driver = p2p::make_generalized([self](MPI_Status *st) {
            if (!self->driver_step()) return false;
            st->MPI_ERROR = MPI_SUCCESS;
            return true;
        });
        PMPI_Request_free(&driver);  // nobody waits for it; it frees itself when done
    }
    return outcome;
}

bool Board::driver_step() {
    std::unique_lock lk(mu_, std::try_to_lock);
    if (!lk.owns_lock()) return false;
    p2p::AdvancesDeferred no_reentry;
    if (!quiet_locked()) work_locked();
    if (!go_idle_locked()) return false;
    driving_ = false;
    return true;
}

// Stops receiving when no instance is active and nothing is in flight;
// false when the board must stay active.
bool Board::go_idle_locked() {
    if (comm_ == MPI_COMM_NULL) return true;
    if (!machines_.empty() || sends_in_flight_ > 0) return false;
    for (Listener &l : listeners_)
        if (!cancel_receive_locked(l)) return false;
    comm::release(comm_);
    comm_ = MPI_COMM_NULL;
    return true;
}

// Cancels l's receive; false when a message slipped in before the cancel
// and gave some instance work again.
bool Board::cancel_receive_locked(Listener &l) {
    if (l.receive == MPI_REQUEST_NULL) return true;
    PMPI_Cancel(&l.receive);
    MPI_Status st;
    p2p::wait_all(1, &l.receive, &st);
    int cancelled = 0;
    MPI_Test_cancelled(&st, &cancelled);
    if (cancelled || st.MPI_ERROR != MPI_SUCCESS) return true;
    // Handled like any other message.
    int count = 0;
    MPI_Get_count(&st, MPI_INT, &count);
    Message m;
    if (wire::decode(l.inbox.data(), static_cast<size_t>(count), n_, m)) dispatch_locked(m);
    return machines_.empty() && sends_in_flight_ == 0;
}

Bits Board::failed_now_locked() const {
    Bits failed(wire::words_for(n_), 0);
    for (int r = 0; r < n_; ++r) {
        const int w = worlds_[static_cast<size_t>(r)];
        if (w >= 0 && (p2p::is_failed(w) || ft::member_failed(comm_, w))) wire::set(failed, r);
    }
    return failed;
}

void Board::work_locked() {
    if (comm_ == MPI_COMM_NULL) return;
    for (;;) {
        const uint64_t epoch = p2p::failure_epoch();
        if (epoch != failure_epoch_seen_) {
            failure_epoch_seen_ = epoch;
            const Bits failed = failed_now_locked();
            for (auto &[id, m] : machines_) m->learn_failed(failed);
        }
        completions_seen_ = p2p::completions();  // before looking: what completes from now on is news
        const bool received = receive_locked();
        update_all_settled_locked();
        bool sent = false, owing = false;
        const bool flush = cleanup_due_locked();
        for (auto it = machines_.begin(); it != machines_.end();) {
            Machine &m = *it->second;
            m.progress();
            if (m.decided() && m.instance() < all_settled_) m.settled_everywhere(said_all_settled_, sent_settled_);
            if (flush) m.flush_cleanup();
            owing = owing || m.owes_cleanup();
            for (auto &[dest, msg] : m.outbox()) {
                send_locked(dest, msg);
                sent = true;
            }
            m.clear_outbox();
            if (m.finished()) {
                if (!m.decided()) ended_undecided_ = std::min(ended_undecided_, m.instance());
                if (m.decided()) forgotten_[m.instance()] = m.decision();
                if (forgotten_.size() > remembered_decisions) forgotten_.erase(forgotten_.begin());
                it = machines_.erase(it);
            } else {
                ++it;
            }
        }
        reap_sends_locked();
        if (!owing) {
            cleanup_timing_ = false;
        } else if (!cleanup_timing_ || flush) {
            cleanup_timing_ = true;
            started_since_owing_ = false;
            owing_since_ = std::chrono::steady_clock::now();
        }
        if (!received && !sent) return;
    }
}

// Nothing for work_locked to do: since its last pass no request completed
// (no message came in, no send left), no failure was declared, the
// receives are posted and no held-back cleanup is due. The machines move
// only on such news, so a waiting process polls for nearly nothing.
bool Board::quiet_locked() const {
    if (comm_ == MPI_COMM_NULL) return true;
    if (p2p::completions() != completions_seen_ || p2p::failure_epoch() != failure_epoch_seen_) return false;
    for (const Listener &l : listeners_)
        if (l.receive == MPI_REQUEST_NULL) return false;
    return !cleanup_due_locked();
}

bool Board::cleanup_due_locked() const {
    if (!cleanup_timing_) return false;
    const auto hold = started_since_owing_ ? std::chrono::microseconds(cleanup_delay) : cleanup_idle_delay;
    return std::chrono::steady_clock::now() >= owing_since_ + hold;
}

// The lowest instance not both started and decided here.
uint32_t Board::settled_here_locked() const {
    uint32_t settled = std::min(first_unstarted_, ended_undecided_);
    for (const auto &[instance, m] : machines_)
        if (!m->decided()) settled = std::min(settled, instance);
    return settled;
}

void Board::note_settled_locked(const Message &m) {
    const auto sender = static_cast<size_t>(m.sender);
    peer_settled_[sender] = std::max(peer_settled_[sender], m.settled);
    said_all_settled_[sender] = std::max(said_all_settled_[sender], m.all_settled);
    all_settled_ = std::max(all_settled_, m.all_settled);
}

void Board::update_all_settled_locked() {
    // A participant that failed says nothing more, which only holds this
    // back: the machines then clean up with messages, as they always can.
    uint32_t everywhere = settled_here_locked();
    for (int r = 0; r < n_; ++r)
        if (r != parts_.me && worlds_[static_cast<size_t>(r)] >= 0)
            everywhere = std::min(everywhere, peer_settled_[static_cast<size_t>(r)]);
    all_settled_ = std::max(all_settled_, everywhere);
}

// Takes every message that arrived; true when there was one.
bool Board::receive_locked() {
    bool any = false;
    for (Listener &l : listeners_) any = receive_from_locked(l) || any;
    return any;
}

bool Board::receive_from_locked(Listener &l) {
    bool any = false;
    for (;;) {
        if (l.receive == MPI_REQUEST_NULL &&
            p2p::irecv(l.inbox.data(), static_cast<int>(l.inbox.size()), MPI_INT, MPI_ANY_SOURCE, agreement_tag, l.via,
                       p2p::Channel::collective, &l.receive) != MPI_SUCCESS) {
            l.receive = MPI_REQUEST_NULL;
            return any;
        }
        int flag = 0;
        MPI_Status st;
        p2p::test_all_after_poll(1, &l.receive, &flag, &st);
        if (!flag) return any;
        l.receive = MPI_REQUEST_NULL;
        if (st.MPI_ERROR != MPI_SUCCESS) return any;  // reposted at the next turn
        int count = 0;
        MPI_Get_count(&st, MPI_INT, &count);
        if (wire::decode(l.inbox.data(), static_cast<size_t>(count), n_, received_)) dispatch_locked(received_);
        any = true;
    }
}

void Board::dispatch_locked(const Message &m) {
    note_settled_locked(m);
    if (auto it = machines_.find(m.instance); it != machines_.end()) {
        it->second->receive(m);
        return;
    }
    if (m.instance >= next_instance_) {
        stash_.push_back(m);
        return;
    }
    // An instance this process already forgot: everyone decided it, and the
    // sender is catching up after a failure. Tell it the decision.
    auto old = forgotten_.find(m.instance);
    if (old == forgotten_.end() || m.kind == wire::Kind::released || m.kind == wire::Kind::release) return;
    Message answer;
    answer.kind = wire::Kind::released;
    answer.instance = m.instance;
    answer.sender = parts_.me;
    answer.ballot.assign(wire::words_for(n_), 0);
    answer.value = old->second;
    answer.carried_ballot.assign(wire::words_for(n_), 0);
    answer.carried_value.failed.assign(wire::words_for(n_), 0);
    send_locked(m.sender, answer);
}

void Board::send_locked(int dest, Message &m) {
    auto slot =
        std::find_if(sends_.begin(), sends_.end(), [](const Outgoing &o) { return o.request == MPI_REQUEST_NULL; });
    if (slot == sends_.end()) slot = sends_.emplace(sends_.end());
    Outgoing &out = *slot;
    m.settled = settled_here_locked();
    m.all_settled = all_settled_;
    sent_settled_[static_cast<size_t>(dest)] = std::max(sent_settled_[static_cast<size_t>(dest)], m.settled);
    wire::encode(m, n_, out.ints);
    const Route to = route_to(comm_, parts_, dest);
    if (p2p::isend(out.ints.data(), static_cast<int>(out.ints.size()), MPI_INT, to.rank, agreement_tag, to.via,
                   p2p::Channel::collective, &out.request) != MPI_SUCCESS) {
        out.request = MPI_REQUEST_NULL;
        return;  // the destination failed: the failure reaches the machines as news
    }
    ++sends_in_flight_;
}

void Board::reap_sends_locked() {
    for (Outgoing &out : sends_) {
        if (out.request == MPI_REQUEST_NULL) continue;
        int flag = 0;
        p2p::test_all_after_poll(1, &out.request, &flag, MPI_STATUSES_IGNORE);
        if (!flag) continue;
        out.request = MPI_REQUEST_NULL;
        --sends_in_flight_;
    }
}

namespace {
std::mutex boards_mutex;
std::map<uint32_t, std::shared_ptr<Board>> &boards() {
    static auto *b = new std::map<uint32_t, std::shared_ptr<Board>>;  // outlives static destructors
    return *b;
}
}  // namespace

std::shared_ptr<Board> board_of(MPI_Comm comm) {
    std::lock_guard lock(boards_mutex);
    auto &slot = boards()[comm->context];
    if (!slot) slot = std::make_shared<Board>();
    return slot;
}

std::shared_ptr<Outcome> start_instance(const std::shared_ptr<Board> &board, MPI_Comm comm, uint32_t instance,
                                        const Value &contribution) {
    return board->start(comm, instance, contribution);
}

void try_advance(const std::shared_ptr<Board> &board) {
    board->try_work();
}

bool driven(const std::shared_ptr<Board> &board) {
    return board->driven();
}

}  // namespace ftmpi::ulfm
