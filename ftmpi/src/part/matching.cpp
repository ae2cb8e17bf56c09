// The order partitioned requests match in, and the handshakes that carry
// it from receiver to sender (matching.hpp).
#include "part/matching.hpp"

#include "internal/comm.hpp"

namespace ftmpi::part {

int Mailbox::lookup(int seq, int *data_tag) {
    std::lock_guard lock(mu_);
    for (;;) {
        if (auto it = arrived_.find(seq); it != arrived_.end()) {
            *data_tag = it->second;
            arrived_.erase(it);
            return MPI_SUCCESS;
        }
        if (error_ != MPI_SUCCESS) return error_;
        if (pending_ == MPI_REQUEST_NULL) {
            const int e = p2p::irecv(incoming_, 2, MPI_INT, dest_, handshake_tag_base + tag_, comm_,
                                     p2p::Channel::collective, &pending_);
            if (e != MPI_SUCCESS) return error_ = e;
        }
        int flag = 0;
        MPI_Status status;
        const int rc = p2p::test_all(1, &pending_, &flag, &status);
        if (!flag) {
            *data_tag = -1;
            return MPI_SUCCESS;
        }
        pending_ = MPI_REQUEST_NULL;
        const int e = rc == MPI_ERR_IN_STATUS ? status.MPI_ERROR : rc;
        if (e != MPI_SUCCESS) return error_ = e;
        arrived_[incoming_[0]] = incoming_[1];
    }
}

int CommMatching::next_send(MPI_Comm comm, int dest, int tag, std::shared_ptr<Mailbox> *mailbox) {
    std::lock_guard lock(mu_);
    auto &box = mailboxes_[{dest, tag}];
    if (!box) box = std::make_shared<Mailbox>(comm, dest, tag);
    *mailbox = box;
    return sends_[{dest, tag}]++;
}

int CommMatching::next_recv(int source, int tag, int *data_tag) {
    std::lock_guard lock(mu_);
    // Numbers wrap: a receive's tag only has to differ from those of the
    // receives still alive, far fewer than data_tags.
    *data_tag = data_tag_base + next_data_;
    next_data_ = (next_data_ + 1) % data_tags;
    return recvs_[{source, tag}]++;
}

std::shared_ptr<CommMatching> matching_of(MPI_Comm comm) {
    static std::mutex made;
    std::lock_guard lock(made);
    if (!comm->partitioned) comm->partitioned = std::make_shared<CommMatching>();
    return comm->partitioned;
}

}  // namespace ftmpi::part
