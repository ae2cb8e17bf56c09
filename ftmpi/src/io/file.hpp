// MPI-IO over POSIX files: the object behind an MPI_File handle and what the
// io part's files share. A file is a POSIX descriptor (pread/pwrite at
// explicit offsets, so no seek state is shared between threads), a private
// duplicate of the communicator it was opened on (its collectives and
// MPIX_File_revoke run there, never on the user's communicator), a view
// (view.hpp), the individual file pointer, and the shared file pointer kept
// in a small lock file (shared_pointer.cpp). README.md has the design.
#pragma once

#include "internal/errors.hpp"
#include "scratch.hpp"
#include "view.hpp"

#include <mpi-ext.h>
#include <mpi.h>

#include <mutex>
#include <string>
#include <vector>

namespace ftmpi::io {

// Hints the implementation uses (MPI_File_open / set_info / set_view info).
// romio_cb_write / romio_cb_read: whether collective accesses go through
// the aggregators (two_phase.cpp). automatic: only when the members'
// accesses interleave in the file; otherwise each member accesses its own
// range, as the aggregators would gain nothing.
enum class CollectiveBuffering { enable, disable, automatic };

struct Hints {
    CollectiveBuffering cb_write = CollectiveBuffering::automatic;
    CollectiveBuffering cb_read = CollectiveBuffering::automatic;
    int cb_nodes = 0;                   // aggregators; 0 = one per host
    size_t cb_buffer_size = 16u << 20;  // bytes an aggregator writes or reads at once
    bool consistent = true;             // ftmpi_consistent_collectives: agree after each collective
};

// Reads the hints this part knows from `info` (others are ignored, as the
// standard allows) over `hints`. MPI_ERR_INFO_VALUE for a known key with a
// value that is not understood.
int apply_hints(MPI_Info info, Hints &hints);

}  // namespace ftmpi::io

struct ftmpi_file_s {
    MPI_Comm comm = MPI_COMM_NULL;  // private dup of the user's communicator, MPI_ERRORS_RETURN
    int rank = 0, size = 1;         // in comm
    int fd = -1;
    std::string path;
    int amode = 0;
    MPI_Errhandler errhandler = nullptr;
    ftmpi::io::Hints hints;
    std::vector<int> host_leaders;  // lowest rank of comm on each host (default aggregators)
    ftmpi::io::View view;
    bool atomic = false;
    std::mutex mutex;             // the individual file pointer and split-collective state
    MPI_Offset pointer = 0;       // individual file pointer, in etypes of the view
    std::string shared_path;      // lock file holding the shared file pointer
    int shared_fd = -1;           // open once the pointer is first used
    MPI_Offset shared_start = 0;  // the pointer's value before anybody moved it
    // An agreement on comm was left pending by a revoke (outcome.cpp): comm
    // may still be used by it, so close leaves comm allocated.
    bool abandoned_agreement = false;
    // Split collectives: the _begin call does the work; _end hands over its outcome.
    bool split_active = false;
    int split_code = MPI_SUCCESS;
    MPI_Status split_status{};
    ftmpi::io::ScratchPool scratch;  // the two-phase exchange's buffers, kept between calls
};

namespace ftmpi::io {

// Live-handle registry: a freed or made-up handle is refused with MPI_ERR_FILE.
void register_file(MPI_File);
void unregister_file(MPI_File);
bool valid(MPI_File);

// The one place where an error code meets the file's error handler (the
// default file handler when fh is MPI_FILE_NULL or not a live file).
// Returns code; MPI_SUCCESS returns at once.
int raise(MPI_File fh, int code, const char *function);
// The handler new files get (MPI_File_set_errhandler on MPI_FILE_NULL).
MPI_Errhandler default_errhandler();

// The ranks of fh->comm that do the two-phase file access: cb_nodes ranks
// spread evenly over the communicator, or one per host without that hint.
std::vector<int> aggregators(MPI_File fh);

// MPI error class for a POSIX errno (ENOENT -> MPI_ERR_NO_SUCH_FILE, …).
int error_of_errno(int err);

// A binding's body, run without letting an exception out, its failing code
// handed to the file's error handler once.
template <typename Body>
int guarded(MPI_File fh, const char *function, Body &&body) noexcept {
    return raise(fh, comm::code_of(body), function);
}

// What every operation on an open file checks first: MPI_ERR_FILE for a bad
// handle, MPIX_ERR_REVOKED once the file is revoked.
int check_file(MPI_File fh);
bool revoked(MPI_File fh);

// Makes a status say `bytes` were transferred (MPI_Get_count divides).
void set_status(MPI_Status *status, size_t bytes);

// Collective outcome (fault tolerance): every member calls this with its
// local code at the end of a collective file operation; all of them return
// the same verdict — MPI_SUCCESS only if every live member succeeded and
// none failed. Uses MPIX_Comm_agree on the file's communicator (skipped when
// the ftmpi_consistent_collectives hint is false).
int agree_outcome(MPI_File fh, int local_code);

}  // namespace ftmpi::io
