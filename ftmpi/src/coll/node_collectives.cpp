// Barrier, Bcast, Reduce and Allreduce through a communicator's shared
// segment (node.hpp). Data crosses the segment in its packed form, so
// members may describe it with different datatypes of one signature, as
// with messages.
//
// Every algorithm is flat: a member publishes before it waits for anyone
// (except for its slot's previous data to be read), so a live member never
// waits for another live member that waits for it.
//   Barrier:   arrive, then wait until every member arrived.
//   Bcast:     the root copies its data in and publishes; the others wait
//              for it and copy it out.
//   Reduce:    every member copies its data in and publishes; the root
//              combines them in rank order.
//   Allreduce: the same, every member combining all of them, in the same
//              order, so every member gets the same bits.
//   Gather:    every member but the root copies its block in; the root
//              copies them out.
//   Allgather: every member copies its block in, then all of them out.
//   Scatter:   the root copies every member's block in; each copies its own out.
//   Alltoall:  every member copies its p blocks in, then its own block of
//              each member's out.
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
    const size_t most = capacity();  // a settings lookup: once per call
    return bytes <= most && most > 0 && shaped_for(comm) &&
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

// Runs body(call) as comm's next collective through its segment, or
// returns nullopt when the segment does not take the call (comm does not
// use one, a member is known failed, comm is revoked). Every member
// finishes the call, also after an error, so nobody waits for its slot.
template <class Body>
std::optional<int> through_segment(MPI_Comm comm, size_t slot_bytes, Body &&body) {
    uint64_t epoch = 0;
    int err = MPI_SUCCESS;
    State *state = enter(comm, &epoch, &err);
    if (state == nullptr) return err == MPI_SUCCESS ? std::nullopt : std::optional<int>(err);
    Call call(comm, *state, epoch, slot_bytes);
    const int rc = body(call);
    call.finish();
    return rc;
}

// recvbuf = d[0] op (d[1] op (... op d[p-1])) over every member's packed
// data: the order MPI gives for any op, the same on every member.
int combine(Call &call, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, size_t bytes) {
    const int last = call.members() - 1;
    if (int e = call.await_data(last); e != MPI_SUCCESS) return e;
    if (int e = unpack(call.data(last), bytes, recvbuf, count, type); e != MPI_SUCCESS) return e;
    Operand operand(count, type);
    for (int m = last - 1; m >= 0; --m) {
        if (int e = call.await_data(m); e != MPI_SUCCESS) return e;
        int err = MPI_SUCCESS;
        const void *in = operand.from(call.data(m), bytes, &err);
        if (err == MPI_SUCCESS) err = op::apply(op, in, recvbuf, count, type);
        if (err != MPI_SUCCESS) return err;
    }
    return MPI_SUCCESS;
}

// Copies this member's contribution in and publishes it.
int contribute(Call &call, const void *buf, int count, MPI_Datatype type, size_t bytes) {
    if (int e = call.await_slot_free(); e != MPI_SUCCESS) return e;
    if (int e = pack(buf, count, type, call.data(call.me()), bytes); e != MPI_SUCCESS) return e;
    call.publish();
    return MPI_SUCCESS;
}

// The blocks of p members, each of `block` bytes, fit one slot.
bool blocks_fit(MPI_Comm comm, size_t block) {
    return block <= capacity() / static_cast<size_t>(comm->size);
}

// Packs p blocks of (count, type), one after the other in buf, into dst.
int pack_blocks(const void *buf, int count, MPI_Datatype type, int p, char *dst, size_t block) {
    for (int m = 0; m < p; ++m)
        if (int e = pack(element(buf, MPI_Aint{m} * count, type), count, type, dst + m * block, block);
            e != MPI_SUCCESS)
            return e;
    return MPI_SUCCESS;
}

// Copies every member's block but `skip`'s out of the slots, member m's to
// block m of recvbuf.
int collect(Call &call, void *recvbuf, int rcount, MPI_Datatype rtype, size_t block, int skip) {
    for (int m = 0; m < call.members(); ++m) {
        if (m == skip) continue;
        if (int e = call.await_data(m); e != MPI_SUCCESS) return e;
        if (int e = unpack(call.data(m), block, element(recvbuf, MPI_Aint{m} * rcount, rtype), rcount, rtype);
            e != MPI_SUCCESS)
            return e;
    }
    return MPI_SUCCESS;
}

}  // namespace

std::optional<int> barrier(MPI_Comm comm) {
    if (!picked<BarrierAlgorithm>(Collective::barrier, comm, 0)) return std::nullopt;
    return through_segment(comm, 0, [&](Call &call) {
        call.arrive();
        for (int m = 0; m < call.members(); ++m)
            if (m != call.me())
                if (int e = call.await_arrived(m); e != MPI_SUCCESS) return e;
        return MPI_SUCCESS;
    });
}

std::optional<int> bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    const size_t bytes = data_bytes(count, type);
    if (bytes == 0 || !picked<BcastAlgorithm>(Collective::bcast, comm, bytes)) return std::nullopt;
    return through_segment(comm, bytes, [&](Call &call) {
        if (call.me() == root) return contribute(call, buf, count, type, bytes);
        if (int e = call.await_data(root); e != MPI_SUCCESS) return e;
        return unpack(call.data(root), bytes, buf, count, type);
    });
}

