// Errors on files: the live-file registry, ftmpi::io::raise (the file's
// error handler, MPI_ERRORS_RETURN by default as MPI-3.1 §13.7 says), the
// errno mapping, and the MPI_File_*_errhandler bindings.
#include "file.hpp"

#include "../comm/objects.hpp"
#include "../internal/errors.hpp"
#include "../internal/ft.hpp"
#include "../internal/p2p.hpp"
#include "../internal/pmpi.hpp"

#include <cerrno>
#include <cstdio>
#include <unordered_set>

namespace ftmpi::io {
namespace {
std::mutex registry_mutex;
std::unordered_set<MPI_File> live_files;
// The handler of MPI_FILE_NULL: what new files get and what errors without a
// file (open, delete) go to. Guarded by registry_mutex.
MPI_Errhandler file_null_handler = nullptr;

MPI_Errhandler handler_of(MPI_File fh) {
    std::lock_guard lk(registry_mutex);
    if (fh != MPI_FILE_NULL && live_files.count(fh) != 0) return fh->errhandler;
    return file_null_handler != nullptr ? file_null_handler : MPI_ERRORS_RETURN;
}

[[noreturn]] void die(MPI_File fh, int code, const char *function) {
    const std::string subject = "file " + (fh != MPI_FILE_NULL && valid(fh) ? fh->path : std::string("(none)"));
    comm::abort_fatal(code, function, subject.c_str());
}

int invoke(MPI_File fh, MPI_Errhandler eh, int code, const char *function) {
    if (eh == nullptr || eh->kind == ftmpi_errhandler_s::Kind::fatal) die(fh, code, function);
    if (eh->kind == ftmpi_errhandler_s::Kind::user && eh->function != nullptr) {
        // File handlers are stored in the comm part's struct; the pointer
        // was a MPI_File_errhandler_function when it was created.
        auto *fn = reinterpret_cast<MPI_File_errhandler_function *>(eh->function);
        MPI_File handle = fh;
        fn(&handle, &code, function);  // the call returns what the handler left (comm/errhandler.cpp)
    }
    return code;
}
}  // namespace

void register_file(MPI_File fh) {
    std::lock_guard lk(registry_mutex);
    live_files.insert(fh);
}

void unregister_file(MPI_File fh) {
    std::lock_guard lk(registry_mutex);
    live_files.erase(fh);
}

bool valid(MPI_File fh) {
    if (fh == MPI_FILE_NULL) return false;
    std::lock_guard lk(registry_mutex);
    return live_files.count(fh) != 0;
}

MPI_Errhandler default_errhandler() {
    return handler_of(MPI_FILE_NULL);
}

int raise(MPI_File fh, int code, const char *function) {
    if (code == MPI_SUCCESS) return code;
    // ABORT comm mode ends the job on a process failure, for files too.
    if (valid(fh)) ft::abort_if_required(fh->comm, code, function);
    return invoke(fh, handler_of(fh), code, function);
}

int error_of_errno(int err) {
    switch (err) {
    case ENOENT: return MPI_ERR_NO_SUCH_FILE;
    case EEXIST: return MPI_ERR_FILE_EXISTS;
    case EACCES:
    case EPERM: return MPI_ERR_ACCESS;
    case EROFS: return MPI_ERR_READ_ONLY;
    case ENOSPC:
    case EFBIG: return MPI_ERR_NO_SPACE;
    case EDQUOT: return MPI_ERR_QUOTA;
    case ENAMETOOLONG:
    case EISDIR:
    case ENOTDIR:
    case ELOOP: return MPI_ERR_BAD_FILE;
    case ETXTBSY: return MPI_ERR_FILE_IN_USE;
    case ENOMEM: return MPI_ERR_NO_MEM;
    default: return MPI_ERR_IO;
    }
}

bool revoked(MPI_File fh) {
    return p2p::is_revoked(fh->comm);
}

int check_file(MPI_File fh) {
    if (!valid(fh)) return MPI_ERR_FILE;
    if (revoked(fh)) return MPIX_ERR_REVOKED;
    return MPI_SUCCESS;
}

void set_status(MPI_Status *status, size_t bytes) {
    if (status == MPI_STATUS_IGNORE) return;
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    status->MPI_ERROR = MPI_SUCCESS;
    status->ftmpi_cancelled = 0;
    status->ftmpi_count = bytes;
}

}  // namespace ftmpi::io

using namespace ftmpi;

extern "C" int MPI_File_create_errhandler(MPI_File_errhandler_function *function, MPI_Errhandler *errhandler) noexcept {
    constexpr const char *fn = "MPI_File_create_errhandler";
    if (function == nullptr || errhandler == nullptr) return io::raise(MPI_FILE_NULL, MPI_ERR_ARG, fn);
    auto *eh = new (std::nothrow) ftmpi_errhandler_s;
    if (eh == nullptr) return io::raise(MPI_FILE_NULL, MPI_ERR_NO_MEM, fn);
    eh->kind = ftmpi_errhandler_s::Kind::user;
    eh->function = reinterpret_cast<MPI_Comm_errhandler_function *>(function);
    comm::register_object(eh);
    *errhandler = eh;
    return MPI_SUCCESS;
}
FTMPI_PMPI(File_create_errhandler)

extern "C" int MPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler) noexcept {
    constexpr const char *fn = "MPI_File_set_errhandler";
    if (file != MPI_FILE_NULL && !io::valid(file)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);
    if (!comm::valid(errhandler)) return io::raise(file, MPI_ERR_ARG, fn);
    comm::retain(errhandler);
    MPI_Errhandler old;
    {
        std::lock_guard lk(io::registry_mutex);
        MPI_Errhandler &slot = file == MPI_FILE_NULL ? io::file_null_handler : file->errhandler;
        old = slot;
        slot = errhandler;
    }
    if (old != nullptr) comm::release(old);
    return MPI_SUCCESS;
}
FTMPI_PMPI(File_set_errhandler)

extern "C" int MPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler) noexcept {
    constexpr const char *fn = "MPI_File_get_errhandler";
    if (file != MPI_FILE_NULL && !io::valid(file)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);
    if (errhandler == nullptr) return io::raise(file, MPI_ERR_ARG, fn);
    std::lock_guard lk(io::registry_mutex);
    MPI_Errhandler eh = file == MPI_FILE_NULL ? io::file_null_handler : file->errhandler;
    if (eh == nullptr) eh = MPI_ERRORS_RETURN;
    comm::retain(eh);  // the caller frees it with MPI_Errhandler_free
    *errhandler = eh;
    return MPI_SUCCESS;
}
FTMPI_PMPI(File_get_errhandler)

extern "C" int MPI_File_call_errhandler(MPI_File fh, int errorcode) noexcept {
    if (fh != MPI_FILE_NULL && !io::valid(fh))
        return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, "MPI_File_call_errhandler");
    io::raise(fh, errorcode, "MPI_File_call_errhandler");
    return MPI_SUCCESS;
}
FTMPI_PMPI(File_call_errhandler)
