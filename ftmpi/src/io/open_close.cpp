// MPI_File_open, MPI_File_close, MPI_File_delete (MPI-3.1 §13.2).
//
// Open is collective and every member returns the same outcome: rank 0
// creates the file first (so MPI_MODE_EXCL means one creator), the others
// open it once rank 0 succeeded, and the worst error code is agreed with an
// allreduce on the file's private communicator.
#include "file.hpp"
#include "internals.hpp"

#include "../comm/objects.hpp"
#include "../internal/comm.hpp"
#include "../internal/pmpi.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ftmpi::io {
namespace {

constexpr int access_bits = MPI_MODE_RDONLY | MPI_MODE_RDWR | MPI_MODE_WRONLY;
constexpr int known_bits = access_bits | MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_DELETE_ON_CLOSE |
    MPI_MODE_UNIQUE_OPEN | MPI_MODE_SEQUENTIAL | MPI_MODE_APPEND;

// MPI-3.1 §13.2.1: exactly one access mode; RDONLY excludes CREATE and
// EXCL; RDWR excludes SEQUENTIAL.
int check_amode(int amode) {
    const int access = amode & access_bits;
    if ((amode & ~known_bits) != 0) return MPI_ERR_AMODE;
    if (access != MPI_MODE_RDONLY && access != MPI_MODE_RDWR && access != MPI_MODE_WRONLY) return MPI_ERR_AMODE;
    if ((amode & MPI_MODE_RDONLY) && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL))) return MPI_ERR_AMODE;
    if ((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL)) return MPI_ERR_AMODE;
    return MPI_SUCCESS;
}

int posix_flags(int amode, bool creator) {
    int flags = O_CLOEXEC;
    if (amode & MPI_MODE_RDONLY) flags |= O_RDONLY;
    if (amode & MPI_MODE_WRONLY) flags |= O_WRONLY;
    if (amode & MPI_MODE_RDWR) flags |= O_RDWR;
    if (creator && (amode & MPI_MODE_CREATE)) flags |= O_CREAT;
    if (creator && (amode & MPI_MODE_EXCL)) flags |= O_EXCL;
    return flags;
}

// ROMIO accepts "ufs:name" and "nfs:name" to choose a driver; both are POSIX here.
std::string strip_prefix(const char *filename) {
    std::string name = filename;
    for (const char *p : {"ufs:", "nfs:"})
        if (name.rfind(p, 0) == 0) return name.substr(4);
    return name;
}

// Opens the POSIX file at every member; the same code everywhere.
int open_descriptor(MPI_File f) {
    int code = MPI_SUCCESS;
    if (f->rank == 0) {
        f->fd = ::open(f->path.c_str(), posix_flags(f->amode, true), 0666);
        if (f->fd < 0) code = error_of_errno(errno);
    }
    if (int err = PMPI_Bcast(&code, 1, MPI_INT, 0, f->comm)) return err;
    if (code != MPI_SUCCESS) return code;
    if (f->rank != 0) {
        f->fd = ::open(f->path.c_str(), posix_flags(f->amode, false));
        if (f->fd < 0) code = error_of_errno(errno);
    }
    return agree_max(f->comm, code);
}

int open_file(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh) {
    auto f = std::make_unique<ftmpi_file_s>();
    int local = check_amode(amode);
    if (local == MPI_SUCCESS) local = apply_hints(info, f->hints);
    if (int err = PMPI_Comm_dup(comm, &f->comm)) return err;
    PMPI_Comm_set_errhandler(f->comm, MPI_ERRORS_RETURN);
    PMPI_Comm_rank(f->comm, &f->rank);
    PMPI_Comm_size(f->comm, &f->size);
    f->path = strip_prefix(filename);
    f->amode = amode;
    auto fail = [&](int code) {
        if (f->fd >= 0) ::close(f->fd);
        PMPI_Comm_free(&f->comm);
        return code;
    };

    // Every member's argument check, and the same amode everywhere.
    int in[3] = {local, amode, -amode}, out[3];
    if (int err = PMPI_Allreduce(in, out, 3, MPI_INT, MPI_MAX, f->comm)) return fail(err);
    if (out[0] != MPI_SUCCESS) return fail(local != MPI_SUCCESS ? local : out[0]);
    if (out[1] != -out[2]) return fail(MPI_ERR_NOT_SAME);

    if (int err = open_descriptor(f.get())) return fail(err);
    // Before the next collective (an allgather): no member can write to the
    // file through this handle until every member has read its size here.
    if (amode & MPI_MODE_APPEND) {
        struct stat st {};
        if (::fstat(f->fd, &st) == 0) f->pointer = st.st_size;  // default view: etypes are bytes
    }
    if (int err = find_host_leaders(f.get())) return fail(err);
    if (int err = open_shared_pointer(f.get())) return fail(err);

    f->errhandler = default_errhandler();
    comm::retain(f->errhandler);
    MPI_File handle = f.release();
    register_file(handle);
    *fh = handle;
    return MPI_SUCCESS;
}

}  // namespace

int agree_max(MPI_Comm comm, int code) {
    int worst = code;
    if (int err = PMPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, comm)) return err;
    return worst;
}

}  // namespace ftmpi::io

using namespace ftmpi;

extern "C" int MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh) noexcept {
    constexpr const char *fn = "MPI_File_open";
    if (fh == nullptr || filename == nullptr) return io::raise(MPI_FILE_NULL, MPI_ERR_ARG, fn);
    *fh = MPI_FILE_NULL;
    if (comm == MPI_COMM_NULL || !comm::valid(comm) || comm->inter) return io::raise(MPI_FILE_NULL, MPI_ERR_COMM, fn);
    if (info != MPI_INFO_NULL && !comm::valid(info)) return io::raise(MPI_FILE_NULL, MPI_ERR_INFO, fn);
    return io::guarded(MPI_FILE_NULL, fn, [&] { return io::open_file(comm, filename, amode, info, fh); });
}
FTMPI_PMPI(File_open)

extern "C" int MPI_File_close(MPI_File *fh) noexcept {
    constexpr const char *fn = "MPI_File_close";
    if (fh == nullptr || !io::valid(*fh)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, fn);
    MPI_File f = *fh;
    // Collective: nobody removes anything before every member closed. A
    // revoked file or a failed member still frees the handle locally
    // (the fault-tolerance chapter's MPI_FILE_CLOSE) and reports why.
    ::close(f->fd);
    int code = io::revoked(f) ? MPIX_ERR_REVOKED : PMPI_Barrier(f->comm);
    const bool remove = code == MPI_SUCCESS && f->rank == 0;
    io::close_shared_pointer(f, remove);
    if (remove && (f->amode & MPI_MODE_DELETE_ON_CLOSE)) ::unlink(f->path.c_str());
    io::raise(f, code, fn);
    io::unregister_file(f);
    if (!f->abandoned_agreement) PMPI_Comm_free(&f->comm);
    if (f->errhandler != nullptr) comm::release(f->errhandler);
    delete f;
    *fh = MPI_FILE_NULL;
    return code;
}
FTMPI_PMPI(File_close)

extern "C" int MPI_File_delete(const char *filename, MPI_Info info) noexcept {
    constexpr const char *fn = "MPI_File_delete";
    if (filename == nullptr) return io::raise(MPI_FILE_NULL, MPI_ERR_ARG, fn);
    (void)info;  // no hint changes how a file is deleted
    const std::string path = io::strip_prefix(filename);
    if (::unlink(path.c_str()) != 0) return io::raise(MPI_FILE_NULL, io::error_of_errno(errno), fn);
    return MPI_SUCCESS;
}
FTMPI_PMPI(File_delete)
