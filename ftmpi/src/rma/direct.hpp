// Direct access to the window memory of members on this host.
//
// MPI_Win_allocate places each member's memory in a POSIX shared-memory
// segment of its own (a header line with a cross-process mutex, then the
// memory). The creation's allgather carries every member's segment name;
// each member maps the segments it can open (those of its host), and the
// names are removed once creation ends, so nothing is left in /dev/shm. An
// origin then applies an operation to a mapped target itself, at once,
// instead of sending it to the target's handler and waiting for the reply:
// a put is a copy, an accumulate runs under the target segment's mutex
// (which the target's handler also takes for the accumulates it applies
// for members reached by messages). Targets it could not map (another host)
// are reached by messages as before.
//
// Completion: a direct operation is complete at the target when it returns.
// Every completion point (complete_operations) adds a full fence. A target
// that has failed since (its memory stays mapped here, so the data went
// nowhere) is reported by the same checks as for a target reached by
// messages: flush looks at the target's failure, unlock and lock_all's
// unlock send it a request, fence's barrier and PSCW's complete message
// need it.
#pragma once

#include "protocol.hpp"
#include "window.hpp"

#include <pthread.h>

#include <vector>

namespace ftmpi::rma {

// Makes this member's memory (win->bytes, zeroed) a segment others can map:
// win->own_segment and win->base. MPI_ERR_NO_MEM when the host cannot hold
// it; the caller then uses private memory.
int allocate_segment(MPI_Win win);
// After the exposure allgather: maps every member's segment this process can
// open and has not mapped yet, and unmaps those whose member's segment
// changed (a member replaced by REBUILD).
void map_peers(MPI_Win win, const std::vector<SegmentName> &names);
// Removes this member's segment name once every member has had the chance
// to map it (after creation's last collective). Mappings stay.
void unlink_own_segment(MPI_Win win);
// Unmaps every segment this process mapped, its own included.
void unmap_segments(MPI_Win win);

// This member's segment mutex, or null for memory that is not a segment.
pthread_mutex_t *own_segment_lock(MPI_Win win);
// Whether operations to `target` are applied directly.
bool reaches_directly(MPI_Win win, int target);
// Where `target`'s window memory is mapped in this process (its own
// segment included), or null when it is reached by messages.
char *mapped_memory(MPI_Win win, int target);

// Applies an operation (as it would travel: header, target blocks, packed
// origin data) to target's memory now; fetched data is unpacked into
// (result, result_count, result_type). Returns the operation's code.
int direct_operation(MPI_Win win, int target, const Header &h, const std::vector<Block> &blocks, const char *data,
                     void *result, int result_count, MPI_Datatype result_type);
// The outcome of an operation applied in this process (a reply as the
// target handler would send it: the code, then fetched data): its code,
// and the fetched data unpacked into (result, result_count, result_type).
int take_local_reply(const std::vector<char> &reply, void *result, int result_count, MPI_Datatype result_type);

}  // namespace ftmpi::rma
