// MPIX_Comm_shrink and MPIX_Comm_ishrink (shrink.cpp does the
// work), on intra- and intercommunicators.
//
// The non-blocking form runs the shrink on a helper thread and completes its
// request when the thread is done: the shrink's steps wait on messages, and
// a generalized request's advance must never block.
#include "binding.hpp"
#include "shrink.hpp"

#include "../internal/p2p.hpp"

#include <atomic>
#include <memory>
#include <thread>

using namespace ftmpi;

namespace {

struct BackgroundShrink {
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm result = MPI_COMM_NULL;
    int code = MPI_SUCCESS;
    std::atomic<bool> done{false};
    std::thread worker;
};
}  // namespace

extern "C" int MPIX_Comm_shrink(MPI_Comm comm, MPI_Comm *newcomm) {
    if (int err = ulfm::check_comm_call(comm, newcomm, "MPIX_Comm_shrink"); err != MPI_SUCCESS) return err;
    return ulfm::guarded(comm, "MPIX_Comm_shrink", [&] { return ulfm::shrink(comm, newcomm); });
}
FTMPI_PMPIX(Comm_shrink)

extern "C" int MPIX_Comm_ishrink(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request) {
    if (int err = ulfm::check_comm_call(comm, newcomm, "MPIX_Comm_ishrink"); err != MPI_SUCCESS) return err;
    if (request == nullptr) return comm::raise(comm, MPI_ERR_ARG, "MPIX_Comm_ishrink");
    return ulfm::guarded(comm, "MPIX_Comm_ishrink", [&] {
        auto job = std::make_shared<BackgroundShrink>();
        job->comm = comm;
        comm::retain(comm);  // the program may free comm before the request completes
        job->worker = std::thread([job] {
            job->code = ulfm::shrink(job->comm, &job->result);
            job->done.store(true, std::memory_order_release);
        });
        *request = p2p::make_generalized([job, newcomm](MPI_Status *st) {
            if (!job->done.load(std::memory_order_acquire)) return false;
            job->worker.join();
            comm::release(job->comm);
            if (job->code == MPI_SUCCESS) *newcomm = job->result;
            st->MPI_ERROR = job->code;
            return true;
        });
        return MPI_SUCCESS;
    });
}
FTMPI_PMPIX(Comm_ishrink)
