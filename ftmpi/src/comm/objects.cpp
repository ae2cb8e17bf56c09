// Construction, reference counting and the live-handle
// registry of groups, communicators and error handlers.
#include "objects.hpp"
#include "agree.hpp"
#include "topology.hpp"

#include "../ft/recovery/recovery.hpp"
#include "../internal/cominfo.hpp"
#include "../internal/p2p.hpp"

#include <algorithm>
#include <mutex>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ftmpi::comm {
namespace {
enum class HandleKind { comm, group, errhandler, info };

std::mutex registry_mutex;
std::unordered_map<const void *, HandleKind> &registry() {
    static auto *live = new std::unordered_map<const void *, HandleKind>;  // outlives every static destructor
    return *live;
}

void register_as(const void *p, HandleKind kind) {
    std::lock_guard lock(registry_mutex);
    registry()[p] = kind;
}

bool is_registered(const void *p, HandleKind kind) {
    if (p == nullptr) return false;
    std::lock_guard lock(registry_mutex);
    auto it = registry().find(p);
    return it != registry().end() && it->second == kind;
}
}  // namespace

void register_object(MPI_Comm c) {
    register_as(c, HandleKind::comm);
}
void register_object(MPI_Group g) {
    register_as(g, HandleKind::group);
}
void register_object(MPI_Errhandler e) {
    register_as(e, HandleKind::errhandler);
}
void register_object(MPI_Info i) {
    register_as(i, HandleKind::info);
}
void unregister_object(const void *p) {
    std::lock_guard lock(registry_mutex);
    registry().erase(p);
}

// Live communicators by themselves (fault tolerance looks them up by context
// id when a revoke frame arrives, and visits them when a member fails).
namespace {
std::mutex comms_mutex;
std::vector<MPI_Comm> &live_comms() {
    static auto *comms = new std::vector<MPI_Comm>;  // outlives every static destructor
    return *comms;
}

// A reference unless the last one is being dropped right now (then the
// communicator is as good as freed).
bool retain_if_live(MPI_Comm c) {
    int refs = c->refs.load(std::memory_order_relaxed);
    while (refs > 0)
        if (c->refs.compare_exchange_weak(refs, refs + 1, std::memory_order_acq_rel)) return true;
    return false;
}
}  // namespace

void register_comm(MPI_Comm c) {
    {
        std::lock_guard lock(comms_mutex);
        live_comms().push_back(c);
    }
    cominfo::changed();
}

void unregister_comm(MPI_Comm c) {
    {
        std::lock_guard lock(comms_mutex);
        auto &v = live_comms();
        v.erase(std::remove(v.begin(), v.end(), c), v.end());
    }
    cominfo::freed(c);
}

MPI_Comm find_by_context(uint32_t context) {
    std::lock_guard lock(comms_mutex);
    for (MPI_Comm c : live_comms())
        if (c->context == context && retain_if_live(c)) return c;
    return MPI_COMM_NULL;
}

void for_each_comm(const std::function<void(MPI_Comm)> &visit) {
    std::vector<MPI_Comm> held;
    {
        std::lock_guard lock(comms_mutex);
        for (MPI_Comm c : live_comms())
            if (retain_if_live(c)) held.push_back(c);
    }
    for (MPI_Comm c : held) {
        visit(c);
        release(c);
    }
}

std::vector<int> connected_world_ranks() {
    std::set<int> ranks;
    auto add = [&](MPI_Group g) {
        if (g != nullptr)
            for (int w : g->world)
                if (w >= 0) ranks.insert(w);
    };
    for_each_comm([&](MPI_Comm c) {
        add(c->group);
        add(c->remote);
    });
    return {ranks.begin(), ranks.end()};
}

void inherit_ft(MPI_Comm child, MPI_Comm parent) {
    child->ft.comm_mode.store(parent->ft.comm_mode.load());
    child->ft.msg_mode.store(parent->ft.msg_mode.load());
    child->ft.strict.store(parent->ft.strict.load());
    child->ft.round = parent->ft.round;
}

