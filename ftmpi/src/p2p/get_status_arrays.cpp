// MPI_Request_get_status_any/_all/_some (MPI-4.1): the array forms of
// MPI_Request_get_status. Like it, they only look: a completed request is
// neither freed nor deactivated, so a later Wait/Test still retires it.
// Each takes one progress step when nothing it asks for is complete yet.
#include "p2p/binding.hpp"
#include "p2p/engine.hpp"
#include "p2p/operations.hpp"

#include <mutex>

using namespace ftmpi::p2p;

namespace {

// The communicator of the first live request: whose handler sees an error.
MPI_Comm first_live_comm(int n, const MPI_Request *rs) {
    for (int i = 0; i < n; ++i)
        if (rs[i] != MPI_REQUEST_NULL && rs[i]->comm) return rs[i]->comm;
    return MPI_COMM_WORLD;
}

bool bad_arrays(int n, const MPI_Request *rs) {
    return n < 0 || (n > 0 && rs == nullptr);
}

// Runs `look` (under the engine's lock) and, if it says nothing is ready,
// once more after a progress step.
template <typename Look>
void look_with_progress(Look &&look) {
    auto &engine = Engine::get();
    {
        std::lock_guard<std::mutex> lk(engine.mutex());
        if (look()) return;
    }
    engine.progress();
    std::lock_guard<std::mutex> lk(engine.mutex());
    look();
}

}  // namespace

extern "C" {

int MPI_Request_get_status_any(int count, const MPI_Request requests[], int *index, int *flag,
                               MPI_Status *status) noexcept {
    constexpr const char *fn = "MPI_Request_get_status_any";
    if (bad_arrays(count, requests) || !index || !flag) return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn);
    return guarded(first_live_comm(count, requests), fn, [&] {
        look_with_progress([&] {
            bool any_active = false;
            for (int i = 0; i < count; ++i) {
                if (inert(requests[i])) continue;
                any_active = true;
                if (!requests[i]->complete) continue;
                *flag = 1;
                *index = i;
                if (status) *status = requests[i]->status;
                return true;
            }
            // No active request at all counts as done (as MPI_Testany).
            *flag = any_active ? 0 : 1;
            *index = MPI_UNDEFINED;
            if (!any_active) empty_status(status);
            return !any_active;
        });
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(Request_get_status_any)

int MPI_Request_get_status_all(int count, const MPI_Request requests[], int *flag, MPI_Status statuses[]) noexcept {
    constexpr const char *fn = "MPI_Request_get_status_all";
    if (bad_arrays(count, requests) || !flag) return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn);
    return guarded(first_live_comm(count, requests), fn, [&] {
        bool any_error = false;
        look_with_progress([&] {
            for (int i = 0; i < count; ++i)
                if (!inert(requests[i]) && !requests[i]->complete) {
                    *flag = 0;
                    return false;
                }
            *flag = 1;
            any_error = false;
            for (int i = 0; i < count; ++i) {
                MPI_Status s;
                if (inert(requests[i])) {
                    empty_status(&s);
                } else {
                    s = requests[i]->status;
                    any_error = any_error || s.MPI_ERROR != MPI_SUCCESS;
                }
                if (statuses != MPI_STATUSES_IGNORE) statuses[i] = s;
            }
            return true;
        });
        // As MPI_Testall: each status carries its request's code.
        if (!any_error) return MPI_SUCCESS;
        return statuses != MPI_STATUSES_IGNORE ? MPI_ERR_IN_STATUS : MPI_ERR_OTHER;
    });
}
FTMPI_PMPI(Request_get_status_all)

int MPI_Request_get_status_some(int incount, const MPI_Request requests[], int *outcount, int indices[],
                                MPI_Status statuses[]) noexcept {
    constexpr const char *fn = "MPI_Request_get_status_some";
    if (bad_arrays(incount, requests) || !outcount || (incount > 0 && !indices))
        return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn);
    return guarded(first_live_comm(incount, requests), fn, [&] {
        bool any_error = false;
        look_with_progress([&] {
            bool any_active = false;
            int n = 0;
            any_error = false;
            for (int i = 0; i < incount; ++i) {
                if (inert(requests[i])) continue;
                any_active = true;
                if (!requests[i]->complete) continue;
                indices[n] = i;
                if (statuses != MPI_STATUSES_IGNORE) statuses[n] = requests[i]->status;
                any_error = any_error || requests[i]->status.MPI_ERROR != MPI_SUCCESS;
                ++n;
            }
            // No active request: MPI_UNDEFINED, as MPI_Testsome.
            *outcount = any_active ? n : MPI_UNDEFINED;
            return n > 0 || !any_active;
        });
        if (!any_error) return MPI_SUCCESS;
        return statuses != MPI_STATUSES_IGNORE ? MPI_ERR_IN_STATUS : MPI_ERR_OTHER;
    });
}
FTMPI_PMPI(Request_get_status_some)

}  // extern "C"
