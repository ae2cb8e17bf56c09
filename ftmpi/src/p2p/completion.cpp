// MPI_Wait/Test and their any/all/some forms,
// MPI_Request_get_status, MPI_Request_free, MPI_Cancel.
#include "p2p/binding.hpp"
#include "p2p/engine.hpp"
#include "p2p/operations.hpp"

#include "internal/comm.hpp"
#include "internal/ft.hpp"

#include <array>
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
// a failure in FT-MPI's comm modes). The communicators are noted before the
// requests are retired (pointer copies; up to 16 without allocating) and
// looked at only when the call ends with MPI_ERR_IN_STATUS; one freed
// meanwhile keeps the code as it is.
class StatusCodes {
public:
    StatusCodes(int n, MPI_Request *rs, MPI_Status *statuses, const char *function)
        : statuses_(statuses), function_(function), n_(statuses == MPI_STATUSES_IGNORE ? 0 : n) {
        if (n_ > static_cast<int>(few_.size())) many_.resize(static_cast<size_t>(n_));
        MPI_Comm *comms = at();
        for (int i = 0; i < n_; ++i) comms[i] = rs[i] != MPI_REQUEST_NULL ? rs[i]->comm : MPI_COMM_NULL;
    }

    // statuses[k] is request indices[k]'s (request k's without indices).
    int apply(int rc, int count, const int *indices) {
        if (rc != MPI_ERR_IN_STATUS || n_ == 0) return rc;
        const MPI_Comm *comms = at();
        for (int k = 0; k < count; ++k) {
            const int i = indices != nullptr ? indices[k] : k;
            if (i < 0 || i >= n_ || !ftmpi::comm::valid(comms[i])) continue;
            statuses_[k].MPI_ERROR = ftmpi::ft::reported_code(comms[i], statuses_[k].MPI_ERROR, function_);
        }
        return rc;
    }

private:
    MPI_Comm *at() { return many_.empty() ? few_.data() : many_.data(); }

    MPI_Status *statuses_;
    const char *function_;
    int n_;
    std::array<MPI_Comm, 16> few_{};
    std::vector<MPI_Comm> many_;
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
