// MPI_Wait/Test and their any/all/some forms,
// MPI_Request_get_status, MPI_Request_free, MPI_Cancel.
#include "p2p/binding.hpp"
#include "p2p/engine.hpp"
#include "p2p/operations.hpp"

#include <mutex>

using namespace ftmpi::p2p;

namespace {

// The communicator whose handler sees an error of a multi-request call: the
// first failing request's (read before the requests are retired).
MPI_Comm comm_of(int n, MPI_Request *rs) {
    for (int i = 0; i < n; ++i)
        if (rs[i] != MPI_REQUEST_NULL && rs[i]->comm) return rs[i]->comm;
    return MPI_COMM_WORLD;
}

}  // namespace

extern "C" {

int MPI_Wait(MPI_Request *request, MPI_Status *status) noexcept {
    KeepStatusError keep(status);
    if (!request) return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Wait");
    MPI_Comm comm = error_comm(*request);
    return guarded(comm, "MPI_Wait", [&] { return wait_one(request, status); });
}
FTMPI_PMPI(Wait)

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status) noexcept {
    KeepStatusError keep(status);
    if (!request || !flag) return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Test");
    MPI_Comm comm = error_comm(*request);
    return guarded(comm, "MPI_Test", [&] { return test_one(request, flag, status); });
}
FTMPI_PMPI(Test)

int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status) noexcept {
    if (count < 0 || (count > 0 && !requests) || !index)
        return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Waitany");
    MPI_Comm comm = comm_of(count, requests);
    return guarded(comm, "MPI_Waitany", [&] { return wait_any(count, requests, index, status); });
}
FTMPI_PMPI(Waitany)

int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status) noexcept {
    if (count < 0 || (count > 0 && !requests) || !index || !flag)
        return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Testany");
    MPI_Comm comm = comm_of(count, requests);
    return guarded(comm, "MPI_Testany", [&] { return test_any(count, requests, index, flag, status); });
}
FTMPI_PMPI(Testany)

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) noexcept {
    if (count < 0 || (count > 0 && !requests)) return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Waitall");
    MPI_Comm comm = comm_of(count, requests);
    return guarded(comm, "MPI_Waitall", [&] { return wait_all(count, requests, statuses); });
}
FTMPI_PMPI(Waitall)

int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[]) noexcept {
    if (count < 0 || (count > 0 && !requests) || !flag)
        return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Testall");
    MPI_Comm comm = comm_of(count, requests);
    return guarded(comm, "MPI_Testall", [&] { return test_all(count, requests, flag, statuses); });
}
FTMPI_PMPI(Testall)

int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[]) noexcept {
    if (incount < 0 || (incount > 0 && (!requests || !indices)) || !outcount)
        return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Waitsome");
    MPI_Comm comm = comm_of(incount, requests);
    return guarded(comm, "MPI_Waitsome", [&] { return wait_some(incount, requests, outcount, indices, statuses); });
}
FTMPI_PMPI(Waitsome)

int MPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[]) noexcept {
    if (incount < 0 || (incount > 0 && (!requests || !indices)) || !outcount)
        return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Testsome");
    MPI_Comm comm = comm_of(incount, requests);
    return guarded(comm, "MPI_Testsome", [&] { return test_some(incount, requests, outcount, indices, statuses); });
}
FTMPI_PMPI(Testsome)

int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status) noexcept {
    if (!flag) return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Request_get_status");
    return guarded(error_comm(request), "MPI_Request_get_status", [&] {
        auto &engine = Engine::get();
        auto peek = [&] {
            std::lock_guard<std::mutex> lk(engine.mutex());
            if (inert(request)) {
                empty_status(status);
                return true;
            }
            if (!request->complete) return false;
            if (status) *status = request->status;
            return true;
        };
        if (!peek()) {
            engine.progress();
            *flag = peek();
        } else {
            *flag = 1;
        }
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(Request_get_status)

int MPI_Request_free(MPI_Request *request) noexcept {
    if (!request || *request == MPI_REQUEST_NULL)
        return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Request_free");
    return guarded(error_comm(*request), "MPI_Request_free", [&] {
        Engine::get().release(*request);
        *request = MPI_REQUEST_NULL;
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(Request_free)

int MPI_Cancel(MPI_Request *request) noexcept {
    if (!request || *request == MPI_REQUEST_NULL)
        return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Cancel");
    return guarded(error_comm(*request), "MPI_Cancel", [&] {
        if (int code = MPI_SUCCESS; cancel_grequest(*request, &code)) return code;  // its cancel_fn decides
        return Engine::get().cancel(*request);
    });
}
FTMPI_PMPI(Cancel)

}  // extern "C"
