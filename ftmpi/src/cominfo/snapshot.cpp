// The rank record (snapshot.hpp).
#include "cominfo/snapshot.hpp"

#include "cominfo/journal.hpp"
#include "ft/comm_state.hpp"
#include "ft/failure_list.hpp"
#include "ft/notifier.hpp"
#include "ft/settings.hpp"
#include "internal/comm.hpp"
#include "internal/ft.hpp"

namespace ftmpi::cominfo {
namespace {

const char *comm_state_name(int state) {
    switch (state) {
    case FTMPI_COMM_OK: return "OK";
    case FTMPI_COMM_DETECTED: return "DETECTED";
    case FTMPI_COMM_RECOVER: return "RECOVER";
    case FTMPI_COMM_RECOVERED: return "RECOVERED";
    case FTMPI_COMM_FAILED: return "FAILED";
    default: return "UNKNOWN";
    }
}

const char *proc_state_name(int state) {
    switch (state) {
    case FTMPI_PROC_OK: return "OK";
    case FTMPI_PROC_FAILED: return "FAILED";
    case FTMPI_PROC_JOINING: return "JOINING";
    case FTMPI_PROC_UNAVAILABLE: return "UNAVAILABLE";
    default: return "UNKNOWN";
    }
}

// World ranks of a group (-1 for a BLANK gap) and their states in comm; the
// states are left out while every member is OK (the common case, and the
// bulk of a large job's record).
void members_of(MPI_Comm comm, MPI_Group g, nlohmann::json &out, const char *members_key, const char *states_key) {
    nlohmann::json worlds = nlohmann::json::array(), states = nlohmann::json::array();
    bool all_ok = true;
    if (g != nullptr)
        for (int w : g->world) {
            worlds.push_back(w);
            const int state = ft::proc_state(comm, w);
            all_ok = all_ok && state == FTMPI_PROC_OK;
            states.push_back(proc_state_name(state));
        }
    out[members_key] = std::move(worlds);
    if (!all_ok) out[states_key] = std::move(states);
}

// The recovery's private shadow communicators (ft/recovery/shadow.cpp) have
// context ids from 2^31 up; they are not the program's.
bool private_to_recovery(MPI_Comm comm) {
    return comm->context >= 0x80000000u;
}

nlohmann::json communicator(MPI_Comm comm) {
    nlohmann::json c{{"id", comm->context},
                     {"name", journal().name_of(comm)},
                     {"rank", comm->rank},
                     {"size", comm->size},
                     {"inter", comm->inter},
                     {"mode", ft::comm_mode_name(comm->ft.comm_mode.load())},
                     {"state", comm_state_name(ft::comm_state(comm))},
                     {"revoked", comm->ft.revoked.load(std::memory_order_acquire)}};
    members_of(comm, comm->group, c, "members", "states");
    if (comm->inter) members_of(comm, comm->remote, c, "remote_members", "remote_states");
    return c;
}

}  // namespace

nlohmann::json snapshot(const Identity &id, int64_t update, bool finalized) {
    ft::sync_with_p2p();
    nlohmann::json r{{"format", 1},
                     {"job", id.job},
                     {"rank", id.rank},
                     {"incarnation", id.incarnation},
                     {"world_size", id.world_size},
                     {"pid", id.pid},
                     {"member", id.member},
                     {"host", id.host},
                     {"started_ms", id.started_ms},
                     {"update", update},
                     {"time_ms", wall_ms()},
                     {"state", finalized ? "finalized" : "running"},
                     {"round", ft::round()}};
    // Every world rank as this process sees it (left out while all are OK).
    nlohmann::json processes = nlohmann::json::array();
    bool all_ok = true;
    for (int w = 0; w < id.world_size; ++w) {
        int state = FTMPI_PROC_OK;
        if (w != id.rank && ft::failure_index(w) >= 0)
            state = ft::is_joining(w) ? FTMPI_PROC_JOINING : FTMPI_PROC_FAILED;
        else if (w != id.rank && ft::is_suspected(w))
            state = FTMPI_PROC_UNAVAILABLE;
        all_ok = all_ok && state == FTMPI_PROC_OK;
        processes.push_back(proc_state_name(state));
    }
    if (!all_ok) r["processes"] = std::move(processes);

    // MPI_COMM_WORLD explicitly (whether the registry lists it is the comm
    // part's business); MPI_COMM_SELF is left out: one per process, it says
    // nothing about the job.
    nlohmann::json comms = nlohmann::json::array();
    if (comm::valid(MPI_COMM_WORLD)) {
        comms.push_back(communicator(MPI_COMM_WORLD));
        comm::for_each_comm([&](MPI_Comm c) {
            if (c != MPI_COMM_WORLD && c != MPI_COMM_SELF && !private_to_recovery(c)) comms.push_back(communicator(c));
        });
    }
    r["communicators"] = std::move(comms);
    int64_t dropped = 0;
    r["events"] = journal().events(&dropped);
    r["events_dropped"] = dropped;
    return r;
}

}  // namespace ftmpi::cominfo