std::optional<int> reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                          MPI_Comm comm) {
    const size_t bytes = data_bytes(count, type);
    if (bytes == 0 || !picked<ReduceAlgorithm>(Collective::reduce, comm, bytes)) return std::nullopt;
    return through_segment(comm, bytes, [&](Call &call) {
        const bool at_root = call.me() == root;
        int rc = contribute(call, at_root && sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, type, bytes);
        if (rc == MPI_SUCCESS && at_root) rc = combine(call, recvbuf, count, type, op, bytes);
        return rc;
    });
}

std::optional<int> allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm) {
    const size_t bytes = data_bytes(count, type);
    if (bytes == 0 || !picked<AllreduceAlgorithm>(Collective::allreduce, comm, bytes)) return std::nullopt;
    return through_segment(comm, bytes, [&](Call &call) {
        int rc = contribute(call, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, type, bytes);
        if (rc == MPI_SUCCESS) rc = combine(call, recvbuf, count, type, op, bytes);
        return rc;
    });
}

std::optional<int> gather(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                          MPI_Datatype rtype, int root, MPI_Comm comm) {
    const bool at_root = comm->rank == root;
    const size_t block = at_root ? data_bytes(rcount, rtype) : data_bytes(scount, stype);
    if (block == 0 || !picked<RootedAlgorithm>(Collective::gather, comm, block)) return std::nullopt;
    return through_segment(comm, block, [&](Call &call) {
        if (!at_root) return contribute(call, sendbuf, scount, stype, block);
        if (sendbuf != MPI_IN_PLACE)
            if (int e = copy(sendbuf, scount, stype, element(recvbuf, MPI_Aint{root} * rcount, rtype), rcount, rtype);
                e != MPI_SUCCESS)
                return e;
        return collect(call, recvbuf, rcount, rtype, block, root);
    });
}

std::optional<int> allgather(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                             MPI_Datatype rtype, MPI_Comm comm) {
    const size_t block = data_bytes(rcount, rtype);
    if (block == 0 || !picked<AllgatherAlgorithm>(Collective::allgather, comm, block)) return std::nullopt;
    return through_segment(comm, block, [&](Call &call) {
        const bool in_place = sendbuf == MPI_IN_PLACE;
        const int rc = in_place
            ? contribute(call, element(recvbuf, MPI_Aint{call.me()} * rcount, rtype), rcount, rtype, block)
            : contribute(call, sendbuf, scount, stype, block);
        return rc != MPI_SUCCESS ? rc : collect(call, recvbuf, rcount, rtype, block, in_place ? call.me() : -1);
    });
}

std::optional<int> scatter(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                           MPI_Datatype rtype, int root, MPI_Comm comm) {
    const bool at_root = comm->rank == root;
    const size_t block = at_root ? data_bytes(scount, stype) : data_bytes(rcount, rtype);
    if (block == 0 || !blocks_fit(comm, block) || !picked<RootedAlgorithm>(Collective::scatter, comm, block))
        return std::nullopt;
    return through_segment(comm, block * static_cast<size_t>(comm->size), [&](Call &call) {
        if (!at_root) {
            if (int e = call.await_data(root); e != MPI_SUCCESS) return e;
            return unpack(call.data(root) + static_cast<size_t>(call.me()) * block, block, recvbuf, rcount, rtype);
        }
        if (int e = call.await_slot_free(); e != MPI_SUCCESS) return e;
        if (int e = pack_blocks(sendbuf, scount, stype, call.members(), call.data(root), block); e != MPI_SUCCESS)
            return e;
        call.publish();
        if (recvbuf == MPI_IN_PLACE) return MPI_SUCCESS;
        return copy(element(sendbuf, MPI_Aint{root} * scount, stype), scount, stype, recvbuf, rcount, rtype);
    });
}

std::optional<int> alltoall(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                            MPI_Datatype rtype, MPI_Comm comm) {
    const size_t block = data_bytes(rcount, rtype);
    if (block == 0 || !blocks_fit(comm, block) || !picked<AlltoallAlgorithm>(Collective::alltoall, comm, block))
        return std::nullopt;
    return through_segment(comm, block * static_cast<size_t>(comm->size), [&](Call &call) {
        if (int e = call.await_slot_free(); e != MPI_SUCCESS) return e;
        char *slot = call.data(call.me());
        const int rc = sendbuf == MPI_IN_PLACE ? pack_blocks(recvbuf, rcount, rtype, call.members(), slot, block)
                                               : pack_blocks(sendbuf, scount, stype, call.members(), slot, block);
        if (rc != MPI_SUCCESS) return rc;
        call.publish();
        const size_t mine = static_cast<size_t>(call.me()) * block;
        for (int m = 0; m < call.members(); ++m) {
            if (int e = call.await_data(m); e != MPI_SUCCESS) return e;
            if (int e =
                    unpack(call.data(m) + mine, block, element(recvbuf, MPI_Aint{m} * rcount, rtype), rcount, rtype);
                e != MPI_SUCCESS)
                return e;
        }
        return MPI_SUCCESS;
    });
}

}  // namespace ftmpi::coll::node
