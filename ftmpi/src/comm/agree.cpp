// Linear gather + answer over p2p's collective channel; see
// agree.hpp for the failure rule.
#include "agree.hpp"

#include "../internal/p2p.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>

namespace ftmpi::comm {
namespace {
using p2p::Channel;

// The leader's answer: an error code first, so a failure reaches everyone.
struct Answer {
    int32_t status;
    uint32_t value;
};

int send_bytes(const void *buf, size_t len, int dest, int tag, MPI_Comm comm) {
    return p2p::send(buf, static_cast<int>(len), MPI_BYTE, dest, tag, comm, Channel::collective);
}
int recv_bytes(void *buf, size_t len, int source, int tag, MPI_Comm comm) {
    return p2p::recv(buf, static_cast<int>(len), MPI_BYTE, source, tag, comm, Channel::collective, MPI_STATUS_IGNORE);
}

// Both leaders send and receive at once, so neither waits on the other's send.
int exchange_with_remote(const Scope &s, const void *out, void *in, size_t len, size_t out_len = SIZE_MAX) {
    if (out_len == SIZE_MAX) out_len = len;
    MPI_Request reqs[2];
    int err = p2p::irecv(in, static_cast<int>(len), MPI_BYTE, s.remote_leader, s.tag + 2, s.bridge, Channel::collective,
                         &reqs[0]);
    if (err != MPI_SUCCESS) return err;
    err = p2p::isend(out, static_cast<int>(out_len), MPI_BYTE, s.remote_leader, s.tag + 2, s.bridge,
                     Channel::collective, &reqs[1]);
    if (err != MPI_SUCCESS) {
        p2p::wait_all(1, reqs, MPI_STATUSES_IGNORE);  // the receive ends on the failure too
        return err;
    }
    MPI_Status st[2];
    err = p2p::wait_all(2, reqs, st);
    if (err != MPI_SUCCESS) {
        for (auto &x : st)
            if (x.MPI_ERROR != MPI_SUCCESS) return x.MPI_ERROR;
    }
    return err;
}
}  // namespace

Scope led_by(MPI_Comm comm, int leader) {
    Scope s;
    s.comm = comm;
    s.members.push_back(leader);
    for (int r = 0; r < comm->size; ++r)
        if (r != leader) s.members.push_back(r);
    return s;
}

Scope whole(MPI_Comm c) {
    Scope s;
    s.comm = c;
    s.members.reserve(static_cast<size_t>(c->size));
    // Gaps of a BLANK-recovered communicator (world rank -1) are nobody.
    for (int i = 0; i < c->size; ++i)
        if (c->group->world[static_cast<size_t>(i)] >= 0) s.members.push_back(i);
    return s;
}

int agree_max(const Scope &s, uint32_t &value) {
    const int leader = s.members.front();
    if (s.comm->rank != leader) {
        int err = send_bytes(&value, sizeof value, leader, s.tag, s.comm);
        if (err != MPI_SUCCESS) return err;
        Answer a{};
        err = recv_bytes(&a, sizeof a, leader, s.tag + 1, s.comm);
        if (err != MPI_SUCCESS) return err;
        if (a.status != MPI_SUCCESS) return a.status;
        value = a.value;
        return MPI_SUCCESS;
    }
    Answer a{MPI_SUCCESS, value};
    for (size_t i = 1; i < s.members.size(); ++i) {
        uint32_t theirs = 0;
        int err = recv_bytes(&theirs, sizeof theirs, s.members[i], s.tag, s.comm);
        if (err != MPI_SUCCESS) {
            if (a.status == MPI_SUCCESS) a.status = err;
        } else {
            a.value = std::max(a.value, theirs);
        }
    }
    if (s.bridge != MPI_COMM_NULL) {
        // Always exchange, even after a local failure, so the other leader
        // is not left waiting; either side's error becomes both sides'.
        Answer remote{};
        int err = exchange_with_remote(s, &a, &remote, sizeof a);
        if (a.status == MPI_SUCCESS) a.status = err != MPI_SUCCESS ? err : remote.status;
        a.value = std::max(a.value, remote.value);
    }
    for (size_t i = 1; i < s.members.size(); ++i)
        send_bytes(&a, sizeof a, s.members[i], s.tag + 1, s.comm);  // a dead member is no reason to stop
    value = a.value;
    return a.status;
}

int allgather(const Scope &s, const void *mine, size_t len, std::vector<unsigned char> &all) {
    const int leader = s.members.front();
    const size_t n = s.members.size();
    all.assign(n * len, 0);
    // The leader's answer: a status word, then every record.
    std::vector<unsigned char> answer(sizeof(int32_t) + n * len);
    if (s.comm->rank != leader) {
        int err = send_bytes(mine, len, leader, s.tag, s.comm);
        if (err != MPI_SUCCESS) return err;
        err = recv_bytes(answer.data(), answer.size(), leader, s.tag + 1, s.comm);
        if (err != MPI_SUCCESS) return err;
        int32_t status;
        std::memcpy(&status, answer.data(), sizeof status);
        if (status != MPI_SUCCESS) return status;
        std::memcpy(all.data(), answer.data() + sizeof status, n * len);
        return MPI_SUCCESS;
    }
    int32_t status = MPI_SUCCESS;
    unsigned char *records = answer.data() + sizeof status;
    if (len > 0) std::memcpy(records, mine, len);
    for (size_t i = 1; i < n; ++i) {
        int err = recv_bytes(records + i * len, len, s.members[i], s.tag, s.comm);
        if (err != MPI_SUCCESS && status == MPI_SUCCESS) status = err;
    }
    std::memcpy(answer.data(), &status, sizeof status);
    for (size_t i = 1; i < n; ++i) send_bytes(answer.data(), answer.size(), s.members[i], s.tag + 1, s.comm);
    if (status != MPI_SUCCESS) return status;
    std::memcpy(all.data(), records, n * len);
    return MPI_SUCCESS;
}

int share(const Scope &s, std::vector<int> &data) {
    const int leader = s.members.front();
    // Header first (status, count), then the ints when there are any.
    int32_t header[2] = {MPI_SUCCESS, 0};
    if (s.comm->rank != leader) {
        int err = recv_bytes(header, sizeof header, leader, s.tag + 1, s.comm);
        if (err != MPI_SUCCESS) return err;
        if (header[0] != MPI_SUCCESS) return header[0];
        data.assign(static_cast<size_t>(header[1]), 0);
        if (header[1] > 0) err = recv_bytes(data.data(), data.size() * sizeof(int), leader, s.tag + 1, s.comm);
        return err;
    }
    if (s.bridge != MPI_COMM_NULL) {
        int32_t mine[2] = {MPI_SUCCESS, static_cast<int32_t>(data.size())}, theirs[2] = {MPI_SUCCESS, 0};
        int err = exchange_with_remote(s, mine, theirs, sizeof mine);
        std::vector<int> remote;
        if (err == MPI_SUCCESS) {
            remote.assign(static_cast<size_t>(std::max(theirs[1], 0)), 0);
            err = exchange_with_remote(s, data.data(), remote.data(), remote.size() * sizeof(int),
                                       data.size() * sizeof(int));
        }
        header[0] = err;
        data = std::move(remote);
    }
    header[1] = static_cast<int32_t>(data.size());
    for (size_t i = 1; i < s.members.size(); ++i) {
        send_bytes(header, sizeof header, s.members[i], s.tag + 1, s.comm);
        if (header[0] == MPI_SUCCESS && header[1] > 0)
            send_bytes(data.data(), data.size() * sizeof(int), s.members[i], s.tag + 1, s.comm);
    }
    return header[0];
}

}  // namespace ftmpi::comm
