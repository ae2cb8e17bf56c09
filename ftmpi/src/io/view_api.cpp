// Views and file positions (MPI-3.1 §13.3, §13.4.3, §13.5): set_view,
// get_view, get_type_extent, get_byte_offset, seek, get_position, and
// MPI_Register_datarep (user representations are not supported).
#include "internals.hpp"

#include "../internal/datatype.hpp"
#include "../internal/pmpi.hpp"

#include <cstring>
#include <sys/stat.h>

namespace ftmpi::io {
namespace {

// get_view hands out new handles for derived types (the caller frees them)
// and the same handle for named ones (MPI-3.1 §13.3).
MPI_Datatype copy_of(MPI_Datatype type) {
    int ni = 0, na = 0, nd = 0, combiner = MPI_COMBINER_NAMED;
    PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
    if (combiner == MPI_COMBINER_NAMED) return type;
    MPI_Datatype copy = MPI_DATATYPE_NULL;
    PMPI_Type_dup(type, &copy);
    return copy;
}

// The view's end of file in etypes (rounded up: a partial etype at the end
// is not overwritten by an append after seek(0, MPI_SEEK_END)).
int end_in_etypes(MPI_File fh, MPI_Offset *end) {
    struct stat st {};
    if (::fstat(fh->fd, &st) != 0) return error_of_errno(errno);
    const auto es = static_cast<MPI_Offset>(fh->view.etype_size());
    *end = (fh->view.stream_bytes_before(st.st_size) + es - 1) / es;
    return MPI_SUCCESS;
}

int set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char *datarep,
             MPI_Info info) {
    int local = revoked(fh) ? MPIX_ERR_REVOKED : MPI_SUCCESS;
    if (local == MPI_SUCCESS && disp == MPI_DISPLACEMENT_CURRENT) {
        // Only for files opened with MPI_MODE_SEQUENTIAL: the new view
        // starts where the shared file pointer is.
        MPI_Offset shared = 0;
        if ((fh->amode & MPI_MODE_SEQUENTIAL) == 0)
            local = MPI_ERR_ARG;
        else if ((local = fetch_add_shared(fh, 0, &shared)) == MPI_SUCCESS)
            disp = fh->view.file_offset(shared * static_cast<MPI_Offset>(fh->view.etype_size()));
    }
    if (local == MPI_SUCCESS) {
        std::lock_guard lk(fh->mutex);
        Hints hints = fh->hints;
        local = apply_hints(info, hints);
        if (local == MPI_SUCCESS)
            local = fh->view.set(disp, etype, filetype, datarep, (fh->amode & MPI_MODE_RDONLY) == 0);
        if (local == MPI_SUCCESS) {
            fh->hints = hints;
            fh->pointer = 0;
        }
    }
    // Both pointers start again at 0: rank 0 resets the shared one once every
    // member is done with the old view (the allreduce), and the collective
    // end keeps any member from using it before the reset.
    local = agree_max(fh->comm, local);
    if (local == MPI_SUCCESS) local = restart_shared(fh);
    return settle(fh, local);
}

}  // namespace
}  // namespace ftmpi::io

using namespace ftmpi;

extern "C" int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                                 const char *datarep, MPI_Info info) noexcept {
    constexpr const char *fn = "MPI_File_set_view";
    if (!io::valid(fh)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);
    return io::guarded(fh, fn, [&] { return io::set_view(fh, disp, etype, filetype, datarep, info); });
}
FTMPI_PMPI(File_set_view)

extern "C" int MPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype,
                                 char *datarep) noexcept {
    constexpr const char *fn = "MPI_File_get_view";
    if (!io::valid(fh)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);
    if (!disp || !etype || !filetype || !datarep) return io::raise(fh, MPI_ERR_ARG, fn);
    std::lock_guard lk(fh->mutex);
    *disp = fh->view.disp();
    *etype = io::copy_of(fh->view.etype());
    *filetype = io::copy_of(fh->view.filetype());
    std::strncpy(datarep, fh->view.datarep().c_str(), MPI_MAX_DATAREP_STRING - 1);
    datarep[MPI_MAX_DATAREP_STRING - 1] = '\0';
    return MPI_SUCCESS;
}
FTMPI_PMPI(File_get_view)

