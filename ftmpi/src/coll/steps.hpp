// Local steps the algorithms schedule between rounds: a reduction
// (inout = in op inout, MPI's argument order) and a typed copy.
#pragma once

#include "buffers.hpp"
#include "internal/op.hpp"
#include "schedule.hpp"

namespace ftmpi::coll {

inline void reduce_step(Schedule &s, MPI_Op op, const void *in, void *inout, int count, MPI_Datatype type) {
    s.then_reduce(op, in, inout, count, type);
}

inline void copy_step(Schedule &s, const void *src, int scount, MPI_Datatype stype, void *dst, int rcount,
                      MPI_Datatype rtype) {
    if (src == dst && scount == rcount && stype == rtype) return;
    s.then_copy(src, scount, stype, dst, rcount, rtype);
}

// Packs count elements of type at src into `bytes` bytes at out, and back.
inline void pack_step(Schedule &s, const void *src, int count, MPI_Datatype type, char *out) {
    s.then([=] {
        const size_t bytes = data_bytes(count, type);
        return dt::pack(src, count, type, 0, out, bytes) == bytes ? MPI_SUCCESS : MPI_ERR_INTERN;
    });
}
inline void unpack_step(Schedule &s, const char *in, void *dst, int count, MPI_Datatype type) {
    s.then([=] {
        const size_t bytes = data_bytes(count, type);
        return dt::unpack(in, bytes, 0, dst, count, type) == bytes ? MPI_SUCCESS : MPI_ERR_INTERN;
    });
}

// Remote group size of an intercommunicator.
inline int remote_size(MPI_Comm comm);

}  // namespace ftmpi::coll

#include "internal/comm.hpp"

inline int ftmpi::coll::remote_size(MPI_Comm comm) {
    return comm->remote ? static_cast<int>(comm->remote->world.size()) : comm->size;
}
