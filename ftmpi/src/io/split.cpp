// Split collective data access (MPI-3.1 §13.4.5): the _begin call does the
// whole collective access and keeps its outcome; the matching _end hands it
// over. One split collective may be active per file; a second _begin, or an
// _end without a _begin, is MPI_ERR_OTHER (ROMIO answers the same).
#include "internals.hpp"

#include "../internal/pmpi.hpp"

namespace ftmpi::io {
namespace {

int begin(MPI_File fh, Dir dir, Where where, MPI_Offset offset, const void *buf, int count, MPI_Datatype type,
          const char *fn) {
    if (!valid(fh)) return raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);
    {
        std::lock_guard lk(fh->mutex);
        if (fh->split_active) return raise(fh, MPI_ERR_OTHER, fn);
        fh->split_active = true;
    }
    return guarded(fh, fn, [&] {
        MPI_Status status{};
        const int code = where == Where::shared
            ? ordered_call(fh, dir, const_cast<void *>(buf), count, type, &status)
            : access_call(fh, dir, where, true, offset, const_cast<void *>(buf), count, type, &status);
        std::lock_guard lk(fh->mutex);
        fh->split_code = code;
        fh->split_status = status;
        return MPI_SUCCESS;  // the outcome is the _end's to report
    });
}

int end(MPI_File fh, MPI_Status *status, const char *fn) {
    if (!valid(fh)) return raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);
    int code;
    {
        std::lock_guard lk(fh->mutex);
        if (!fh->split_active) return raise(fh, MPI_ERR_OTHER, fn);
        fh->split_active = false;
        code = fh->split_code;
        if (code == MPI_SUCCESS && status != MPI_STATUS_IGNORE) *status = fh->split_status;
    }
    return raise(fh, code, fn);
}

}  // namespace
}  // namespace ftmpi::io

using namespace ftmpi;
using io::Dir;
using io::Where;

extern "C" int MPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype) noexcept {
    return io::begin(fh, Dir::read, Where::individual, 0, buf, count, datatype, "MPI_File_read_all_begin");
}
FTMPI_PMPI(File_read_all_begin)
extern "C" int MPI_File_read_all_end(MPI_File fh, void *, MPI_Status *status) noexcept {
    return io::end(fh, status, "MPI_File_read_all_end");
}
FTMPI_PMPI(File_read_all_end)
extern "C" int MPI_File_write_all_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype) noexcept {
    return io::begin(fh, Dir::write, Where::individual, 0, buf, count, datatype, "MPI_File_write_all_begin");
}
FTMPI_PMPI(File_write_all_begin)
extern "C" int MPI_File_write_all_end(MPI_File fh, const void *, MPI_Status *status) noexcept {
    return io::end(fh, status, "MPI_File_write_all_end");
}
FTMPI_PMPI(File_write_all_end)
extern "C" int MPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                          MPI_Datatype datatype) noexcept {
    return io::begin(fh, Dir::read, Where::explicit_offset, offset, buf, count, datatype, "MPI_File_read_at_all_begin");
}
FTMPI_PMPI(File_read_at_all_begin)
extern "C" int MPI_File_read_at_all_end(MPI_File fh, void *, MPI_Status *status) noexcept {
    return io::end(fh, status, "MPI_File_read_at_all_end");
}
FTMPI_PMPI(File_read_at_all_end)
extern "C" int MPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                           MPI_Datatype datatype) noexcept {
    return io::begin(fh, Dir::write, Where::explicit_offset, offset, buf, count, datatype,
                     "MPI_File_write_at_all_begin");
}
FTMPI_PMPI(File_write_at_all_begin)
extern "C" int MPI_File_write_at_all_end(MPI_File fh, const void *, MPI_Status *status) noexcept {
    return io::end(fh, status, "MPI_File_write_at_all_end");
}
FTMPI_PMPI(File_write_at_all_end)
extern "C" int MPI_File_read_ordered_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype) noexcept {
    return io::begin(fh, Dir::read, Where::shared, 0, buf, count, datatype, "MPI_File_read_ordered_begin");
}
FTMPI_PMPI(File_read_ordered_begin)
extern "C" int MPI_File_read_ordered_end(MPI_File fh, void *, MPI_Status *status) noexcept {
    return io::end(fh, status, "MPI_File_read_ordered_end");
}
FTMPI_PMPI(File_read_ordered_end)
extern "C" int MPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype) noexcept {
    return io::begin(fh, Dir::write, Where::shared, 0, buf, count, datatype, "MPI_File_write_ordered_begin");
}
FTMPI_PMPI(File_write_ordered_begin)
extern "C" int MPI_File_write_ordered_end(MPI_File fh, const void *, MPI_Status *status) noexcept {
    return io::end(fh, status, "MPI_File_write_ordered_end");
}
FTMPI_PMPI(File_write_ordered_end)
