// The shared conversions of the Fortran bindings (support.hpp) and the
// COMMON blocks of mpif.h's special addresses.
#include "support.hpp"

#include <algorithm>
#include <cstring>

extern "C" {
// Defined here so that every Fortran program's COMMON block of that name
// and the bindings agree on one address (the program's copy and this one
// are merged by the dynamic linker, as for Open MPI's and MPICH's).
MPI_Fint mpi_fortran_bottom_ = 0;
MPI_Fint mpi_fortran_in_place_ = 0;
MPI_Fint mpi_fortran_status_ignore_[MPI_F_STATUS_SIZE] = {};
MPI_Fint mpi_fortran_statuses_ignore_[MPI_F_STATUS_SIZE] = {};
MPI_Fint mpi_fortran_errcodes_ignore_[1] = {};
// CHARACTER COMMON blocks: gfortran aligns the program's copy to 16 bytes.
alignas(16) char mpi_fortran_argv_null_[1] = {' '};
alignas(16) char mpi_fortran_argvs_null_[1] = {' '};
}

namespace ftmpi::fortran {

void *buffer(void *fortran_buffer) noexcept {
    if (fortran_buffer == &mpi_fortran_bottom_) return MPI_BOTTOM;
    if (fortran_buffer == &mpi_fortran_in_place_) return MPI_IN_PLACE;
    return fortran_buffer;
}

bool status_ignored(const MPI_Fint *status) noexcept {
    return status == nullptr || status == mpi_fortran_status_ignore_ || status == mpi_fortran_statuses_ignore_;
}

bool statuses_ignored(const MPI_Fint *statuses) noexcept {
    return statuses == nullptr || statuses == mpi_fortran_statuses_ignore_ || statuses == mpi_fortran_status_ignore_;
}

void statuses_to(const std::vector<MPI_Status> &c, MPI_Fint *f) noexcept {
    if (statuses_ignored(f)) return;
    for (size_t i = 0; i < c.size(); ++i) MPI_Status_c2f(&c[i], f + i * MPI_F_STATUS_SIZE);
}

std::vector<int> from_logicals(const MPI_Fint *f, int n) {
    std::vector<int> c(length(n));
    for (size_t i = 0; i < c.size(); ++i) c[i] = f[i] != 0;
    return c;
}

void to_logicals(const std::vector<int> &c, MPI_Fint *f) noexcept {
    for (size_t i = 0; i < c.size(); ++i) f[i] = to_logical(c[i]);
}

std::string from_fortran(const char *f, size_t len) {
    while (len > 0 && f[len - 1] == ' ') --len;
    size_t start = 0;
    while (start < len && f[start] == ' ') ++start;
    return std::string(f + start, len - start);
}

void to_fortran(const char *s, char *f, size_t len) noexcept {
    const size_t n = std::min(std::strlen(s), len);
    std::memcpy(f, s, n);
    std::memset(f + n, ' ', len - n);
}

std::vector<MPI_Datatype> types_from(const MPI_Fint *f, int n) {
    std::vector<MPI_Datatype> c(length(n));
    for (size_t i = 0; i < c.size(); ++i) c[i] = MPI_Type_f2c(f[i]);
    return c;
}

std::vector<MPI_Request> requests_from(const MPI_Fint *f, int n) {
    std::vector<MPI_Request> c(length(n));
    for (size_t i = 0; i < c.size(); ++i) c[i] = MPI_Request_f2c(f[i]);
    return c;
}

void requests_to(const std::vector<MPI_Request> &c, MPI_Fint *f) noexcept {
    for (size_t i = 0; i < c.size(); ++i) f[i] = MPI_Request_c2f(c[i]);
}

void index_to_fortran(MPI_Fint *idx, int n) noexcept {
    for (int i = 0; i < n; ++i)
        if (idx[i] >= 0) ++idx[i];
}

int comm_size_of(MPI_Comm comm) noexcept {
    int inter = 0, n = 0;
    MPI_Comm_test_inter(comm, &inter);
    if (inter)
        MPI_Comm_remote_size(comm, &n);
    else
        MPI_Comm_size(comm, &n);
    return n;
}

int cartdim_of(MPI_Comm comm) noexcept {
    int n = 0;
    MPI_Cartdim_get(comm, &n);
    return n;
}

}  // namespace ftmpi::fortran
