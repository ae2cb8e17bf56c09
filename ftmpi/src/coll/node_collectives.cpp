// Barrier, Bcast, Reduce and Allreduce through a communicator's shared
// segment (node.hpp). Data crosses the segment in its packed form, so
// members may describe it with different datatypes of one signature, as
// with messages.
//
// Every algorithm is flat: a member publishes before it waits for anyone
// (except for the buffers of two collectives ago to be read), so a live
// member never waits for another live member that waits for it.
//   Barrier:   publish, then wait until every member published.
//   Bcast:     the root copies its data in and publishes; the others wait
//              for it and copy it out.
//   Reduce:    every member copies its data in and publishes; the root
//              combines them in rank order.
//   Allreduce: the same, every member combining all of them, in the same
//              order, so every member gets the same bits.
#include "node.hpp"

#include "buffers.hpp"
#include "node_state.hpp"
#include "select.hpp"

#include "internal/datatype.hpp"
#include "internal/op.hpp"

#include <cstring>
#include <memory>

namespace ftmpi::coll::node {

namespace {

// Whether the decision table picks shared memory for a call of `bytes` on
// comm: alike on every member (the choice depends on the member count, the
// message size and the communicator's shape).
template <class Algorithm>
bool picked(Collective c, MPI_Comm comm, size_t bytes) {
    return bytes <= capacity() && capacity() > 0 && shaped_for(comm) &&
        choose<Algorithm>(c, comm->size, bytes).algorithm == Algorithm::shm;
}

// Packs count elements of type at buf into dst (`bytes` of them).
int pack(const void *buf, int count, MPI_Datatype type, char *dst, size_t bytes) {
    if (dt::contiguous(type)) {
        std::memcpy(dst, static_cast<const char *>(buf) + dt::true_lb(type), bytes);
        return MPI_SUCCESS;
    }
    return copy(buf, count, type, dst, static_cast<int>(bytes), MPI_BYTE);
}

int unpack(const char *src, size_t bytes, void *buf, int count, MPI_Datatype type) {
    if (dt::contiguous(type)) {
        std::memcpy(static_cast<char *>(buf) + dt::true_lb(type), src, bytes);
        return MPI_SUCCESS;
    }
    return copy(src, static_cast<int>(bytes), MPI_BYTE, buf, count, type);
}

// A member's packed data as a buffer of (count, type) that op::apply can
// read: the data itself for a contiguous type, else an unpacked copy.
class Operand {
public:
    Operand(int count, MPI_Datatype type) : count_(count), type_(type), contiguous_(dt::contiguous(type)) {
        if (contiguous_) return;
        const MPI_Aint span = dt::true_extent(type) + static_cast<MPI_Aint>(count - 1) * dt::extent(type);
        scratch_ = std::make_unique<char[]>(static_cast<size_t>(span));
    }
    const void *from(const char *packed, size_t bytes, int *err) {
        if (contiguous_) return packed - dt::true_lb(type_);
        void *typed = scratch_.get() - dt::true_lb(type_);
        *err = copy(packed, static_cast<int>(bytes), MPI_BYTE, typed, count_, type_);
        return typed;
    }

private:
    int count_;
    MPI_Datatype type_;
    bool contiguous_;
    std::unique_ptr<char[]> scratch_;
};

// The start every call shares: nullopt when the segment does not take it.
struct Started {
    State *state = nullptr;
    uint64_t epoch = 0;
    int err = MPI_SUCCESS;
};
Started start(MPI_Comm comm) {
    Started s;
    s.state = enter(comm, &s.epoch, &s.err);
    return s;
}

// recvbuf = d[0] op (d[1] op (... op d[p-1])) over every member's packed
// data: the order MPI gives for any op, the same on every member.
int combine(Call &call, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, size_t bytes) {
    const int last = call.members() - 1;
    if (int e = call.await_published(last); e != MPI_SUCCESS) return e;
    if (int e = unpack(call.segment().data(last, call.number()), bytes, recvbuf, count, type); e != MPI_SUCCESS)
        return e;
    Operand operand(count, type);
    for (int m = last - 1; m >= 0; --m) {
        if (int e = call.await_published(m); e != MPI_SUCCESS) return e;
        int err = MPI_SUCCESS;
        const void *in = operand.from(call.segment().data(m, call.number()), bytes, &err);
        if (err == MPI_SUCCESS) err = op::apply(op, in, recvbuf, count, type);
        if (err != MPI_SUCCESS) return err;
    }
    return MPI_SUCCESS;
}

// Copies this member's contribution in and publishes it.
int contribute(Call &call, const void *buf, int count, MPI_Datatype type, size_t bytes) {
    if (int e = call.await_buffers_free(); e != MPI_SUCCESS) return e;
    if (int e = pack(buf, count, type, call.segment().data(call.me(), call.number()), bytes); e != MPI_SUCCESS)
        return e;
    call.publish();
    return MPI_SUCCESS;
}

}  // namespace

std::optional<int> barrier(MPI_Comm comm) {
    if (!picked<BarrierAlgorithm>(Collective::barrier, comm, 0)) return std::nullopt;
    const Started s = start(comm);
    if (s.state == nullptr) return s.err == MPI_SUCCESS ? std::nullopt : std::optional<int>(s.err);
    Call call(comm, *s.state, s.epoch);
    call.publish();
    int rc = MPI_SUCCESS;
    for (int m = 0; m < call.members() && rc == MPI_SUCCESS; ++m)
        if (m != call.me()) rc = call.await_published(m);
    call.finish();
    return rc;
}

std::optional<int> bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    const size_t bytes = data_bytes(count, type);
    if (bytes == 0 || !picked<BcastAlgorithm>(Collective::bcast, comm, bytes)) return std::nullopt;
    const Started s = start(comm);
    if (s.state == nullptr) return s.err == MPI_SUCCESS ? std::nullopt : std::optional<int>(s.err);
    Call call(comm, *s.state, s.epoch);
    int rc;
    if (call.me() == root) {
        rc = contribute(call, buf, count, type, bytes);
    } else {
        rc = call.await_published(root);
        if (rc == MPI_SUCCESS) rc = unpack(call.segment().data(root, call.number()), bytes, buf, count, type);
    }
    call.finish();
    return rc;
}

std::optional<int> reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                          MPI_Comm comm) {
    const size_t bytes = data_bytes(count, type);
    if (bytes == 0 || !picked<ReduceAlgorithm>(Collective::reduce, comm, bytes)) return std::nullopt;
    const Started s = start(comm);
    if (s.state == nullptr) return s.err == MPI_SUCCESS ? std::nullopt : std::optional<int>(s.err);
    Call call(comm, *s.state, s.epoch);
    const bool at_root = call.me() == root;
    int rc = contribute(call, at_root && sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, type, bytes);
    if (rc == MPI_SUCCESS && at_root) rc = combine(call, recvbuf, count, type, op, bytes);
    call.finish();
    return rc;
}

std::optional<int> allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm) {
    const size_t bytes = data_bytes(count, type);
    if (bytes == 0 || !picked<AllreduceAlgorithm>(Collective::allreduce, comm, bytes)) return std::nullopt;
    const Started s = start(comm);
    if (s.state == nullptr) return s.err == MPI_SUCCESS ? std::nullopt : std::optional<int>(s.err);
    Call call(comm, *s.state, s.epoch);
    int rc = contribute(call, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, type, bytes);
    if (rc == MPI_SUCCESS) rc = combine(call, recvbuf, count, type, op, bytes);
    call.finish();
    return rc;
}

}  // namespace ftmpi::coll::node
