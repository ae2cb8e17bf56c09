// MPI_Wait/Test and their any/all/some forms,
// MPI_Request_get_status, MPI_Request_free, MPI_Cancel.
#include "p2p/binding.hpp"
#include "p2p/engine.hpp"
#include "p2p/operations.hpp"

#include "internal/ft.hpp"

#include <mutex>
#include <vector>

using namespace ftmpi::p2p;

namespace {

// The communicator whose handler sees an error of a multi-request call: the
// first failing request's (read before the requests are retired).
MPI_Comm comm_of(int n, MPI_Request *rs) {
    for (int i = 0; i < n; ++i)
        if (rs[i] != MPI_REQUEST_NULL && rs[i]->comm) return rs[i]->comm;
    return MPI_COMM_WORLD;
}

// The array calls' statuses carry the code the program gets from each
// request's communicator (FT_CONTRACTS.md, "Error codes": MPI_ERR_OTHER for
// a failure in FT-MPI's comm modes). The communicators are read before the
// requests are retired, and kept only when one of them replaces codes.
class StatusCodes {
public:
    StatusCodes(int n, MPI_Request *rs, MPI_Status *statuses, const char *function)
        : statuses_(statuses), function_(function) {
        if (statuses == MPI_STATUSES_IGNORE) return;
        bool replaces = false;
        for (int i = 0; i < n && !replaces; ++i)
            replaces = rs[i] != MPI_REQUEST_NULL && rs[i]->comm &&
                ftmpi::ft::reported_code(rs[i]->comm, MPIX_ERR_PROC_FAILED, function) != MPIX_ERR_PROC_FAILED;
        if (!replaces) return;
        comms_.reserve(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) comms_.push_back(rs[i] != MPI_REQUEST_NULL ? rs[i]->comm : nullptr);
    }

    // statuses[k] is request indices[k]'s (request k's without indices).
    int apply(int rc, int count, const int *indices) {
        if (rc != MPI_ERR_IN_STATUS || comms_.empty()) return rc;
        for (int k = 0; k < count; ++k) {
            const int i = indices != nullptr ? indices[k] : k;
            if (i < 0 || i >= static_cast<int>(comms_.size())) continue;
            statuses_[k].MPI_ERROR =
                ftmpi::ft::reported_code(comms_[static_cast<size_t>(i)], statuses_[k].MPI_ERROR, function_);
        }
        return rc;
    }

private:
    MPI_Status *statuses_;
    const char *function_;
    std::vector<MPI_Comm> comms_;
};

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
    return guarded(comm, "MPI_Waitall", [&] {
        StatusCodes codes(count, requests, statuses, "MPI_Waitall");
        return codes.apply(wait_all(count, requests, statuses), count, nullptr);
    });
}
FTMPI_PMPI(Waitall)

int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[]) noexcept {
    if (count < 0 || (count > 0 && !requests) || !flag)
        return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Testall");
    MPI_Comm comm = comm_of(count, requests);
    return guarded(comm, "MPI_Testall", [&] {
        StatusCodes codes(count, requests, statuses, "MPI_Testall");
        return codes.apply(test_all(count, requests, flag, statuses), count, nullptr);
    });
}
FTMPI_PMPI(Testall)

int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[]) noexcept {
    if (incount < 0 || (incount > 0 && (!requests || !indices)) || !outcount)
        return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Waitsome");
    MPI_Comm comm = comm_of(incount, requests);
    return guarded(comm, "MPI_Waitsome", [&] {
        StatusCodes codes(incount, requests, statuses, "MPI_Waitsome");
        return codes.apply(wait_some(incount, requests, outcount, indices, statuses), *outcount, indices);
    });
}
FTMPI_PMPI(Waitsome)

int MPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[]) noexcept {
    if (incount < 0 || (incount > 0 && (!requests || !indices)) || !outcount)
        return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Testsome");
    MPI_Comm comm = comm_of(incount, requests);
    return guarded(comm, "MPI_Testsome", [&] {
        StatusCodes codes(incount, requests, statuses, "MPI_Testsome");
        return codes.apply(test_some(incount, requests, outcount, indices, statuses), *outcount, indices);
    });
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
