// The non-blocking data-access calls (MPI_File_iread … iwrite_at_all,
// MPI-3.1 §13.4.2, §13.4.5). Each runs to completion inside the call and
// returns a request that is already complete (a generalized request of p2p
// whose first advance hands over the status), so MPI_Wait/Test/Waitall treat
// it like any other. An error is reported by the call itself, through the
// file's error handler, with *request set to MPI_REQUEST_NULL. The
// collective forms therefore block until every member has called them
// (README.md says so under Limits).
#include "internals.hpp"

#include "../internal/p2p.hpp"
#include "../internal/pmpi.hpp"

namespace ftmpi::io {
namespace {

int start(MPI_File fh, Dir dir, Where where, bool coll, MPI_Offset offset, void *buf, int count, MPI_Datatype type,
          MPI_Request *request, const char *fn) {
    if (!valid(fh)) return raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);
    if (request == nullptr) return raise(fh, MPI_ERR_ARG, fn);
    *request = MPI_REQUEST_NULL;
    return guarded(fh, fn, [&] {
        MPI_Status status{};
        if (int err = access_call(fh, dir, where, coll, offset, buf, count, type, &status)) return err;
        *request = p2p::make_generalized([status](MPI_Status *out) {
            *out = status;
            return true;
        });
        return MPI_SUCCESS;
    });
}

}  // namespace
}  // namespace ftmpi::io

using namespace ftmpi;
using io::Dir;
using io::Where;

#define FTMPI_FILE_START(Name, dir, where, coll, offset, buf)                                                          \
    {                                                                                                                  \
        return io::start(fh, dir, where, coll, offset, const_cast<void *>(buf), count, datatype, request,              \
                         "MPI_File_" #Name);                                                                           \
    }                                                                                                                  \
    FTMPI_PMPI(File_##Name)

extern "C" int MPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request) noexcept
    FTMPI_FILE_START(iread, Dir::read, Where::individual, false, 0,
                     buf) extern "C" int MPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                                                         MPI_Request *request) noexcept
    FTMPI_FILE_START(iwrite, Dir::write, Where::individual, false, 0,
                     buf) extern "C" int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                                           MPI_Datatype datatype, MPI_Request *request) noexcept
    FTMPI_FILE_START(iread_at, Dir::read, Where::explicit_offset, false, offset,
                     buf) extern "C" int MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                                            MPI_Datatype datatype, MPI_Request *request) noexcept
    FTMPI_FILE_START(iwrite_at, Dir::write, Where::explicit_offset, false, offset,
                     buf) extern "C" int MPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                                            MPI_Request *request) noexcept
    FTMPI_FILE_START(iread_all, Dir::read, Where::individual, true, 0,
                     buf) extern "C" int MPI_File_iwrite_all(MPI_File fh, const void *buf, int count,
                                                             MPI_Datatype datatype, MPI_Request *request) noexcept
    FTMPI_FILE_START(iwrite_all, Dir::write, Where::individual, true, 0,
                     buf) extern "C" int MPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                                               MPI_Datatype datatype, MPI_Request *request) noexcept
    FTMPI_FILE_START(iread_at_all, Dir::read, Where::explicit_offset, true, offset,
                     buf) extern "C" int MPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf,
                                                                int count, MPI_Datatype datatype,
                                                                MPI_Request *request) noexcept
    FTMPI_FILE_START(iwrite_at_all, Dir::write, Where::explicit_offset, true, offset,
                     buf) extern "C" int MPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                                               MPI_Request *request) noexcept
    FTMPI_FILE_START(iread_shared, Dir::read, Where::shared, false, 0,
                     buf) extern "C" int MPI_File_iwrite_shared(MPI_File fh, const void *buf, int count,
                                                                MPI_Datatype datatype, MPI_Request *request) noexcept
    FTMPI_FILE_START(iwrite_shared, Dir::write, Where::shared, false, 0, buf)
