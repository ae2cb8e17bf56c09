// MPI_File_seek_shared and MPI_File_get_position_shared (MPI-3.1 §13.4.4);
// the shared-pointer data calls are in data_api.cpp.
#include "internals.hpp"

#include "../internal/pmpi.hpp"

#include <sys/stat.h>

using namespace ftmpi;

extern "C" int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence) noexcept {
    constexpr const char *fn = "MPI_File_seek_shared";
    if (!io::valid(fh)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);
    return io::guarded(fh, fn, [&] {
        // Collective with the same arguments everywhere: rank 0 moves the
        // pointer, the collective end keeps the others from using it before.
        int local = io::revoked(fh) ? MPIX_ERR_REVOKED : MPI_SUCCESS;
        if (local == MPI_SUCCESS && whence != MPI_SEEK_SET && whence != MPI_SEEK_CUR && whence != MPI_SEEK_END)
            local = MPI_ERR_ARG;
        // Every member's earlier shared-pointer accesses are done before
        // rank 0 moves the pointer (an allreduce is the barrier here).
        local = io::agree_max(fh->comm, local);
        if (local == MPI_SUCCESS && fh->rank == 0) {
            MPI_Offset base = 0;
            if (whence == MPI_SEEK_CUR) {
                local = io::fetch_add_shared(fh, 0, &base);
            } else if (whence == MPI_SEEK_END) {
                struct stat st {};
                if (::fstat(fh->fd, &st) != 0) local = io::error_of_errno(errno);
                const auto es = static_cast<MPI_Offset>(fh->view.etype_size());
                base = (fh->view.stream_bytes_before(st.st_size) + es - 1) / es;
            }
            if (local == MPI_SUCCESS) local = base + offset < 0 ? MPI_ERR_ARG : io::store_shared(fh, base + offset);
        }
        return io::settle(fh, local);
    });
}
FTMPI_PMPI(File_seek_shared)

extern "C" int MPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset) noexcept {
    constexpr const char *fn = "MPI_File_get_position_shared";
    if (int err = io::check_file(fh)) return io::raise(fh, err, fn);
    if (offset == nullptr) return io::raise(fh, MPI_ERR_ARG, fn);
    return io::guarded(fh, fn, [&] { return io::fetch_add_shared(fh, 0, offset); });
}
FTMPI_PMPI(File_get_position_shared)
