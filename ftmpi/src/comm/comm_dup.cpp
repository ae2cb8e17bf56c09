// MPI_Comm_dup (+ _with_info, idup) and MPI_Comm_free.
#include "../internal/errors.hpp"
#include "../internal/ft.hpp"
#include "../internal/p2p.hpp"
#include "../internal/pmpi.hpp"
#include "agree.hpp"
#include "objects.hpp"

#include <atomic>
#include <memory>
#include <thread>

using namespace ftmpi::comm;

namespace {
// A copy of comm's groups, topology, error handler and attributes (through
// their copy callbacks) under `context`; registered unless `registered` is
// false (an idup registers it once its context is agreed).
int dup_shell(MPI_Comm comm, uint32_t context, bool registered, MPI_Comm *newcomm) {
    retain(comm->group);
    if (comm->remote != nullptr) retain(comm->remote);
    MPI_Comm c = registered ? make_comm(comm->group, comm->remote, context, comm)
                            : make_unregistered_comm(comm->group, comm->remote, context, comm);
    c->topology = comm->topology;
    if (comm->local != MPI_COMM_NULL) {
        retain(comm->local);
        c->local = comm->local;
    }
    int err = copy_all_attributes(comm, c);
    if (err != MPI_SUCCESS) {
        delete_all_attributes(c);
        release(c);
        return err;
    }
    *newcomm = c;
    return MPI_SUCCESS;
}

// Same groups, topology and error handler under a fresh context.
int dup_comm(MPI_Comm comm, MPI_Comm *newcomm) {
    uint32_t context = 0;
    int err = allocate_context(comm, &context);
    if (err != MPI_SUCCESS) return err;
    err = dup_shell(comm, context, true, newcomm);
    if (err != MPI_SUCCESS) release_context(context);
    return err;
}

ftmpi_info_s *copy_info(MPI_Info info) {
    auto *copy = new ftmpi_info_s;
    copy->entries = info->entries;
    return copy;
}

// The context agreement of one MPI_Comm_idup, run on a thread of its own so
// that the call returns at once and the program's other communication goes
// on meanwhile (the other members may call idup only after a receive that
// this member's next send satisfies). The agreement has tags of its own, so
// it runs beside the program's collectives on the same communicator, and a
// member's failure ends it with an error like any blocking wait.
struct PendingIdup {
    std::thread agreement;
    std::atomic<bool> done{false};
    int err = MPI_SUCCESS;
    uint32_t context = 0;
    // A request dropped before completion (a program that never waits for
    // it) must not end the process through a joinable thread's destructor.
    ~PendingIdup() {
        if (agreement.joinable()) agreement.detach();
    }
};
}  // namespace

namespace ftmpi::comm {

int start_idup(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request) {
    if (int err = MPI_SUCCESS; ft::recover_if_needed(comm, newcomm, &err)) {
        // Recovered in place of the dup (FT-MPI modes): done, *newcomm set.
        if (err == MPI_SUCCESS)
            *request = p2p::make_generalized([](MPI_Status *status) {
                status->MPI_SOURCE = MPI_ANY_SOURCE;
                status->MPI_TAG = MPI_ANY_TAG;
                status->MPI_ERROR = MPI_SUCCESS;
                return true;
            });
        return err;
    }
    MPI_Comm c = MPI_COMM_NULL;
    if (int err = dup_shell(comm, 0, false, &c); err != MPI_SUCCESS) return err;
    MPI_Info hints = info != MPI_INFO_NULL ? info : comm->info;
    if (hints != nullptr) c->info = copy_info(hints);
    auto pending = std::make_shared<PendingIdup>();
    const Scope scope = context_scope(comm, idup_tag(comm->idups_started++));
    retain(comm);  // the agreement uses it until it ends
    pending->agreement = std::thread([pending, scope] {
        pending->err = allocate_context(scope, &pending->context);
        pending->done.store(true, std::memory_order_release);
    });
    // The new communicator reaches *newcomm when the request completes, as
    // the standard allows; MPI_COMM_NULL if the agreement failed.
    *request = p2p::make_generalized([pending, c, comm, newcomm](MPI_Status *status) {
        if (!pending->done.load(std::memory_order_acquire)) return false;
        pending->agreement.join();
        if (pending->err == MPI_SUCCESS) {
            c->context = pending->context;
            register_comm(c);
            *newcomm = c;
        } else {
            delete_all_attributes(c);
            release(c);
            *newcomm = MPI_COMM_NULL;
        }
        release(comm);
        status->MPI_SOURCE = MPI_ANY_SOURCE;
        status->MPI_TAG = MPI_ANY_TAG;
        status->MPI_ERROR = pending->err;
        return true;
    });
    return MPI_SUCCESS;
}

}  // namespace ftmpi::comm

extern "C" int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_dup");
    if (newcomm == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_dup");
    if (int err = MPI_SUCCESS; ftmpi::ft::recover_if_needed(comm, newcomm, &err))
        return raise(comm, err, "MPI_Comm_dup");
    int err = dup_comm(comm, newcomm);
    if (err == MPI_SUCCESS && comm->info != nullptr) (*newcomm)->info = copy_info(comm->info);
    return raise(comm, err, "MPI_Comm_dup");
}
FTMPI_PMPI(Comm_dup)

extern "C" int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_dup_with_info");
    if (newcomm == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_dup_with_info");
    if (info != MPI_INFO_NULL && !valid(info)) return raise(comm, MPI_ERR_INFO, "MPI_Comm_dup_with_info");
    if (int err = MPI_SUCCESS; ftmpi::ft::recover_if_needed(comm, newcomm, &err))
        return raise(comm, err, "MPI_Comm_dup_with_info");
    int err = dup_comm(comm, newcomm);
    if (err == MPI_SUCCESS && info != MPI_INFO_NULL) (*newcomm)->info = copy_info(info);
    return raise(comm, err, "MPI_Comm_dup_with_info");
}
FTMPI_PMPI(Comm_dup_with_info)

extern "C" int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_idup");
    if (newcomm == nullptr || request == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_idup");
    return raise(comm, start_idup(comm, MPI_INFO_NULL, newcomm, request), "MPI_Comm_idup");
}
FTMPI_PMPI(Comm_idup)

extern "C" int MPI_Comm_free(MPI_Comm *comm) noexcept {
    if (comm == nullptr || !valid(*comm)) return raise(MPI_COMM_NULL, MPI_ERR_COMM, "MPI_Comm_free");
    MPI_Comm c = *comm;
    if (c == MPI_COMM_WORLD || c == MPI_COMM_SELF) return raise(c, MPI_ERR_COMM, "MPI_Comm_free");
    // Delete callbacks run now, while the communicator is still usable.
    int err = delete_all_attributes(c);
    *comm = MPI_COMM_NULL;
    // The handle is invalid for the program from here on, also while pending
    // operations or the library's own threads still hold the object.
    unregister_object(c);
    release(c);
    return err == MPI_SUCCESS ? MPI_SUCCESS : raise(MPI_COMM_NULL, err, "MPI_Comm_free");
}
FTMPI_PMPI(Comm_free)