extern "C" int MPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent) noexcept {
    constexpr const char *fn = "MPI_File_get_type_extent";
    if (!io::valid(fh)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);
    if (!dt::valid(datatype)) return io::raise(fh, MPI_ERR_TYPE, fn);
    if (extent == nullptr) return io::raise(fh, MPI_ERR_ARG, fn);
    // In an external32 file a type whose basic types keep their native sizes
    // keeps its extent. One without gaps (MPI_LONG, a contiguous of longs)
    // takes its external32 size (MPI_LONG: 4 bytes). Others would need their
    // displacements rescaled, which views refuse (view.hpp).
    const bool packed = static_cast<MPI_Aint>(dt::size(datatype)) == dt::extent(datatype) && dt::lb(datatype) == 0;
    if (fh->view.external32() && !dt::external32_same_size(datatype)) {
        if (!packed) return io::raise(fh, MPI_ERR_CONVERSION, fn);
        *extent = static_cast<MPI_Aint>(dt::external32_size(datatype));
        return MPI_SUCCESS;
    }
    *extent = dt::extent(datatype);
    return MPI_SUCCESS;
}
FTMPI_PMPI(File_get_type_extent)

extern "C" int MPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp) noexcept {
    constexpr const char *fn = "MPI_File_get_byte_offset";
    if (!io::valid(fh)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);
    if (offset < 0 || disp == nullptr) return io::raise(fh, MPI_ERR_ARG, fn);
    std::lock_guard lk(fh->mutex);
    *disp = fh->view.file_offset(offset * static_cast<MPI_Offset>(fh->view.etype_size()));
    return MPI_SUCCESS;
}
FTMPI_PMPI(File_get_byte_offset)

extern "C" int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence) noexcept {
    constexpr const char *fn = "MPI_File_seek";
    if (int err = io::check_file(fh)) return io::raise(fh, err, fn);
    if (fh->amode & MPI_MODE_SEQUENTIAL) return io::raise(fh, MPI_ERR_UNSUPPORTED_OPERATION, fn);
    return io::guarded(fh, fn, [&] {
        std::lock_guard lk(fh->mutex);
        MPI_Offset base = 0;
        if (whence == MPI_SEEK_CUR)
            base = fh->pointer;
        else if (whence == MPI_SEEK_END) {
            if (int err = io::end_in_etypes(fh, &base)) return err;
        } else if (whence != MPI_SEEK_SET)
            return MPI_ERR_ARG;
        if (base + offset < 0) return MPI_ERR_ARG;
        fh->pointer = base + offset;
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(File_seek)

extern "C" int MPI_File_get_position(MPI_File fh, MPI_Offset *offset) noexcept {
    constexpr const char *fn = "MPI_File_get_position";
    if (!io::valid(fh)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);
    if (offset == nullptr) return io::raise(fh, MPI_ERR_ARG, fn);
    std::lock_guard lk(fh->mutex);
    *offset = fh->pointer;
    return MPI_SUCCESS;
}
FTMPI_PMPI(File_get_position)

extern "C" int MPI_CONVERSION_FN_NULL(void *, MPI_Datatype, int, void *, MPI_Offset, void *) noexcept {
    return MPI_SUCCESS;
}

extern "C" int MPI_CONVERSION_FN_NULL_C(void *, MPI_Datatype, MPI_Count, void *, MPI_Offset, void *) noexcept {
    return MPI_SUCCESS;
}

extern "C" int MPI_Register_datarep(const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn,
                                    MPI_Datarep_conversion_function *write_conversion_fn,
                                    MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state) noexcept {
    constexpr const char *fn = "MPI_Register_datarep";
    (void)read_conversion_fn, (void)write_conversion_fn, (void)extra_state;
    if (datarep == nullptr || dtype_file_extent_fn == nullptr) return io::raise(MPI_FILE_NULL, MPI_ERR_ARG, fn);
    for (const char *known : {"native", "internal", "external32"})
        if (std::strcmp(datarep, known) == 0) return io::raise(MPI_FILE_NULL, MPI_ERR_DUP_DATAREP, fn);
    // User-defined representations would need conversion callbacks on the
    // data path; they are not provided (README.md).
    return io::raise(MPI_FILE_NULL, MPI_ERR_UNSUPPORTED_DATAREP, fn);
}
FTMPI_PMPI(Register_datarep)
