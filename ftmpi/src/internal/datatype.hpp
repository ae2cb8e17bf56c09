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

// external32 (MPI-3.1 §13.5.2) of a packed stream of `count` elements, in
// place: byte-reverses each basic element (the same operation both ways).
// MPI_ERR_CONVERSION (stream untouched) for long double, else MPI_SUCCESS.
// The file views of MPI-IO use it for the "external32" data representation.
int external32_swap(MPI_Datatype, size_t count, void *stream);

}  // namespace ftmpi::dt
