// Acknowledging failures (local calls): MPIX_Comm_failure_ack,
// MPIX_Comm_failure_get_acked, MPIX_Comm_get_failed, MPIX_Comm_ack_failed.
//
// comm->ft.acked_upto is a position in this process's failure list: a failed
// member whose failure index is below it is acknowledged. Acknowledging only
// ever raises it, so a later failure_ack never un-acknowledges anything.
#include "binding.hpp"
#include "failed_members.hpp"

#include "../internal/ft.hpp"
#include "../internal/p2p.hpp"

#include <algorithm>

using namespace ftmpi;

namespace {
void raise_acked_to(MPI_Comm comm, uint64_t upto) {
    uint64_t cur = comm->ft.acked_upto.load(std::memory_order_acquire);
    while (cur < upto && !comm->ft.acked_upto.compare_exchange_weak(cur, upto, std::memory_order_acq_rel)) {}
}
}  // namespace

using ulfm::acknowledged;

extern "C" int MPIX_Comm_failure_ack(MPI_Comm comm) {
    if (!ulfm::usable(comm)) return comm::raise(MPI_COMM_NULL, MPI_ERR_COMM, "MPIX_Comm_failure_ack");
    return ulfm::guarded(comm, "MPIX_Comm_failure_ack", [&] {
        p2p::settle_failure_reports();  // a failure an operation reported is in the list
        raise_acked_to(comm, ft::failure_count());
        return MPI_SUCCESS;
    });
}
FTMPI_PMPIX(Comm_failure_ack)

extern "C" int MPIX_Comm_failure_get_acked(MPI_Comm comm, MPI_Group *failedgrp) {
    if (!ulfm::usable(comm)) return comm::raise(MPI_COMM_NULL, MPI_ERR_COMM, "MPIX_Comm_failure_get_acked");
    if (failedgrp == nullptr) return comm::raise(comm, MPI_ERR_ARG, "MPIX_Comm_failure_get_acked");
    return ulfm::guarded(comm, "MPIX_Comm_failure_get_acked", [&] {
        auto members = ulfm::failed_members(comm);
        std::erase_if(members, [&](const ulfm::FailedMember &m) { return !acknowledged(comm, m); });
        *failedgrp = ulfm::group_of(members);
        return MPI_SUCCESS;
    });
}
FTMPI_PMPIX(Comm_failure_get_acked)

extern "C" int MPIX_Comm_get_failed(MPI_Comm comm, MPI_Group *failedgrp) {
    if (!ulfm::usable(comm)) return comm::raise(MPI_COMM_NULL, MPI_ERR_COMM, "MPIX_Comm_get_failed");
    if (failedgrp == nullptr) return comm::raise(comm, MPI_ERR_ARG, "MPIX_Comm_get_failed");
    return ulfm::guarded(comm, "MPIX_Comm_get_failed", [&] {
        p2p::settle_failure_reports();
        *failedgrp = ulfm::group_of(ulfm::failed_members(comm));
        return MPI_SUCCESS;
    });
}
FTMPI_PMPIX(Comm_get_failed)

// Acknowledges the first num_to_ack failed members in get_failed's order
// (0 only asks); *num_acked is how many failed members are acknowledged after.
extern "C" int MPIX_Comm_ack_failed(MPI_Comm comm, int num_to_ack, int *num_acked) {
    if (!ulfm::usable(comm)) return comm::raise(MPI_COMM_NULL, MPI_ERR_COMM, "MPIX_Comm_ack_failed");
    if (num_to_ack < 0 || num_acked == nullptr) return comm::raise(comm, MPI_ERR_ARG, "MPIX_Comm_ack_failed");
    return ulfm::guarded(comm, "MPIX_Comm_ack_failed", [&] {
        p2p::settle_failure_reports();
        const auto members = ulfm::failed_members(comm);
        const size_t k = std::min(static_cast<size_t>(num_to_ack), members.size());
        if (k > 0 && members[k - 1].index >= 0) raise_acked_to(comm, static_cast<uint64_t>(members[k - 1].index) + 1);
        *num_acked = static_cast<int>(
            std::count_if(members.begin(), members.end(), [&](const auto &m) { return acknowledged(comm, m); }));
        return MPI_SUCCESS;
    });
}
FTMPI_PMPIX(Comm_ack_failed)
