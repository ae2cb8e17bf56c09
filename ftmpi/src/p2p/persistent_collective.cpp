// Persistent collectives (MPI_Bcast_init, …): what MPI_Start does with a
// request made by make_persistent_collective (internal/p2p.hpp).
#include "p2p/engine.hpp"
#include "p2p/operations.hpp"

#include <memory>
#include <mutex>

namespace ftmpi::p2p {

// A persistent collective: starts its non-blocking collective and watches
// it through a helper request the progress engine polls; when the
// collective ends, the persistent request takes its status and completes
// (written before the helper's completion takes the engine's lock, so
// waiters that hold the lock see it).
int start_persistent_collective(MPI_Request r) {
    auto &engine = Engine::get();
    {
        std::lock_guard<std::mutex> lk(engine.mutex());
        r->active = true;
        r->complete = false;
        empty_status(&r->status);
    }
    auto inner = std::make_shared<MPI_Request>(MPI_REQUEST_NULL);
    int e = r->start_collective(inner.get());
    if (e != MPI_SUCCESS) {
        std::lock_guard<std::mutex> lk(engine.mutex());
        r->status.MPI_ERROR = e;
        r->complete = true;
        return MPI_SUCCESS;  // Wait reports it, as for a refused p2p start
    }
    MPI_Request helper = make_generalized([r, inner](MPI_Status *) {
        int flag = 0;
        MPI_Status st;
        const int rc = test_all(1, inner.get(), &flag, &st);
        if (!flag) return false;
        st.MPI_ERROR = rc == MPI_ERR_IN_STATUS ? st.MPI_ERROR : rc;
        std::lock_guard<std::mutex> lk(Engine::get().mutex());
        if (r->user_freed) {
            delete r;  // MPI_Request_free while it ran
        } else {
            r->status = st;
            r->complete = true;
        }
        return true;
    });
    engine.release(helper);  // nobody waits on the helper itself: freed when it completes
    return MPI_SUCCESS;
}

MPI_Request make_persistent_collective(std::function<int(MPI_Request *)> start) {
    auto *r = new ftmpi_request_s();
    r->kind = RequestKind::generalized;
    r->persistent = true;
    r->start_collective = std::move(start);
    empty_status(&r->status);
    return r;
}

}  // namespace ftmpi::p2p