bool valid(MPI_Comm c) {
    if (c == MPI_COMM_WORLD || c == MPI_COMM_SELF) return predefined_comms_live();
    return is_registered(c, HandleKind::comm);
}
bool valid(MPI_Group g) {
    return is_registered(g, HandleKind::group);
}
bool valid(MPI_Errhandler e) {
    // The predefined handlers work from the start (constant-initialized in
    // world.cpp): a session before MPI_Init, or a call that takes a handler
    // as an argument, may use them before init_world registers them.
    if (e == MPI_ERRORS_ARE_FATAL || e == MPI_ERRORS_RETURN) return true;
    return is_registered(e, HandleKind::errhandler);
}
bool valid(MPI_Info i) {
    return is_registered(i, HandleKind::info);
}

MPI_Group make_group(std::vector<int> world) {
    if (world.empty()) {
        retain(MPI_GROUP_EMPTY);
        return MPI_GROUP_EMPTY;
    }
    auto *g = new ftmpi_group_s;
    g->world = std::move(world);
    const int me = my_world_rank();
    auto it = std::find(g->world.begin(), g->world.end(), me);
    g->rank = it == g->world.end() ? MPI_UNDEFINED : static_cast<int>(it - g->world.begin());
    register_object(g);
    return g;
}

void retain(MPI_Group g) {
    g->refs.fetch_add(1, std::memory_order_relaxed);
}

void release(MPI_Group g) {
    if (g == nullptr) return;
    if (g->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    if (g == MPI_GROUP_EMPTY) return;  // predefined: never freed
    unregister_object(g);
    delete g;
}

MPI_Comm make_comm(MPI_Group local, MPI_Group remote, uint32_t context, MPI_Comm errhandler_from) {
    MPI_Comm c = make_unregistered_comm(local, remote, context, errhandler_from);
    if (c != MPI_COMM_NULL) register_comm(c);
    return c;
}

MPI_Comm make_unregistered_comm(MPI_Group local, MPI_Group remote, uint32_t context, MPI_Comm errhandler_from) {
    if (local->rank == MPI_UNDEFINED) {
        release(local);
        release(remote);
        return MPI_COMM_NULL;
    }
    auto *c = new ftmpi_comm_s;
    c->context = context;
    c->group = local;
    c->remote = remote;
    c->rank = local->rank;
    c->size = static_cast<int>(local->world.size());
    c->inter = remote != nullptr;
    c->errhandler = errhandler_from != MPI_COMM_NULL && errhandler_from->errhandler != nullptr
        ? errhandler_from->errhandler
        : MPI_ERRORS_ARE_FATAL;
    retain(c->errhandler);
    if (errhandler_from != MPI_COMM_NULL) {
        inherit_ft(c, errhandler_from);
        // A communicator derived from a session's stays with that session
        // (its buffered sends fall back to the session's buffer).
        c->session_bsend_buffer = errhandler_from->session_bsend_buffer;
    }
    register_object(c);
    return c;
}

void retain(MPI_Comm c) {
    c->refs.fetch_add(1, std::memory_order_relaxed);
}

void release(MPI_Comm c) {
    if (c == MPI_COMM_NULL) return;
    if (c->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    if (c == MPI_COMM_WORLD || c == MPI_COMM_SELF) return;
    unregister_object(c);
    unregister_comm(c);
    // Context 0 is MPI_COMM_WORLD's, never released; a communicator that
    // has it here is an idup whose agreement failed and never had its own.
    if (c->context != 0) {
        release_context(c->context);
        p2p::forget_context(c->context);  // a revoke kept for this id must not hit its next user
        ft::recovery::forget_shadow(c->context);
    }
    release(c->local);
    if (c->info != MPI_INFO_NULL) delete c->info;
    release(c->group);
    release(c->remote);
    release(c->errhandler);
    delete c;
}

void retain(MPI_Errhandler e) {
    if (e != nullptr) e->refs.fetch_add(1, std::memory_order_relaxed);
}

void release(MPI_Errhandler e) {
    if (e == nullptr || e->predefined) return;
    if (e->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    unregister_object(e);
    delete e;
}

}  // namespace ftmpi::comm
