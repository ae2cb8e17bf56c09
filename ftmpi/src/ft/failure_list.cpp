// The failure list (every process failure this process
// learned, in local order), the incarnations of the world ranks, and the
// questions p2p, the comm part and the attributes ask about them.
//
// p2p asks on every operation (blocks_user_ops, any_source_blocked), so
// each question first reads one atomic counter: while nothing has failed
// and nothing was replaced, no lock is taken.
#include "ft/failure_list.hpp"

#include "internal/comm.hpp"
#include "internal/p2p.hpp"
#include "internal/runtime.hpp"

#include <algorithm>
#include <map>
#include <mutex>

namespace ftmpi::ft {
namespace {

struct Incarnation {
    int incarnation = 0;
    int round = 0;  // the recovery round in which it started
};

struct Table {
    std::mutex mu;
    std::vector<Failure> list;
    // Per world rank, its incarnations in order (incarnation 0 at round 0).
    std::vector<std::vector<Incarnation>> history;
    std::map<int, std::string> pending_why;
    int round = 0;
};

Table &table() {
    static auto *t = new Table;  // outlives static destructors (a late on_failure)
    return *t;
}

std::atomic<uint64_t> failure_total{0};
std::atomic<bool> any_replacement{false};
std::atomic<int> latest_round{0};  // t.round, for readers that take no lock

std::vector<Incarnation> &history_of(Table &t, int world) {
    if (world >= static_cast<int>(t.history.size())) t.history.resize(static_cast<size_t>(world) + 1, {Incarnation{}});
    return t.history[static_cast<size_t>(world)];
}

int current_incarnation(Table &t, int world) {
    return history_of(t, world).back().incarnation;
}

// The incarnation of `world` that is a member of a communicator made in
// `round`: the latest one started in that round or before.
int member_incarnation(Table &t, int world, int round) {
    const auto &h = history_of(t, world);
    int inc = h.front().incarnation;
    for (const Incarnation &i : h)
        if (i.round <= round) inc = i.incarnation;
    return inc;
}

// The group whose ranks name comm's peers: the remote group of an
// intercommunicator, else the local group.
const std::vector<int> *peers_of(MPI_Comm comm) {
    MPI_Group g = comm->inter ? comm->remote : comm->group;
    return g != nullptr ? &g->world : nullptr;
}

int rank_in(const std::vector<int> &world, int w) {
    auto it = std::find(world.begin(), world.end(), w);
    return it == world.end() ? -1 : static_cast<int>(it - world.begin());
}

int64_t failure_index_locked(Table &t, int world) {
    const int inc = current_incarnation(t, world);
    for (size_t i = t.list.size(); i-- > 0;)
        if (t.list[i].world == world && t.list[i].incarnation == inc) return static_cast<int64_t>(i);
    return -1;
}

}  // namespace

void reset_failure_list(int world_size, int my_incarnation, int round) {
    Table &t = table();
    std::lock_guard lock(t.mu);
    t.list.clear();
    t.pending_why.clear();
    t.history.assign(static_cast<size_t>(std::max(world_size, 0)), {Incarnation{}});
    t.round = round;
    latest_round = round;
    failure_total = 0;
    any_replacement = round > 0 || my_incarnation > 0;
}

bool record_failure(int world, const std::string &why, Failure *recorded) {
    Table &t = table();
    std::lock_guard lock(t.mu);
    if (failure_index_locked(t, world) >= 0) return false;
    Failure f;
    f.world = world;
    f.incarnation = current_incarnation(t, world);
    auto pending = t.pending_why.find(world);
    if (pending != t.pending_why.end()) {
        f.why = pending->second;
        t.pending_why.erase(pending);
    } else {
        f.why = why;
    }
    t.list.push_back(f);
    failure_total.fetch_add(1, std::memory_order_release);
    if (recorded != nullptr) *recorded = f;
    return true;
}

void remember_why(int world, const std::string &why) {
    Table &t = table();
    std::lock_guard lock(t.mu);
    t.pending_why.emplace(world, why);  // the first reason learned wins
}

std::vector<Failure> failures() {
    Table &t = table();
    std::lock_guard lock(t.mu);
    return t.list;
}

uint64_t failure_count() {
    return failure_total.load(std::memory_order_acquire);
}

int64_t failure_index(int world) {
    if (world < 0 || failure_count() == 0) return -1;
    Table &t = table();
    std::lock_guard lock(t.mu);
    return failure_index_locked(t, world);
}

int round() {
    Table &t = table();
    std::lock_guard lock(t.mu);
    return t.round;
}

int incarnation(int world) {
    if (world < 0) return 0;
    Table &t = table();
    std::lock_guard lock(t.mu);
    return current_incarnation(t, world);
}

void set_incarnation(int world, int inc, int new_round) {
    if (world < 0) return;
    Table &t = table();
    std::lock_guard lock(t.mu);
    auto &h = history_of(t, world);
    if (inc > h.back().incarnation) h.push_back({inc, new_round});
    t.round = std::max(t.round, new_round);
    latest_round = t.round;
    any_replacement = true;
}

bool replaced_member(MPI_Comm comm, int rank) {
    if (comm == nullptr || rank < 0 || !any_replacement.load(std::memory_order_relaxed)) return false;
    // A communicator made (or recovered) in the latest round has no member
    // replaced after it: no lock on that path.
    if (comm->ft.round >= latest_round.load(std::memory_order_acquire)) return false;
    const int world = comm::world_rank_of(comm, rank);
    if (world < 0) return false;
    Table &t = table();
    std::lock_guard lock(t.mu);
    return member_incarnation(t, world, comm->ft.round) < current_incarnation(t, world);
}

void adopt_agreed_failures(MPI_Comm comm, const std::vector<int> &failed_ranks) {
    const std::vector<int> &w = comm->group->world;
    for (int r : failed_ranks) {
        if (r < 0 || r >= static_cast<int>(w.size()) || w[static_cast<size_t>(r)] < 0) continue;
        const int world = w[static_cast<size_t>(r)];
        if (!p2p::is_failed(world) && !replaced_member(comm, r)) p2p::notify_failed(world);
    }
}

bool member_failed(MPI_Comm comm, int world) {
    if (comm == nullptr || world < 0) return false;
    if (failure_count() == 0 && !any_replacement.load(std::memory_order_relaxed)) return false;
    Table &t = table();
    std::lock_guard lock(t.mu);
    if (member_incarnation(t, world, comm->ft.round) < current_incarnation(t, world)) return true;
    return failure_index_locked(t, world) >= 0;
}

CommFailures comm_failures(MPI_Comm comm, uint64_t from) {
    CommFailures out;
    const std::vector<int> *peers = peers_of(comm);
    if (peers == nullptr) return out;
    out.per_rank.assign(peers->size(), 0);
    if (failure_count() <= from) return out;
    Table &t = table();
    std::lock_guard lock(t.mu);
    for (size_t i = from; i < t.list.size(); ++i) {
        const Failure &f = t.list[i];
        const int r = rank_in(*peers, f.world);
        if (r < 0 || f.incarnation != member_incarnation(t, f.world, comm->ft.round)) continue;
        if (out.ranks.empty()) out.first_index = i;
        out.ranks.push_back(r);
        ++out.per_rank[static_cast<size_t>(r)];
        out.whys.push_back("rank " + std::to_string(r) + " (world " + std::to_string(f.world) + ") " + f.why);
    }
    return out;
}

void sync_with_p2p() {
    static std::atomic<uint64_t> synced_epoch{0};
    const uint64_t epoch = p2p::failure_epoch();
    if (epoch == synced_epoch.load(std::memory_order_acquire)) return;
    const int me = runtime::world_rank();
    for (int w = 0, n = p2p::known_world_ranks(); w < n; ++w)
        if (w != me && failure_index(w) < 0 && p2p::is_failed(w))
            record_failure(w, confirm() ? "reported failed by the VM" : "its connection broke without MPI_Finalize",
                           nullptr);
    synced_epoch.store(epoch, std::memory_order_release);
}

bool has_failure_since(MPI_Comm comm, uint64_t from) {
    if (comm == nullptr || failure_count() <= from) return false;
    return !comm_failures(comm, from).ranks.empty();
}

}  // namespace ftmpi::ft
