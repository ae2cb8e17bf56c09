// Context ids and rank translation.
//
// A new context id is agreed by the members of the new communicator(s): each
// proposes a fresh id above every id it has seen (reserving it, so a
// concurrent allocation in another thread proposes a higher one) and the
// maximum wins. Since the maximum can be an id another thread of some member
// reserved meanwhile, a second round checks that it is free everywhere and
// retries otherwise. Ids only grow, so a freed communicator's id is never
// reused by this process and late messages can never match a new
// communicator.
#include "agree.hpp"
#include "objects.hpp"

#include <algorithm>
#include <mutex>
#include <set>
#include <unordered_set>

namespace ftmpi::comm {
namespace {
std::mutex context_mutex;
uint32_t highest_seen = 2;       // MPI_COMM_SELF's id
std::set<uint32_t> taken{0, 2};  // reserved or in use here

uint32_t reserve_fresh() {
    std::lock_guard lock(context_mutex);
    highest_seen += 2;
    taken.insert(highest_seen);
    return highest_seen;
}

// Reserves `id` if nobody here holds it; raises highest_seen past it.
bool try_reserve(uint32_t id) {
    std::lock_guard lock(context_mutex);
    highest_seen = std::max(highest_seen, id);
    return taken.insert(id).second;
}

void unreserve(uint32_t id) {
    std::lock_guard lock(context_mutex);
    taken.erase(id);
}
}  // namespace

void release_context(uint32_t context) {
    if (context > 2) unreserve(context);
}

namespace {
// Derived ids ever reserved here (never erased once a communicator used
// one: a late message for a freed communicator must not match a new one).
std::unordered_set<uint32_t> derived_used;
}  // namespace

uint32_t derived_context(uint64_t seed) {
    // splitmix64's finalizer spreads neighbouring seeds over the range.
    seed += 0x9e3779b97f4a7c15ull;
    seed = (seed ^ (seed >> 30)) * 0xbf58476d1ce4e5b9ull;
    seed = (seed ^ (seed >> 27)) * 0x94d049bb133111ebull;
    seed ^= seed >> 31;
    // Even like every id (id + 1 is the collective channel). Bit 23 is set
    // and bits 24..29 clear so the recovery's shadow of a derived id
    // (ft/recovery/shadow.cpp keeps the id's low 24 bits) never equals the
    // shadow of an allocated id, which stays below 2^23.
    return 0x40800000u | (static_cast<uint32_t>(seed) & 0x007ffffeu);
}

bool reserve_derived_context(uint32_t context) {
    std::lock_guard lock(context_mutex);
    return derived_used.insert(context).second;
}

void unreserve_derived_context(uint32_t context) {
    std::lock_guard lock(context_mutex);
    derived_used.erase(context);
}

int allocate_context(const Scope &s, uint32_t *context) {
    for (;;) {
        const uint32_t proposal = reserve_fresh();
        uint32_t agreed = proposal;
        int err = agree_max(s, agreed);
        if (err != MPI_SUCCESS) {
            unreserve(proposal);
            return err;
        }
        bool mine = true;  // this process holds `agreed` for this allocation
        if (agreed != proposal) {
            unreserve(proposal);
            mine = try_reserve(agreed);
        }
        uint32_t clash = mine ? 0 : 1;
        err = agree_max(s, clash);
        if (err == MPI_SUCCESS && clash == 0) {
            *context = agreed;
            return MPI_SUCCESS;
        }
        if (mine) unreserve(agreed);
        if (err != MPI_SUCCESS) return err;
    }
}

uint32_t allocate_context(MPI_Comm parent) {
    uint32_t id = 0;
    return allocate_context(parent, &id) == MPI_SUCCESS ? id : 0;
}

Scope context_scope(MPI_Comm parent, int tag) {
    Scope s = whole(parent->inter ? parent->local : parent);
    if (parent->inter) {
        // An intercommunicator agrees through its private local
        // intracommunicator and the two leaders.
        s.bridge = parent;
        s.remote_leader = 0;
    }
    s.tag = tag;
    return s;
}

int allocate_context(MPI_Comm parent, uint32_t *context) {
    return allocate_context(context_scope(parent), context);
}

int world_rank_of(MPI_Comm c, int rank) {
    const MPI_Group g = c->inter ? c->remote : c->group;
    if (rank < 0 || static_cast<size_t>(rank) >= g->world.size()) return -1;
    return g->world[static_cast<size_t>(rank)];
}

int comm_rank_of_world(MPI_Comm c, int world) {
    const MPI_Group g = c->inter ? c->remote : c->group;
    const auto &w = g->world;
    if (world < 0) return MPI_UNDEFINED;  // a gap is nobody's rank
    // MPI_COMM_WORLD and its dups map ranks to themselves.
    if (world >= 0 && static_cast<size_t>(world) < w.size() && w[static_cast<size_t>(world)] == world) return world;
    auto it = std::find(w.begin(), w.end(), world);
    return it == w.end() ? MPI_UNDEFINED : static_cast<int>(it - w.begin());
}

}  // namespace ftmpi::comm
