// The journal (journal.hpp) and the hooks of internal/cominfo.hpp that
// write to it: each notes the change here and wakes the reporter.
#include "cominfo/journal.hpp"

#include "cominfo/reporter.hpp"
#include "internal/cominfo.hpp"
#include "internal/comm.hpp"

#include <chrono>

namespace ftmpi::cominfo {

int64_t wall_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

void Journal::add(nlohmann::json event) {
    std::lock_guard lock(mu_);
    event["seq"] = next_seq_++;
    event["time_ms"] = wall_ms();
    events_.push_back(std::move(event));
    while (events_.size() > max_events) {
        events_.pop_front();
        ++dropped_;
    }
}

void Journal::set_name(MPI_Comm comm, const std::string &name) {
    std::lock_guard lock(mu_);
    names_[comm] = name;
}

void Journal::forget(MPI_Comm comm) {
    std::lock_guard lock(mu_);
    names_.erase(comm);
}

std::string Journal::name_of(MPI_Comm comm) {
    {
        std::lock_guard lock(mu_);
        if (auto it = names_.find(comm); it != names_.end()) return it->second;
    }
    return comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : "";
}

nlohmann::json Journal::events(int64_t *dropped) {
    std::lock_guard lock(mu_);
    *dropped = dropped_;
    return nlohmann::json(events_);
}

Journal &journal() {
    static auto *j = new Journal;  // the hooks may run during static destruction
    return *j;
}

// ---- the hooks (internal/cominfo.hpp) --------------------------------------
// Each is cheap when no reporter runs: active() is one atomic load.

void changed() {
    poke();
}

void named(MPI_Comm comm, const std::string &name) {
    if (!active()) return;
    journal().set_name(comm, name);
    poke();
}

void freed(MPI_Comm comm) {
    if (!active()) return;
    journal().forget(comm);
    poke();
}

void revoked(MPI_Comm comm) {
    if (!active()) return;
    journal().add({{"kind", "revoked"}, {"comm", comm->context}, {"name", journal().name_of(comm)}});
    poke();
}

void failure_detected(int world, int incarnation, const std::string &why) {
    if (!active()) return;
    journal().add({{"kind", "failure_detected"}, {"world", world}, {"incarnation", incarnation}, {"why", why}});
    poke();
}

void recovery_started(MPI_Comm comm, const char *how) {
    if (!active()) return;
    journal().add({{"kind", "recovery_start"},
                   {"comm", comm->context},
                   {"name", journal().name_of(comm)},
                   {"mode", how},
                   {"size", comm->size}});
    poke();
}

void recovery_ended(MPI_Comm comm, const char *how, MPI_Comm result, int err) {
    if (!active()) return;
    nlohmann::json e{{"kind", "recovery_end"},
                     {"comm", comm->context},
                     {"name", journal().name_of(comm)},
                     {"mode", how},
                     {"ok", err == MPI_SUCCESS}};
    if (err == MPI_SUCCESS && result != MPI_COMM_NULL) {
        e["result"] = result->context;
        e["size"] = result->size;
    }
    journal().add(std::move(e));
    poke();
}

}  // namespace ftmpi::cominfo
