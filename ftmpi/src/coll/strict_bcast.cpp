// Strict Bcast: every survivor returns the same data or the same error (strict.hpp).
#include "strict.hpp"

#include "internal/comm.hpp"
#include "internal/ft.hpp"
#include "mpi-ext.h"

#include <algorithm>
#include <vector>

namespace ftmpi::coll {

namespace {

// The comm ranks that are not gaps, in order.
std::vector<int> live_members(MPI_Comm comm) {
    std::vector<int> live;
    for (int c = 0; c < comm->size; ++c)
        if (comm->group->world[static_cast<size_t>(c)] != -1) live.push_back(c);
    return live;
}

}  // namespace

int strict_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    std::vector<int> live = live_members(comm);
    for (;;) {
        int err;
        {
            Schedule s(comm, live);
            build_bcast(s, buf, count, type, root);
            err = s.run();
        }
        ft::Agreement agreed;
        agreed.flag = err == MPI_SUCCESS ? 1u : 0u;
        agreed.failed = Schedule::known_failed(comm);
        if (int rc = ft::agree(comm, agreed); rc != MPI_SUCCESS) return rc;
        if (agreed.flag != 0) return MPI_SUCCESS;
        const auto failed = [&](int c) { return std::binary_search(agreed.failed.begin(), agreed.failed.end(), c); };
        // The same decision at every survivor: the agreed set is the same.
        if (failed(root) || failed(comm->rank)) return MPIX_ERR_PROC_FAILED;
        const size_t before = live.size();
        std::erase_if(live, failed);
        // Nobody new failed, so another round would fail the same way (a
        // revoked communicator, a bad argument somewhere): give up uniformly.
        if (live.size() == before) return err != MPI_SUCCESS ? err : MPIX_ERR_PROC_FAILED;
    }
}

}  // namespace ftmpi::coll
