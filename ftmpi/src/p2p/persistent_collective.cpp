// Persistent collectives (MPI_Bcast_init, …) and other persistent requests
// of the engine's users: what MPI_Start does with a request made by
// make_persistent_collective or make_persistent_owned (internal/p2p.hpp).
#include "p2p/engine.hpp"
#include "p2p/operations.hpp"

#include <memory>
#include <mutex>

namespace ftmpi::p2p {

namespace {

// An owned round (make_persistent_owned): the maker's driver runs as the
// advance of a helper nobody waits on; the maker completes r itself.
int start_owned(MPI_Request r) {
    std::function<bool()> drive;
    const int e = r->start_owned(r, &drive);
    if (e != MPI_SUCCESS) {
        MPI_Status failed;
        empty_status(&failed);
        failed.MPI_ERROR = e;
        Engine::get().complete_now(r, failed);
        return MPI_SUCCESS;  // Wait reports it, as for a refused p2p start
    }
    if (drive) {
        MPI_Request helper = make_generalized([drive = std::move(drive)](MPI_Status *) { return drive(); });
        Engine::get().release(helper);  // freed when the driver is done
    }
    return MPI_SUCCESS;
}

}  // namespace

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
    if (r->start_owned) return start_owned(r);
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

MPI_Request make_persistent_owned(std::function<int(MPI_Request, std::function<bool()> *)> start) {
    auto *r = new ftmpi_request_s();
    r->kind = RequestKind::generalized;
    r->persistent = true;
    r->start_owned = std::move(start);
    empty_status(&r->status);
    return r;
}

void complete_round(MPI_Request r, const MPI_Status &status) {
    Engine::get().complete_now(r, status);
}

}  // namespace ftmpi::p2p
