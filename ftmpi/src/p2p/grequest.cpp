// Generalized requests (MPI-3.1 §12.2): MPI_Grequest_start makes a request
// that the program completes with MPI_Grequest_complete. The progress
// engine polls it like the non-blocking collectives' requests; once
// completed (MPI_Grequest_complete runs a round of progress itself), the
// engine fills the status through query_fn. free_fn runs when the program
// is done with the request (Wait/Test retire it, or MPI_Request_free), so
// until then MPI_Cancel still reaches its cancel_fn (cancel_grequest), with
// `complete` true once MPI_Grequest_complete was called.
#include "internal/p2p.hpp"
#include "p2p/binding.hpp"
#include "p2p/engine.hpp"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>

namespace {

struct Grequest {
    MPI_Grequest_query_function *query = nullptr;
    MPI_Grequest_free_function *free = nullptr;
    MPI_Grequest_cancel_function *cancel = nullptr;
    void *extra_state = nullptr;
    std::atomic<bool> completed{false};
};

// Which generalized request is whose (MPI_Grequest_complete and
// MPI_Cancel name the request); an entry lives until the program is done
// with the request, so a handle reused afterwards never finds it.
std::mutex table_mutex;
std::map<MPI_Request, std::shared_ptr<Grequest>> &table() {
    static auto *t = new std::map<MPI_Request, std::shared_ptr<Grequest>>;
    return *t;
}

}  // namespace

extern "C" {

int MPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                       MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request) noexcept {
    return ftmpi::p2p::guarded(MPI_COMM_WORLD, "MPI_Grequest_start", [&] {
        if (!request) return MPI_ERR_ARG;
        auto g = std::make_shared<Grequest>();
        g->query = query_fn;
        g->free = free_fn;
        g->cancel = cancel_fn;
        g->extra_state = extra_state;
        // Nobody can complete the request before it has the handle, so the
        // entry goes in after the request exists.
        MPI_Request r = ftmpi::p2p::make_generalized([g](MPI_Status *status) {
            if (!g->completed.load(std::memory_order_acquire)) return false;
            MPI_Status st{};
            st.MPI_SOURCE = MPI_UNDEFINED;
            st.MPI_TAG = MPI_UNDEFINED;
            const int error = g->query ? g->query(g->extra_state, &st) : MPI_SUCCESS;
            if (status) {
                *status = st;
                status->MPI_ERROR = error;
            }
            return true;
        });
        if (r == MPI_REQUEST_NULL) return MPI_ERR_INTERN;
        r->on_release = [g] {
            {
                std::lock_guard lock(table_mutex);
                std::erase_if(table(), [&](const auto &entry) { return entry.second == g; });
            }
            return g->free ? g->free(g->extra_state) : MPI_SUCCESS;
        };
        {
            std::lock_guard lock(table_mutex);
            table()[r] = g;
        }
        *request = r;
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(Grequest_start)

int MPI_Grequest_complete(MPI_Request request) noexcept {
    std::shared_ptr<Grequest> g;
    {
        std::lock_guard lock(table_mutex);
        auto it = table().find(request);
        if (it != table().end()) g = it->second;
    }
    if (!g || g->completed.exchange(true))
        return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Grequest_complete");
    // One round of progress now, so a request already freed with
    // MPI_Request_free has its query_fn/free_fn called without waiting for
    // the program's next MPI call.
    ftmpi::p2p::Engine::get().progress();
    return MPI_SUCCESS;
}
FTMPI_PMPI(Grequest_complete)

}  // extern "C"

namespace ftmpi::p2p {

bool cancel_grequest(MPI_Request request, int *code) {
    std::shared_ptr<Grequest> g;
    {
        std::lock_guard lock(table_mutex);
        auto it = table().find(request);
        if (it == table().end()) return false;
        g = it->second;
    }
    *code = g->cancel ? g->cancel(g->extra_state, g->completed.load() ? 1 : 0) : MPI_SUCCESS;
    return true;
}

}  // namespace ftmpi::p2p
