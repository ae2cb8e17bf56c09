// The messages of a window, on its private communicator. An operation is
// one message from origin to target (tag_request): a Header, the target's
// blocks (where the target datatype's data lies, as offsets from the
// target address: the origin flattens the datatype so the target never
// needs it), then the origin's data packed. The target answers every
// request with one message on the request's reply tag: a 64-bit MPI code,
// then for fetching operations the data (packed in the target datatype's
// order, so it unpacks into the origin's or result buffer).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace ftmpi::rma {

enum class Kind : uint32_t { put, get, accumulate, get_accumulate, compare_and_swap, lock, unlock };

struct Header {
    Kind kind = Kind::put;
    int32_t reply_tag = 0;
    // Where the target datatype starts: disp * disp_unit from the window's
    // base, or an absolute address on a dynamic window.
    int64_t offset = 0;
    uint32_t blocks = 0;  // Block entries after the header
    int32_t op = -1;      // predefined_op index (accumulates)
    int32_t basic = -1;   // predefined_type index: the elements accumulated
    int32_t lock_type = 0;
    uint64_t data_bytes = 0;   // origin data after the blocks (CAS: value, then compare value)
    uint64_t fetch_bytes = 0;  // data the reply carries
};

struct Block {
    int64_t offset = 0;  // from the target address
    uint64_t length = 0;
};

constexpr size_t reply_code_bytes = 8;

// Predefined ops and basic datatypes travel as indexes into these tables
// (handles are addresses and differ between processes). -1: not in the table.
int predefined_op_index(MPI_Op op);
MPI_Op predefined_op(int index);
int predefined_type_index(MPI_Datatype type);
MPI_Datatype predefined_type(int index);

// The one predefined type all of `type`'s data is made of, or
// MPI_DATATYPE_NULL when it mixes several (accumulates need one).
MPI_Datatype basic_of(MPI_Datatype type);

// `count` elements of `type` as blocks relative to the target address,
// into `blocks` (emptied first; its capacity is reused).
void blocks_of(int count, MPI_Datatype type, std::vector<Block> &blocks);

}  // namespace ftmpi::rma
