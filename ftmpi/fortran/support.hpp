// The conversions every Fortran binding shares (generated/bind_*.cpp and
// the hand-written ones in special.cpp): special addresses, CHARACTER and
// LOGICAL arguments, arrays of handles and statuses.
//
// Fortran passes everything by reference; handles are MPI_Fint indexes of
// the table in ftmpi/src/runtime/fortran_handles.cpp; a LOGICAL is a
// default INTEGER-sized word, .TRUE. = 1 with gfortran; a CHARACTER
// argument comes with a hidden size_t length after all other arguments and
// is blank-padded, not NUL-terminated.
#pragma once

#include <mpi-ext.h>
#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

// The COMMON blocks of mpif.h whose addresses stand for MPI_BOTTOM,
// MPI_IN_PLACE, MPI_STATUS(ES)_IGNORE and MPI_ERRCODES_IGNORE.
extern "C" {
extern MPI_Fint mpi_fortran_bottom_;
extern MPI_Fint mpi_fortran_in_place_;
extern MPI_Fint mpi_fortran_status_ignore_[MPI_F_STATUS_SIZE];
extern MPI_Fint mpi_fortran_statuses_ignore_[MPI_F_STATUS_SIZE];
extern MPI_Fint mpi_fortran_errcodes_ignore_[1];
extern char mpi_fortran_argv_null_[1];
extern char mpi_fortran_argvs_null_[1];
}

// pmpi_<name>_ as a weak alias of mpi_<name>_, as FTMPI_PMPI does in C.
#define FTMPI_F_PMPI(sym) extern "C" __typeof__(sym##_) p##sym##_ __attribute__((weak, alias(#sym "_")));

namespace ftmpi::fortran {

// A choice buffer: MPI_BOTTOM and MPI_IN_PLACE arrive as their COMMON blocks.
void *buffer(void *fortran_buffer) noexcept;

bool status_ignored(const MPI_Fint *status) noexcept;
bool statuses_ignored(const MPI_Fint *statuses) noexcept;
void statuses_to(const std::vector<MPI_Status> &c, MPI_Fint *f) noexcept;

inline MPI_Fint to_logical(int c) noexcept {
    return c ? 1 : 0;
}
// A Fortran array length (a negative count becomes an empty array; the C
// call then reports the bad count).
inline size_t length(int n) noexcept {
    return n > 0 ? static_cast<size_t>(n) : 0;
}
std::vector<int> from_logicals(const MPI_Fint *f, int n);
void to_logicals(const std::vector<int> &c, MPI_Fint *f) noexcept;

// A CHARACTER argument without its trailing blanks.
std::string from_fortran(const char *f, size_t len);
// Copies s into a CHARACTER argument, blank-padded (cut at len).
void to_fortran(const char *s, char *f, size_t len) noexcept;

std::vector<MPI_Datatype> types_from(const MPI_Fint *f, int n);
std::vector<MPI_Request> requests_from(const MPI_Fint *f, int n);
void requests_to(const std::vector<MPI_Request> &c, MPI_Fint *f) noexcept;

// Requests a wait or test call completed: before[i] are the Fortran
// handles passed in, after[i] the C handles after the call. Writes the
// output handles of MPI_COMM_IDUP / MPIX_COMM_ISHRINK (pending.cpp).
void finish_pending(const MPI_Fint *before, const MPI_Request *after, size_t n) noexcept;

// C's 0-based indexes (MPI_Waitany, _Waitsome) to Fortran's 1-based ones;
// MPI_UNDEFINED stays.
void index_to_fortran(MPI_Fint *idx, int n) noexcept;

// Array lengths that the call does not name: the size of a communicator
// (remote size of an intercommunicator), a Cartesian communicator's dims.
int comm_size_of(MPI_Comm comm) noexcept;
int cartdim_of(MPI_Comm comm) noexcept;

}  // namespace ftmpi::fortran
