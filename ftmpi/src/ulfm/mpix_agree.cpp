// MPIX_Comm_agree and MPIX_Comm_iagree: the AND of the live
// members' flags, and MPIX_ERR_PROC_FAILED at every member when the agreed
// set of failed members holds one that some participant had not
// acknowledged before the call — also one that died before or during the
// call and that nobody had noticed yet. Each participant contributes the
// failed members it acknowledged; the agreed value carries their
// intersection, so the code is the same everywhere. Works on a revoked
// communicator.
//
// On an intercommunicator each side's flag is the AND of the other side's
// contributions (the fault-tolerance chapter): two agreements over both
// groups at once, one per side, in which the members of the other side
// contribute all ones.
#include "agreement.hpp"
#include "binding.hpp"
#include "failed_members.hpp"
#include "participants.hpp"

#include "../internal/p2p.hpp"

#include <algorithm>
#include <memory>
#include <vector>

using namespace ftmpi;

namespace {

ft::Agreement contribution_of(MPI_Comm comm, int flag) {
    ft::Agreement a;
    a.flag = static_cast<uint32_t>(flag);
    a.acked.emplace();
    for (const auto &m : ulfm::failed_participants(comm)) {
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
int write_flag(int *flag, int code, const ft::Agreement &decided) {
    if (code != MPI_SUCCESS) return code;
    *flag = static_cast<int>(decided.flag);
    return unacknowledged_somewhere(decided) ? MPIX_ERR_PROC_FAILED : MPI_SUCCESS;
}
ulfm::OnDecided write_flag_to(int *flag) {
    return [flag](int code, const ft::Agreement &decided) { return write_flag(flag, code, decided); };
}

// The intercommunicator form: one agreement per side (side 0 holds
// participant 0); this process's flag is the other side's AND, and the code
// is the worse of the two.
struct SideAgreements {
    MPI_Request request[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    uint32_t and_of_side[2] = {~0u, ~0u};
};

int start_inter_agreement(MPI_Comm comm, int *flag, MPI_Request *request) {
    const ulfm::Participants parts = ulfm::participants_of(comm);
    const int my_side = parts.local_offset == 0 ? 0 : 1;
    auto sides = std::make_shared<SideAgreements>();
    for (int side = 0; side < 2; ++side) {
        const int contributed = side == my_side ? *flag : ~0;
        int err = ulfm::start_agreement(
            comm, contribution_of(comm, contributed),
            [sides, side](int code, const ft::Agreement &decided) {
                if (code != MPI_SUCCESS) return code;
                sides->and_of_side[side] = decided.flag;
                return unacknowledged_somewhere(decided) ? MPIX_ERR_PROC_FAILED : MPI_SUCCESS;
            },
            &sides->request[side]);
        if (err != MPI_SUCCESS) return err;  // both start alike: only the first can fail
    }
    *request = p2p::make_generalized([sides, flag, other = 1 - my_side](MPI_Status *st) {
        int done = 0;
        MPI_Status statuses[2];
        p2p::test_all(2, sides->request, &done, statuses);
        if (!done) return false;
        *flag = static_cast<int>(sides->and_of_side[other]);
        st->MPI_ERROR = statuses[0].MPI_ERROR != MPI_SUCCESS ? statuses[0].MPI_ERROR : statuses[1].MPI_ERROR;
        return true;
    });
    return MPI_SUCCESS;
}

int start_agree(MPI_Comm comm, int *flag, MPI_Request *request) {
    if (comm->inter) return start_inter_agreement(comm, flag, request);
    return ulfm::start_agreement(comm, contribution_of(comm, *flag), write_flag_to(flag), request);
}

}  // namespace

extern "C" int MPIX_Comm_agree(MPI_Comm comm, int *flag) {
    if (int err = ulfm::check_comm_call(comm, flag, "MPIX_Comm_agree"); err != MPI_SUCCESS) return err;
    return ulfm::guarded(comm, "MPIX_Comm_agree", [&] {
        MPI_Request r = MPI_REQUEST_NULL;
        // The agreed failed set (comm ranks of an intracommunicator), taken
        // over here once the call is done: a failure only another member had
        // seen is then known to this process too, so acknowledging and
        // agreeing again settles at once instead of after the VM's notice.
        std::vector<int> agreed_failed;
        int err;
        if (comm->inter) {
            err = start_inter_agreement(comm, flag, &r);
        } else {
            // Two pointers: the callback fits in the std::function, no allocation.
            err = ulfm::start_agreement(
                comm, contribution_of(comm, *flag),
                [flag, &agreed_failed](int code, const ft::Agreement &decided) {
                    if (code == MPI_SUCCESS) agreed_failed = decided.failed;
                    return write_flag(flag, code, decided);
                },
                &r);
        }
        if (err != MPI_SUCCESS) return err;
        MPI_Status st;
        p2p::wait_all(1, &r, &st);
        ft::adopt_agreed_failures(comm, agreed_failed);
        return st.MPI_ERROR;
    });
}
FTMPI_PMPIX(Comm_agree)

extern "C" int MPIX_Comm_iagree(MPI_Comm comm, int *flag, MPI_Request *request) {
    if (int err = ulfm::check_comm_call(comm, flag, "MPIX_Comm_iagree"); err != MPI_SUCCESS) return err;
    if (request == nullptr) return comm::raise(comm, MPI_ERR_ARG, "MPIX_Comm_iagree");
    return ulfm::guarded(comm, "MPIX_Comm_iagree", [&] { return start_agree(comm, flag, request); });
}
FTMPI_PMPIX(Comm_iagree)
