// The io part's internal steps, shared by its binding files: the data path of
// one access (access.cpp), two-phase collective buffering (two_phase.cpp),
// the shared file pointer (shared_pointer.cpp), aggregator choice
// (aggregators.cpp), and the worst-code agreement used by open.
#pragma once

#include "file.hpp"

#include <cstddef>
#include <vector>

namespace ftmpi::io {

enum class Dir { read, write };

// One process's part of a read or write: the user's buffer, its data as a
// packed stream in the file's representation, and where that stream goes
// in the file.
struct Access {
    Dir dir = Dir::read;
    void *buf = nullptr;
    int count = 0;
    MPI_Datatype type = MPI_BYTE;
    size_t bytes = 0;                    // count * size(type)
    unsigned char *stream = nullptr;     // the packed data: into buf, or staging
    std::vector<unsigned char> staging;  // used when buf is not one contiguous native block
    std::vector<Segment> segments;       // file ranges of the stream, in stream order
};

// Argument and access-mode checks of a data access (MPI_ERR_COUNT, _TYPE,
// _BUFFER, _READ_ONLY for a write on a read-only file, _ACCESS for a read on
// a write-only one).
int check_access(MPI_File fh, Dir dir, const void *buf, int count, MPI_Datatype type);
// Fills `a` for an access at etype position `pos` of the view: packs (and
// converts to external32) the data of a write, computes the segments.
int prepare(MPI_File fh, Access &a, Dir dir, MPI_Offset pos, void *buf, int count, MPI_Datatype type);
// pread/pwrite of a's segments; *done = bytes transferred (a read stops at
// the end of the file). Atomic mode locks the range for the duration.
int transfer(MPI_File fh, Access &a, size_t *done);
// After a read into the stream: back to native and into the user's buffer.
int finish_read(MPI_File fh, Access &a, size_t done);
// Bytes of a read's stream that lie before the end of the file.
size_t readable_bytes(MPI_File fh, const Access &a);

// The whole independent access at etype position pos.
int independent(MPI_File fh, Dir dir, MPI_Offset pos, void *buf, int count, MPI_Datatype type, size_t *done);
// The whole collective access (every member of the file calls it): two-phase
// when the hints allow, then the collective outcome (agree_outcome). A
// member with a bad argument still takes part, with no data, and every
// member then gets an error.
// `prior` is an error this member already has (it then takes part with no data).
int collective(MPI_File fh, Dir dir, MPI_Offset pos, void *buf, int count, MPI_Datatype type, size_t *done,
               int prior = MPI_SUCCESS);
// Where a data-access call starts (MPI-3.1 §13.4.1's positioning).
enum class Where { explicit_offset, individual, shared };
// One blocking data-access call as the bindings see it: the position from
// `where` (offset is used for explicit_offset only), independent or
// collective access, the pointer update, the status. Returns an MPI code
// (the binding raises it).
int access_call(MPI_File fh, Dir dir, Where where, bool coll, MPI_Offset offset, void *buf, int count,
                MPI_Datatype type, MPI_Status *status);
// read_ordered / write_ordered: collective, in rank order from the shared pointer.
int ordered_call(MPI_File fh, Dir dir, void *buf, int count, MPI_Datatype type, MPI_Status *status);

// Two-phase exchange and aggregated file access for prepared `a`
// (collective). *done: the bytes transferred; a read fills only the part of
// the stream before the end of the file, as pread would.
int two_phase(MPI_File fh, Access &a, size_t *done);

// Shared file pointer (etypes of the view), kept in a lock file.
int open_shared_pointer(MPI_File fh);                 // collective, at open: agrees on the lock file's name
void close_shared_pointer(MPI_File fh, bool remove);  // local; `remove` deletes the lock file
// Atomically reads the pointer and adds `advance` to it; *old = the value before.
int fetch_add_shared(MPI_File fh, MPI_Offset advance, MPI_Offset *old);
int store_shared(MPI_File fh, MPI_Offset value);
// Back to 0 (set_view; every member calls it, rank 0 empties the lock file
// if it exists: an empty lock file holds shared_start).
int restart_shared(MPI_File fh);

// The lowest rank on each host of fh->comm (collective, at open).
int find_host_leaders(MPI_File fh);

// Allreduce MAX of an MPI code over comm: the worst code, the same everywhere
// (error classes are positive). A failure of the allreduce itself is returned.
int agree_max(MPI_Comm comm, int code);

// The end of a collective call that is not a data access (set_size, sync,
// set_view, …): the same code at every member — agree_outcome, or a plain
// allreduce of the worst code when the consistency hint is off.
int settle(MPI_File fh, int local);

}  // namespace ftmpi::io
