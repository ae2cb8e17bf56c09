// MPIX_Comm_agree and MPIX_Comm_iagree: the AND of the live
// members' flags, and MPIX_ERR_PROC_FAILED at every member when some
// participant knew a failed member it had not acknowledged (that knowledge
// is part of the agreed value, so the code is the same everywhere). Works on
// a revoked communicator. Intercommunicators: MPI_ERR_COMM.
#include "agreement.hpp"
#include "binding.hpp"
#include "failed_members.hpp"

#include "../internal/p2p.hpp"

using namespace ftmpi;

namespace {

ft::Agreement contribution_of(MPI_Comm comm, int flag) {
    ft::Agreement a;
    a.flag = static_cast<uint32_t>(flag);
    for (const auto &m : ulfm::failed_members(comm)) a.failed.push_back(m.rank);
    a.unacked = ulfm::has_unacknowledged(comm);
    return a;
}

// The decided flag is written even with MPIX_ERR_PROC_FAILED (it is still the
// agreed AND); the code says some failure was not acknowledged somewhere.
ulfm::OnDecided write_flag_to(int *flag) {
    return [flag](int code, const ft::Agreement &decided) {
        if (code != MPI_SUCCESS) return code;
        *flag = static_cast<int>(decided.flag);
        return decided.unacked ? MPIX_ERR_PROC_FAILED : MPI_SUCCESS;
    };
}

int check(MPI_Comm comm, const void *out, const char *function) {
    if (!ulfm::usable(comm)) return comm::raise(MPI_COMM_NULL, MPI_ERR_COMM, function);
    if (comm->inter) return comm::raise(comm, MPI_ERR_COMM, function);
    if (out == nullptr) return comm::raise(comm, MPI_ERR_ARG, function);
    return MPI_SUCCESS;
}
}  // namespace

extern "C" int MPIX_Comm_agree(MPI_Comm comm, int *flag) {
    if (int err = check(comm, flag, "MPIX_Comm_agree"); err != MPI_SUCCESS) return err;
    return ulfm::guarded(comm, "MPIX_Comm_agree", [&] {
        MPI_Request r = MPI_REQUEST_NULL;
        int err = ulfm::start_agreement(comm, contribution_of(comm, *flag), write_flag_to(flag), &r);
        if (err != MPI_SUCCESS) return err;
        MPI_Status st;
        p2p::wait_all(1, &r, &st);
        return st.MPI_ERROR;
    });
}
FTMPI_PMPIX(Comm_agree)

extern "C" int MPIX_Comm_iagree(MPI_Comm comm, int *flag, MPI_Request *request) {
    if (int err = check(comm, flag, "MPIX_Comm_iagree"); err != MPI_SUCCESS) return err;
    if (request == nullptr) return comm::raise(comm, MPI_ERR_ARG, "MPIX_Comm_iagree");
    return ulfm::guarded(comm, "MPIX_Comm_iagree", [&] {
        return ulfm::start_agreement(comm, contribution_of(comm, *flag), write_flag_to(flag), request);
    });
}
FTMPI_PMPIX(Comm_iagree)
