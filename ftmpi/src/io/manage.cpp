// File management (MPI-3.1 §13.2.3–13.2.7, §13.6.1): size, preallocation,
// group, access mode, sync and atomicity.
#include "internals.hpp"

#include "../internal/pmpi.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ftmpi::io {
namespace {

// Rank 0 changes the file, everybody learns how it went.
template <typename Change>
int by_rank0(MPI_File fh, Change &&change) {
    int local = MPI_SUCCESS;
    if (revoked(fh))
        local = MPIX_ERR_REVOKED;
    else if (fh->amode & MPI_MODE_RDONLY)
        local = MPI_ERR_READ_ONLY;
    else if (fh->amode & MPI_MODE_SEQUENTIAL)
        local = MPI_ERR_UNSUPPORTED_OPERATION;
    else if (fh->rank == 0)
        local = change();
    return settle(fh, local);
}

}  // namespace
}  // namespace ftmpi::io

using namespace ftmpi;

extern "C" int MPI_File_set_size(MPI_File fh, MPI_Offset size) noexcept {
    constexpr const char *fn = "MPI_File_set_size";
    if (!io::valid(fh)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);
    if (size < 0) return io::raise(fh, MPI_ERR_ARG, fn);
    return io::guarded(fh, fn, [&] {
        return io::by_rank0(fh, [&] {
            return ::ftruncate(fh->fd, static_cast<off_t>(size)) == 0 ? MPI_SUCCESS : io::error_of_errno(errno);
        });
    });
}
FTMPI_PMPI(File_set_size)

extern "C" int MPI_File_preallocate(MPI_File fh, MPI_Offset size) noexcept {
    constexpr const char *fn = "MPI_File_preallocate";
    if (!io::valid(fh)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);
    if (size < 0) return io::raise(fh, MPI_ERR_ARG, fn);
    return io::guarded(fh, fn, [&] {
        return io::by_rank0(fh, [&] {
            struct stat st {};
            if (::fstat(fh->fd, &st) != 0) return io::error_of_errno(errno);
            if (st.st_size >= size) return MPI_SUCCESS;  // never shrinks (§13.2.5)
            const int err = ::posix_fallocate(fh->fd, 0, static_cast<off_t>(size));
            return err == 0 ? MPI_SUCCESS : io::error_of_errno(err);
        });
    });
}
FTMPI_PMPI(File_preallocate)

extern "C" int MPI_File_get_size(MPI_File fh, MPI_Offset *size) noexcept {
    constexpr const char *fn = "MPI_File_get_size";
    if (!io::valid(fh)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);
    if (size == nullptr) return io::raise(fh, MPI_ERR_ARG, fn);
    struct stat st {};
    if (::fstat(fh->fd, &st) != 0) return io::raise(fh, io::error_of_errno(errno), fn);
    *size = st.st_size;
    return MPI_SUCCESS;
}
FTMPI_PMPI(File_get_size)

extern "C" int MPI_File_get_group(MPI_File fh, MPI_Group *group) noexcept {
    constexpr const char *fn = "MPI_File_get_group";
    if (!io::valid(fh)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);
    if (group == nullptr) return io::raise(fh, MPI_ERR_ARG, fn);
    return io::raise(fh, PMPI_Comm_group(fh->comm, group), fn);
}
FTMPI_PMPI(File_get_group)

extern "C" int MPI_File_get_amode(MPI_File fh, int *amode) noexcept {
    constexpr const char *fn = "MPI_File_get_amode";
    if (!io::valid(fh)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);
    if (amode == nullptr) return io::raise(fh, MPI_ERR_ARG, fn);
    *amode = fh->amode;
    return MPI_SUCCESS;
}
FTMPI_PMPI(File_get_amode)

extern "C" int MPI_File_sync(MPI_File fh) noexcept {
    constexpr const char *fn = "MPI_File_sync";
    if (!io::valid(fh)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);
    return io::guarded(fh, fn, [&] {
        int local = io::revoked(fh) ? MPIX_ERR_REVOKED : MPI_SUCCESS;
        if (local == MPI_SUCCESS && (fh->amode & MPI_MODE_RDONLY) == 0 && ::fsync(fh->fd) != 0)
            local = io::error_of_errno(errno);
        return io::settle(fh, local);
    });
}
FTMPI_PMPI(File_sync)

extern "C" int MPI_File_set_atomicity(MPI_File fh, int flag) noexcept {
    constexpr const char *fn = "MPI_File_set_atomicity";
    if (int err = io::check_file(fh)) return io::raise(fh, err, fn);
    std::lock_guard lk(fh->mutex);
    fh->atomic = flag != 0;
    return MPI_SUCCESS;
}
FTMPI_PMPI(File_set_atomicity)

extern "C" int MPI_File_get_atomicity(MPI_File fh, int *flag) noexcept {
    constexpr const char *fn = "MPI_File_get_atomicity";
    if (!io::valid(fh)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);
    if (flag == nullptr) return io::raise(fh, MPI_ERR_ARG, fn);
    std::lock_guard lk(fh->mutex);
    *flag = fh->atomic ? 1 : 0;
    return MPI_SUCCESS;
}
FTMPI_PMPI(File_get_atomicity)
