// MPI_COMM_CREATE_ERRHANDLER with a Fortran subroutine
// HANDLER(COMM, ERROR_CODE). C's error handler gets no user data, so each
// Fortran handler takes one of a fixed set of C trampolines, each reading
// its own slot. A slot is never reused: the handler may stay attached to
// communicators after MPI_ERRHANDLER_FREE.
#include "support.hpp"

#include <array>
#include <atomic>
#include <utility>

namespace {

using FortranErrhandler = void (*)(MPI_Fint *, MPI_Fint *);

constexpr size_t kErrhandlerSlots = 64;
std::array<std::atomic<FortranErrhandler>, kErrhandlerSlots> fortran_errhandlers{};
std::atomic<size_t> errhandlers_used{0};

template <size_t Slot>
void call_fortran_errhandler(MPI_Comm *comm, int *error_code, ...) {
    MPI_Fint fcomm = MPI_Comm_c2f(*comm);
    MPI_Fint fcode = *error_code;
    fortran_errhandlers[Slot].load()(&fcomm, &fcode);
}

template <size_t... Slots>
constexpr std::array<MPI_Comm_errhandler_function *, sizeof...(Slots)>
make_errhandler_trampolines(std::index_sequence<Slots...>) {
    return {&call_fortran_errhandler<Slots>...};
}
constexpr auto errhandler_trampolines = make_errhandler_trampolines(std::make_index_sequence<kErrhandlerSlots>());

}  // namespace

extern "C" {

void mpi_comm_create_errhandler_(FortranErrhandler function, MPI_Fint *errhandler, MPI_Fint *ierror) noexcept {
    const size_t slot = errhandlers_used.fetch_add(1);
    if (slot >= kErrhandlerSlots) {
        *ierror = MPI_ERR_NO_MEM;  // every trampoline taken
        return;
    }
    fortran_errhandlers[slot].store(function);
    MPI_Errhandler c_errhandler = MPI_ERRHANDLER_NULL;
    const int rc = MPI_Comm_create_errhandler(errhandler_trampolines[slot], &c_errhandler);
    if (rc == MPI_SUCCESS) *errhandler = MPI_Errhandler_c2f(c_errhandler);
    *ierror = rc;
}
FTMPI_F_PMPI(mpi_comm_create_errhandler)

}  // extern "C"
