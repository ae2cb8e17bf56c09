// Typed-buffer arithmetic shared by the algorithms: the address of block i of
// a buffer, and copies between two (buffer, count, type) descriptions, which
// the collectives need for their own contribution (root's block in Gather,
// sendbuf into recvbuf before a reduction, ...).
#pragma once

#include "mpi.h"

#include <cstddef>

namespace ftmpi::coll {

// Address of element `index` of a buffer of `type` (index * extent bytes on).
inline char *element(void *buf, MPI_Aint index, MPI_Datatype type);
inline const char *element(const void *buf, MPI_Aint index, MPI_Datatype type);

// Copies scount elements of stype at src into rcount elements of rtype at
// dst, element by element through the packed form (memcpy when both sides
// are the same contiguous type). MPI_ERR_TRUNCATE when the receive side is
// smaller than the data.
int copy(const void *src, int scount, MPI_Datatype stype, void *dst, int rcount, MPI_Datatype rtype);

// Bytes of data (not extent) in count elements of type.
size_t data_bytes(int count, MPI_Datatype type);

}  // namespace ftmpi::coll

#include "internal/datatype.hpp"

namespace ftmpi::coll {
inline char *element(void *buf, MPI_Aint index, MPI_Datatype type) {
    return static_cast<char *>(buf) + index * dt::extent(type);
}
inline const char *element(const void *buf, MPI_Aint index, MPI_Datatype type) {
    return static_cast<const char *>(buf) + index * dt::extent(type);
}
}  // namespace ftmpi::coll
