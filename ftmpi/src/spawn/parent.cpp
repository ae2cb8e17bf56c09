// A spawned process's parents: the intercommunicator built at the end of
// MPI_Init from FTMPI_PARENT ("LEADER:SPAWN", the parents' leader's world
// rank and the spawn's number), and MPI_Comm_get_parent.
#include "internal/comm.hpp"
#include "internal/errors.hpp"
#include "internal/pmpi.hpp"
#include "internal/spawn.hpp"
#include "runtime/log.hpp"
#include "settings/values.hpp"
#include "spawn/tags.hpp"

#include <atomic>
#include <cstdio>

namespace ftmpi::spawn {
namespace {
std::atomic<MPI_Comm> parent{MPI_COMM_NULL};  // threads may ask at once
// Its context id: a handle freed and reused for another communicator has
// another one (a process never reuses a context id).
uint32_t parent_context = 0;

// The parent intercommunicator, or MPI_COMM_NULL once it was freed or
// disconnected.
MPI_Comm current_parent() {
    MPI_Comm p = parent.load();
    if (p != MPI_COMM_NULL && !(comm::valid(p) && p->context == parent_context)) {
        parent.store(MPI_COMM_NULL);
        return MPI_COMM_NULL;
    }
    return p;
}
}  // namespace

int connect_parent() {
    const std::string &text = settings::current().text(settings::Id::parent);
    if (text.empty()) return MPI_SUCCESS;
    int leader = -1, spawn_id = -1;
    char end = 0;
    if (std::sscanf(text.c_str(), "%d:%d%c", &leader, &spawn_id, &end) != 2 || leader < 0 || spawn_id < 0) {
        log::error("FTMPI_PARENT=%s is not LEADER:SPAWN", text.c_str());
        return MPI_ERR_OTHER;
    }
    MPI_Comm made = MPI_COMM_NULL;
    int err = comm::connect_groups(MPI_COMM_WORLD, 0, leader, spawn_tag(spawn_id), &made);
    if (err != MPI_SUCCESS) return err;
    made->name = "MPI_COMM_PARENT";
    parent = made;
    parent_context = made->context;
    return MPI_SUCCESS;
}

void forget_parent() {
    parent = MPI_COMM_NULL;
}

}  // namespace ftmpi::spawn

extern "C" int MPI_Comm_get_parent(MPI_Comm *out) noexcept {
    if (out == nullptr) return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Comm_get_parent");
    *out = ftmpi::spawn::current_parent();
    return MPI_SUCCESS;
}
FTMPI_PMPI(Comm_get_parent)
