// Non-blocking calls whose output handle is written when the request
// completes (MPI_COMM_IDUP(_WITH_INFO), MPIX_COMM_ISHRINK): C writes the new
// communicator into a C variable at completion, so the binding gives C a
// heap slot and remembers where the Fortran INTEGER is; every Fortran
// wait/test call then hands the requests it saw complete to
// finish_pending, which writes the Fortran handle and drops the slot.
#include "support.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace {

struct PendingHandle {
    std::unique_ptr<MPI_Comm> slot;
    MPI_Fint *fortran_out;
};

struct PendingTable {
    std::mutex mu;
    std::unordered_map<MPI_Request, PendingHandle> by_request;
    std::atomic<size_t> count{0};
};
PendingTable &pending() {
    static PendingTable *t = new PendingTable();
    return *t;
}

// Starts `start` with a heap slot for the new communicator; on success
// *request is the Fortran request and *newcomm gets its value at completion.
template <typename Start>
void start_with_slot(Start start, MPI_Fint *newcomm, MPI_Fint *request, MPI_Fint *ierror) noexcept {
    try {
        auto slot = std::make_unique<MPI_Comm>(MPI_COMM_NULL);
        MPI_Request c_request = MPI_REQUEST_NULL;
        const int rc = start(slot.get(), &c_request);
        if (rc == MPI_SUCCESS) {
            if (c_request == MPI_REQUEST_NULL) {
                *newcomm = MPI_Comm_c2f(*slot);  // completed at once
            } else {
                auto &t = pending();
                std::lock_guard<std::mutex> lk(t.mu);
                t.by_request[c_request] = PendingHandle{std::move(slot), newcomm};
                t.count = t.by_request.size();
            }
            *request = MPI_Request_c2f(c_request);
        }
        *ierror = rc;
    } catch (...) {
        *ierror = MPI_ERR_NO_MEM;
    }
}

}  // namespace

namespace ftmpi::fortran {

void finish_pending(const MPI_Fint *before, const MPI_Request *after, size_t n) noexcept {
    auto &t = pending();
    if (t.count.load() == 0) return;
    std::lock_guard<std::mutex> lk(t.mu);
    for (size_t i = 0; i < n; ++i) {
        const MPI_Request was = MPI_Request_f2c(before[i]);
        if (!was || was == after[i]) continue;  // still pending (or persistent)
        auto it = t.by_request.find(was);
        if (it == t.by_request.end()) continue;
        *it->second.fortran_out = MPI_Comm_c2f(*it->second.slot);
        t.by_request.erase(it);
    }
    t.count = t.by_request.size();
}

}  // namespace ftmpi::fortran

extern "C" {

void mpi_comm_idup_(const MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *request, MPI_Fint *ierror) noexcept {
    const MPI_Comm c_comm = MPI_Comm_f2c(*comm);
    start_with_slot([c_comm](MPI_Comm *slot, MPI_Request *req) { return MPI_Comm_idup(c_comm, slot, req); }, newcomm,
                    request, ierror);
}
FTMPI_F_PMPI(mpi_comm_idup)

void mpi_comm_idup_with_info_(const MPI_Fint *comm, const MPI_Fint *info, MPI_Fint *newcomm, MPI_Fint *request,
                              MPI_Fint *ierror) noexcept {
    const MPI_Comm c_comm = MPI_Comm_f2c(*comm);
    const MPI_Info c_info = MPI_Info_f2c(*info);
    start_with_slot([c_comm, c_info](MPI_Comm *slot,
                                     MPI_Request *req) { return MPI_Comm_idup_with_info(c_comm, c_info, slot, req); },
                    newcomm, request, ierror);
}
FTMPI_F_PMPI(mpi_comm_idup_with_info)

void mpix_comm_ishrink_(const MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *request, MPI_Fint *ierror) noexcept {
    const MPI_Comm c_comm = MPI_Comm_f2c(*comm);
    start_with_slot([c_comm](MPI_Comm *slot, MPI_Request *req) { return MPIX_Comm_ishrink(c_comm, slot, req); },
                    newcomm, request, ierror);
}
FTMPI_F_PMPI(mpix_comm_ishrink)

}  // extern "C"
