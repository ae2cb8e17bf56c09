// The last round of a strict collective
// (Schedule::agree_at_end, FT_CONTRACTS.md "Collectives under failures"):
// every live member contributes "the collective succeeded here" and the
// failed members it knows of to the fault-tolerant agreement of the ulfm
// part (ft::agree / ft::iagree). The agreed AND decides: 1 → success
// everywhere; 0 → an error everywhere (this process's own error if it had
// one, MPIX_ERR_PROC_FAILED otherwise). The agreement never blocks forever
// on a failed process and gives every returning member the same value, so a
// strict collective cannot succeed at one survivor and fail at another.
#include "schedule.hpp"

#include "internal/p2p.hpp"
#include "mpi-ext.h"

#include <memory>

namespace ftmpi::coll {

namespace {
int outcome(int agreed_code, uint32_t flag, int local_error) {
    if (agreed_code != MPI_SUCCESS) return agreed_code;
    if (flag != 0) return MPI_SUCCESS;
    return local_error != MPI_SUCCESS ? local_error : MPIX_ERR_PROC_FAILED;
}
}  // namespace

int Schedule::agree_blocking() {
    ft::Agreement value;
    value.flag = error_ == MPI_SUCCESS ? 1u : 0u;
    value.failed = known_failed(comm_);
    const int rc = ft::agree(comm_, value);
    return outcome(rc, value.flag, error_);
}

bool Schedule::agree_advance() {
    if (!agreement_) {
        agreement_ = std::make_unique<Agreement>();
        agreement_->value.flag = error_ == MPI_SUCCESS ? 1u : 0u;
        agreement_->value.failed = known_failed(comm_);
        if (int rc = ft::iagree(comm_, agreement_->value, &agreement_->request); rc != MPI_SUCCESS) {
            agreement_->request = MPI_REQUEST_NULL;
            error_ = rc;
            return true;
        }
    }
    int flag = 0;
    MPI_Status status{};
    const int rc = p2p::test_all(1, &agreement_->request, &flag, &status);
    if (!flag) return false;
    error_ = outcome(rc == MPI_ERR_IN_STATUS ? status.MPI_ERROR : rc, agreement_->value.flag, error_);
    return true;
}

}  // namespace ftmpi::coll
