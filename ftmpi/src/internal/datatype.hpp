// The datatype engine as the rest of libftmpi sees it. A committed type is
// kept in FT-MPI's compacted form (a flat list of maximal contiguous runs with
// a repeat/stride form, see src/datatype/layout.hpp), so the transport can
// copy or stream any non-contiguous message without walking the constructor
// tree. Core uses pack/unpack/for_each_block and elements; coll uses size and
// extent and op.hpp.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <functional>

namespace ftmpi::dt {

bool valid(MPI_Datatype);   // non-null, committed or predefined
size_t size(MPI_Datatype);  // bytes of data in one element
MPI_Aint extent(MPI_Datatype);
MPI_Aint lb(MPI_Datatype);
MPI_Aint true_lb(MPI_Datatype);
MPI_Aint true_extent(MPI_Datatype);
bool contiguous(MPI_Datatype);  // count elements are one block of count*size bytes at buf+true_lb

// Streaming pack/unpack of `count` elements (any number: counts, sizes and
// offsets are 64-bit throughout), starting at byte `offset` of
// the packed stream, at most `len` bytes; returns bytes done. Lets the
// transport send a large non-contiguous message in segments without a full copy.
size_t pack(const void *buf, MPI_Count count, MPI_Datatype, size_t offset, void *out, size_t len);
size_t unpack(const void *in, size_t len, size_t offset, void *buf, MPI_Count count, MPI_Datatype);

// Visit the contiguous blocks (pointer, length) of `count` elements in order
// (for writev/readv without copying).
void for_each_block(const void *buf, MPI_Count count, MPI_Datatype, const std::function<void(const void *, size_t)> &);

MPI_Count elements(MPI_Datatype, size_t bytes);  // MPI_Get_elements: basic elements in `bytes`, or MPI_UNDEFINED
// MPI_Status_set_elements: the bytes that hold the first `elements` basic
// elements of a stream of this type.
size_t bytes_of_elements(MPI_Datatype, MPI_Count elements);

// Additions beyond the contract page.
//
// A pending operation that holds a user's type calls retain() when it starts
// and release() when it completes, so MPI_Type_free during the operation does
// not pull the layout from under it (MPI-3.1 §4.1.9). No-ops on predefined types.
void retain(MPI_Datatype);
void release(MPI_Datatype);

// The external32 data representation (MPI-3.1 §13.5.2; src/datatype/
// external32.hpp): big-endian, fixed sizes (long 4 bytes, long double IEEE
// binary128). MPI_Pack_external and friends and MPI-IO's "external32" file
// views use these, so both agree.
size_t external32_size(MPI_Datatype);     // bytes of one element in external32
bool external32_same_size(MPI_Datatype);  // ... equal to the native size
// `count` elements: native packed stream (as pack makes it) -> external32
// stream, and back. The buffers do not overlap.
void to_external32(MPI_Datatype, size_t count, const void *native, void *ext);
void from_external32(MPI_Datatype, size_t count, const void *ext, void *native);

}  // namespace ftmpi::dt
