// MPIX_Comm_agree and MPIX_Comm_iagree: the AND of the live
// members' flags, and MPIX_ERR_PROC_FAILED at every member when the agreed
// set of failed members holds one that some participant had not
// acknowledged before the call — also one that died before or during the
// call and that nobody had noticed yet. Each participant contributes the
// failed members it acknowledged; the agreed value carries their
// intersection, so the code is the same everywhere. Works on a revoked
// communicator. Intercommunicators: MPI_ERR_COMM.
#include "agreement.hpp"
#include "binding.hpp"
#include "failed_members.hpp"

#include "../internal/p2p.hpp"

#include <algorithm>

using namespace ftmpi;

namespace {

ft::Agreement contribution_of(MPI_Comm comm, int flag) {
    ft::Agreement a;
    a.flag = static_cast<uint32_t>(flag);
    a.acked.emplace();
    for (const auto &m : ulfm::failed_members(comm)) {
        a.failed.push_back(m.rank);
        if (ulfm::acknowledged(comm, m)) a.acked->push_back(m.rank);
    }
    return a;
}

// A member of the agreed failed set that not every participant acknowledged.
// (A participant that knew an unacknowledged failure is covered: the failed
// set holds every contribution's, and its acked set lacks that member.)
bool unacknowledged_somewhere(const ft::Agreement &decided) {
    if (!decided.acked) return false;
    for (int r : decided.failed)
        if (std::find(decided.acked->begin(), decided.acked->end(), r) == decided.acked->end()) return true;
    return false;
}

// The decided flag is written even with MPIX_ERR_PROC_FAILED (it is still the
// agreed AND); the code says some failure was not acknowledged somewhere.
ulfm::OnDecided write_flag_to(int *flag) {
    return [flag](int code, const ft::Agreement &decided) {
        if (code != MPI_SUCCESS) return code;
        *flag = static_cast<int>(decided.flag);
        return unacknowledged_somewhere(decided) ? MPIX_ERR_PROC_FAILED : MPI_SUCCESS;
    };
}

}  // namespace

extern "C" int MPIX_Comm_agree(MPI_Comm comm, int *flag) {
    if (int err = ulfm::check_intracomm_call(comm, flag, "MPIX_Comm_agree"); err != MPI_SUCCESS) return err;
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
    if (int err = ulfm::check_intracomm_call(comm, flag, "MPIX_Comm_iagree"); err != MPI_SUCCESS) return err;
    if (request == nullptr) return comm::raise(comm, MPI_ERR_ARG, "MPIX_Comm_iagree");
    return ulfm::guarded(comm, "MPIX_Comm_iagree", [&] {
        return ulfm::start_agreement(comm, contribution_of(comm, *flag), write_flag_to(flag), request);
    });
}
FTMPI_PMPIX(Comm_iagree)
