// Partitioned requests: their rounds and the registry the bindings look
// requests up in (partitioned.hpp).
#include "part/partitioned.hpp"

#include "internal/datatype.hpp"
#include "internal/p2p.hpp"

#include <map>

namespace ftmpi::part {
namespace {

std::mutex registry_mutex;
std::map<MPI_Request, std::weak_ptr<Partitioned>> registry;

// Lives exactly as long as the persistent request (its start function
// holds it), so a freed request's address, reused by a later request, is
// never taken for a partitioned one.
struct Registration {
    MPI_Request key = MPI_REQUEST_NULL;
    Registration() = default;
    Registration(const Registration &) = delete;
    Registration &operator=(const Registration &) = delete;
    ~Registration() {
        std::lock_guard lock(registry_mutex);
        registry.erase(key);
    }
};

}  // namespace

void Partitioned::hold(MPI_Datatype held) {
    dt::retain(held);
    type = held;
}

Partitioned::~Partitioned() {
    if (type != MPI_DATATYPE_NULL) dt::release(type);
}

bool Partitioned::test_locked() {
    if (done) return true;
    if (op == MPI_REQUEST_NULL) return false;  // a send whose partitions are not all ready
    int flag = 0;
    MPI_Status status;
    const int rc = p2p::test_all(1, &op, &flag, &status);
    if (!flag) return false;
    status.MPI_ERROR = rc == MPI_ERR_IN_STATUS ? status.MPI_ERROR : rc;
    if (!send && peer != MPI_PROC_NULL) status.MPI_TAG = tag;  // the program's tag, not the channel's
    result = status;
    op = MPI_REQUEST_NULL;
    done = true;
    return true;
}

int Partitioned::start(const std::shared_ptr<Partitioned> &self, MPI_Request *inner) {
    {
        p2p::AdvancesDeferred deferred;  // the inner advance takes mu too
        std::lock_guard lock(mu);
        ready.assign(static_cast<std::size_t>(partitions), 0);
        ready_count = 0;
        done = false;
        op = MPI_REQUEST_NULL;
        active = true;
        if (!send) {
            const int e = p2p::irecv(buf, elements, type, peer, tag_base + tag, comm, p2p::Channel::collective, &op);
            if (e != MPI_SUCCESS) {
                active = false;
                return e;
            }
        }
    }
    // Called by one thread at a time; MPI_Pready and MPI_Parrived hold mu
    // only briefly, so a busy mutex just means "not yet".
    *inner = p2p::make_generalized([self](MPI_Status *status) {
        std::unique_lock lock(self->mu, std::try_to_lock);
        if (!lock.owns_lock() || !self->test_locked()) return false;
        self->active = false;
        *status = self->result;
        return true;
    });
    return MPI_SUCCESS;
}

std::shared_ptr<Partitioned> find(MPI_Request request) {
    std::lock_guard lock(registry_mutex);
    auto it = registry.find(request);
    return it == registry.end() ? nullptr : it->second.lock();
}

int make_request(std::shared_ptr<Partitioned> state, MPI_Request *request) {
    auto registration = std::make_shared<Registration>();
    MPI_Request made = p2p::make_persistent_collective(
        [state, registration](MPI_Request *inner) { return state->start(state, inner); });
    std::lock_guard lock(registry_mutex);
    registration->key = made;
    registry[made] = state;
    *request = made;
    return MPI_SUCCESS;
}

}  // namespace ftmpi::part
