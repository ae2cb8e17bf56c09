// The blocking data-access calls (MPI-3.1 §13.4): explicit offsets,
// individual file pointer, shared file pointer, each independent and
// collective, and the ordered (collective shared-pointer) forms.
#include "internals.hpp"

#include "../internal/datatype.hpp"
#include "../internal/pmpi.hpp"

#include <numeric>

namespace ftmpi::io {

int access_call(MPI_File fh, Dir dir, Where where, bool coll, MPI_Offset offset, void *buf, int count,
                MPI_Datatype type, MPI_Status *status) {
    // A collective takes part even on a revoked file (collective() says why).
    if (!coll)
        if (int err = check_file(fh)) return err;
    // MPI_MODE_SEQUENTIAL files only have the shared file pointer (§13.2.1);
    // every member has the same amode, so all of them return here.
    if ((fh->amode & MPI_MODE_SEQUENTIAL) && where != Where::shared) return MPI_ERR_UNSUPPORTED_OPERATION;
    MPI_Offset pos = offset;
    if (where == Where::individual) {
        std::lock_guard lk(fh->mutex);
        pos = fh->pointer;
    } else if (where == Where::shared) {
        // Reserve this access's etypes with one fetch-and-add on the pointer.
        if (int err = check_access(fh, dir, buf, count, type)) return err;
        const auto etypes =
            static_cast<MPI_Offset>(static_cast<size_t>(count) * dt::size(type) / fh->view.etype_size());
        if (int err = fetch_add_shared(fh, etypes, &pos)) return err;
    }
    size_t done = 0;
    const int code =
        coll ? collective(fh, dir, pos, buf, count, type, &done) : independent(fh, dir, pos, buf, count, type, &done);
    if (code != MPI_SUCCESS) return code;  // the pointer is then undefined (fault-tolerance chapter)
    if (where == Where::individual) {
        std::lock_guard lk(fh->mutex);
        fh->pointer = pos + static_cast<MPI_Offset>(done / fh->view.etype_size());
    }
    set_status(status, done);
    return MPI_SUCCESS;
}

int ordered_call(MPI_File fh, Dir dir, void *buf, int count, MPI_Datatype type, MPI_Status *status) {
    int local = revoked(fh) ? MPIX_ERR_REVOKED : check_access(fh, dir, buf, count, type);
    const int64_t mine = local != MPI_SUCCESS
        ? 0
        : static_cast<int64_t>(static_cast<size_t>(count) * dt::size(type) / fh->view.etype_size());
    // Everybody's share in rank order, then one fetch-and-add by rank 0 for all.
    std::vector<int64_t> shares(static_cast<size_t>(fh->size), 0);
    if (local == MPI_SUCCESS) local = PMPI_Allgather(&mine, 1, MPI_INT64_T, shares.data(), 1, MPI_INT64_T, fh->comm);
    int64_t start[2] = {0, MPI_SUCCESS};  // base position, rank 0's code
    if (fh->rank == 0 && local == MPI_SUCCESS) {
        MPI_Offset base = 0;
        start[1] = fetch_add_shared(fh, std::accumulate(shares.begin(), shares.end(), int64_t{0}), &base);
        start[0] = base;
    }
    if (local == MPI_SUCCESS) local = PMPI_Bcast(start, 2, MPI_INT64_T, 0, fh->comm);
    if (local == MPI_SUCCESS) local = static_cast<int>(start[1]);
    const MPI_Offset pos = start[0] + std::accumulate(shares.begin(), shares.begin() + fh->rank, int64_t{0});
    size_t done = 0;
    const int code = collective(fh, dir, pos, buf, count, type, &done, local);
    if (code == MPI_SUCCESS) set_status(status, done);
    return code;
}

}  // namespace ftmpi::io

using namespace ftmpi;
using io::Dir;
using io::Where;

#define FTMPI_FILE_ACCESS(Name, dir, where, coll, offset, buf)                                                         \
    {                                                                                                                  \
        constexpr const char *fn = "MPI_File_" #Name;                                                                  \
        if (!io::valid(fh)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);                                         \
        return io::guarded(fh, fn, [&] {                                                                               \
            return io::access_call(fh, dir, where, coll, offset, const_cast<void *>(buf), count, datatype, status);    \
        });                                                                                                            \
    }                                                                                                                  \
    FTMPI_PMPI(File_##Name)

extern "C" int MPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status) noexcept
    FTMPI_FILE_ACCESS(read, Dir::read, Where::individual, false, 0,
                      buf) extern "C" int MPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                                                         MPI_Status *status) noexcept
    FTMPI_FILE_ACCESS(write, Dir::write, Where::individual, false, 0,
                      buf) extern "C" int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                                           MPI_Datatype datatype, MPI_Status *status) noexcept
    FTMPI_FILE_ACCESS(read_at, Dir::read, Where::explicit_offset, false, offset,
                      buf) extern "C" int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                                            MPI_Datatype datatype, MPI_Status *status) noexcept
    FTMPI_FILE_ACCESS(write_at, Dir::write, Where::explicit_offset, false, offset,
                      buf) extern "C" int MPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                                            MPI_Status *status) noexcept
    FTMPI_FILE_ACCESS(read_all, Dir::read, Where::individual, true, 0,
                      buf) extern "C" int MPI_File_write_all(MPI_File fh, const void *buf, int count,
                                                             MPI_Datatype datatype, MPI_Status *status) noexcept
    FTMPI_FILE_ACCESS(write_all, Dir::write, Where::individual, true, 0,
                      buf) extern "C" int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                                               MPI_Datatype datatype, MPI_Status *status) noexcept
    FTMPI_FILE_ACCESS(read_at_all, Dir::read, Where::explicit_offset, true, offset,
                      buf) extern "C" int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf,
                                                                int count, MPI_Datatype datatype,
                                                                MPI_Status *status) noexcept
    FTMPI_FILE_ACCESS(write_at_all, Dir::write, Where::explicit_offset, true, offset,
                      buf) extern "C" int MPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                                               MPI_Status *status) noexcept
    FTMPI_FILE_ACCESS(read_shared, Dir::read, Where::shared, false, 0,
                      buf) extern "C" int MPI_File_write_shared(MPI_File fh, const void *buf, int count,
                                                                MPI_Datatype datatype, MPI_Status *status) noexcept
    FTMPI_FILE_ACCESS(write_shared, Dir::write, Where::shared, false, 0, buf)

        extern "C" int MPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                             MPI_Status *status) noexcept {
    if (!io::valid(fh)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, "MPI_File_read_ordered");
    return io::guarded(fh, "MPI_File_read_ordered",
                       [&] { return io::ordered_call(fh, Dir::read, buf, count, datatype, status); });
}
FTMPI_PMPI(File_read_ordered)

extern "C" int MPI_File_write_ordered(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                                      MPI_Status *status) noexcept {
    if (!io::valid(fh)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, "MPI_File_write_ordered");
    return io::guarded(fh, "MPI_File_write_ordered", [&] {
        return io::ordered_call(fh, Dir::write, const_cast<void *>(buf), count, datatype, status);
    });
}
FTMPI_PMPI(File_write_ordered)
