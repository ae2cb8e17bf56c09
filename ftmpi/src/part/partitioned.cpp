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

MPI_Status failed_status(int peer, int error) {
    MPI_Status status{};
    status.MPI_SOURCE = peer;
    status.MPI_TAG = MPI_ANY_TAG;
    status.MPI_ERROR = error;
    return status;
}

}  // namespace

void Partitioned::hold(MPI_Datatype held) {
    dt::retain(held);
    type = held;
}

Partitioned::~Partitioned() {
    if (type != MPI_DATATYPE_NULL) dt::release(type);
}

void Partitioned::end_round(MPI_Status status) {
    if (!send && peer != MPI_PROC_NULL) status.MPI_TAG = tag;  // the program's tag, not the channel's
    done = true;
    active = false;
    p2p::complete_round(self, status);
}

bool Partitioned::advance_locked() {
    if (done) return true;
    if (send) {
        if (data_tag < 0) {
            if (const int e = mailbox->lookup(seq, &data_tag); e != MPI_SUCCESS) {
                end_round(failed_status(peer, e));
                return true;
            }
            if (data_tag < 0) return false;  // the receive did not start yet
        }
        if (!posted) {
            if (ready_count < partitions) return false;
            posted = true;
            const int e = p2p::isend(buf, elements, type, peer, data_tag, comm, p2p::Channel::collective, &op);
            if (e != MPI_SUCCESS) {
                end_round(failed_status(peer, e));
                return true;
            }
        }
        int flag = 0;
        MPI_Status status;
        const int rc = p2p::test_all(1, &op, &flag, &status);
        if (!flag) return false;
        op = MPI_REQUEST_NULL;
        status.MPI_ERROR = rc == MPI_ERR_IN_STATUS ? status.MPI_ERROR : rc;
        end_round(status);
        return true;
    }
    MPI_Request ops[2] = {op, handshake_op};
    MPI_Status statuses[2];
    int flag = 0;
    const int rc = p2p::test_all(2, ops, &flag, statuses);
    if (!flag) return false;
    op = handshake_op = MPI_REQUEST_NULL;
    MPI_Status status = statuses[0];
    if (rc == MPI_ERR_IN_STATUS)
        status.MPI_ERROR = statuses[0].MPI_ERROR != MPI_SUCCESS ? statuses[0].MPI_ERROR : statuses[1].MPI_ERROR;
    else
        status.MPI_ERROR = rc;
    end_round(status);
    return true;
}

int Partitioned::start(const std::shared_ptr<Partitioned> &self_state, std::function<bool()> *drive) {
    p2p::AdvancesDeferred deferred;  // the round's driver takes mu too
    std::lock_guard lock(mu);
    ready.assign(static_cast<std::size_t>(partitions), 0);
    ready_count = 0;
    posted = false;
    done = false;
    op = MPI_REQUEST_NULL;
    ++round;
    if (!send) {
        if (int e = p2p::irecv(buf, elements, type, peer, data_tag, comm, p2p::Channel::collective, &op)) return e;
        if (!handshake_sent && peer != MPI_PROC_NULL) {
            // The match is made once, at the first MPI_Start (MPI-4.0 §4.2.2).
            handshake[0] = seq;
            handshake[1] = data_tag;
            const int e = p2p::isend(handshake, 2, MPI_INT, peer, handshake_tag_base + tag, comm,
                                     p2p::Channel::collective, &handshake_op);
            if (e != MPI_SUCCESS) {
                // The round ends with the error (Wait reports it); the
                // receive still completes by itself.
                active = true;
                end_round(failed_status(peer, e));
                return MPI_SUCCESS;
            }
            handshake_sent = true;
        }
    }
    active = true;
    if (advance_locked()) return MPI_SUCCESS;  // MPI_PROC_NULL, or a message that was there already
    // Called by one thread at a time; MPI_Pready and MPI_Parrived hold mu
    // only briefly, so a busy mutex just means "not yet". A driver of an
    // earlier round has nothing left to do.
    *drive = [state = self_state, round = round] {
        p2p::AdvancesDeferred inner_deferred;
        std::unique_lock state_lock(state->mu, std::try_to_lock);
        if (!state_lock.owns_lock()) return false;
        return state->round != round || state->advance_locked();
    };
    return MPI_SUCCESS;
}

std::shared_ptr<Partitioned> find(MPI_Request request) {
    std::lock_guard lock(registry_mutex);
    auto it = registry.find(request);
    return it == registry.end() ? nullptr : it->second.lock();
}

int make_request(std::shared_ptr<Partitioned> state, MPI_Request *request) {
    auto registration = std::make_shared<Registration>();
    MPI_Request made = p2p::make_persistent_owned(
        [state, registration](MPI_Request, std::function<bool()> *drive) { return state->start(state, drive); });
    state->self = made;
    std::lock_guard lock(registry_mutex);
    registration->key = made;
    registry[made] = state;
    *request = made;
    return MPI_SUCCESS;
}

}  // namespace ftmpi::part
