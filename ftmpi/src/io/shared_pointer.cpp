// The shared file pointer (MPI-3.1 §13.4.4), kept as 8 bytes in a small
// lock file next to the data file: rank 0 names it at open (the name goes
// to the others by broadcast), the first member that uses the pointer
// creates it, and rank 0 removes it at close. A fetch-and-add holds
// a POSIX record lock on it, so every member's read_shared/write_shared
// reserves a distinct range of the view without any message — the process
// that owns the pointer need not be inside MPI, unlike a pointer kept by
// rank 0 and served over point-to-point. It needs a file system where every
// member sees the same lock file and fcntl locks work (local disks, NFS
// with locking); when the data file's directory is not writable the lock
// file goes to /tmp, which is only shared on one host.
#include "internals.hpp"

#include "../internal/pmpi.hpp"

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <fcntl.h>
#include <string>
#include <unistd.h>

namespace ftmpi::io {
namespace {

// fcntl locks exclude processes, not threads of one process.
std::mutex thread_lock;
std::atomic<unsigned> lock_files_made{0};

std::string directory_of(const std::string &path) {
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? "." : path.substr(0, slash);
}

std::string base_of(const std::string &path) {
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The lock file's name (rank 0 chooses it): next to the data file, or in
// /tmp when that directory is not writable.
std::string lock_file_name(const std::string &path) {
    const std::string tag = ".ftmpi-shfp." + std::to_string(::getpid()) + "." + std::to_string(lock_files_made++);
    const std::string dir = directory_of(path);
    if (::access(dir.c_str(), W_OK | X_OK) == 0) return dir + "/." + base_of(path) + tag;
    return "/tmp/" + tag;
}

// The lock file is made by the first member that uses the shared pointer,
// so programs that never do leave no file behind, even when killed.
int ensure_open(MPI_File fh) {
    if (fh->shared_fd >= 0) return MPI_SUCCESS;
    if (fh->shared_path.empty()) return MPI_ERR_IO;
    fh->shared_fd = ::open(fh->shared_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    return fh->shared_fd >= 0 ? MPI_SUCCESS : error_of_errno(errno);
}

class Locked {
public:
    explicit Locked(int fd) : guard_(thread_lock), fd_(fd) {
        lock_.l_type = F_WRLCK;
        lock_.l_whence = SEEK_SET;
        lock_.l_start = 0;
        lock_.l_len = sizeof(int64_t);
        while (::fcntl(fd_, F_SETLKW, &lock_) != 0 && errno == EINTR) {}
    }
    ~Locked() {
        lock_.l_type = F_UNLCK;
        ::fcntl(fd_, F_SETLK, &lock_);
    }
    Locked(const Locked &) = delete;
    Locked &operator=(const Locked &) = delete;

private:
    std::lock_guard<std::mutex> guard_;
    int fd_;
    struct flock lock_ {};
};

int write_value(int fd, MPI_Offset value) {
    const int64_t v = value;
    return ::pwrite(fd, &v, sizeof v, 0) == static_cast<ssize_t>(sizeof v) ? MPI_SUCCESS : error_of_errno(errno);
}

}  // namespace

int open_shared_pointer(MPI_File fh) {
    std::string name;
    if (fh->rank == 0) name = lock_file_name(fh->path);
    int len = static_cast<int>(name.size());
    if (int err = PMPI_Bcast(&len, 1, MPI_INT, 0, fh->comm)) return err;
    name.resize(static_cast<size_t>(len));
    if (int err = PMPI_Bcast(name.data(), len, MPI_CHAR, 0, fh->comm)) return err;
    fh->shared_path = name;
    fh->shared_start = fh->pointer;  // MPI_MODE_APPEND starts both pointers at the end
    return MPI_SUCCESS;
}

void close_shared_pointer(MPI_File fh, bool remove) {
    if (fh->shared_fd >= 0) ::close(fh->shared_fd);
    fh->shared_fd = -1;
    if (remove && !fh->shared_path.empty()) ::unlink(fh->shared_path.c_str());
}

int fetch_add_shared(MPI_File fh, MPI_Offset advance, MPI_Offset *old) {
    if (int err = ensure_open(fh)) return err;
    Locked lock(fh->shared_fd);
    int64_t v = 0;
    const ssize_t n = ::pread(fh->shared_fd, &v, sizeof v, 0);
    if (n < 0) return error_of_errno(errno);
    if (n != static_cast<ssize_t>(sizeof v)) v = fh->shared_start;  // nobody wrote it yet
    *old = v;
    return advance == 0 ? MPI_SUCCESS : write_value(fh->shared_fd, v + advance);
}

int restart_shared(MPI_File fh) {
    fh->shared_start = 0;
    if (fh->rank != 0) return MPI_SUCCESS;
    if (fh->shared_fd < 0) {
        fh->shared_fd = ::open(fh->shared_path.c_str(), O_RDWR | O_CLOEXEC);
        if (fh->shared_fd < 0) return errno == ENOENT ? MPI_SUCCESS : error_of_errno(errno);  // never used
    }
    Locked lock(fh->shared_fd);
    return ::ftruncate(fh->shared_fd, 0) == 0 ? MPI_SUCCESS : error_of_errno(errno);
}

int store_shared(MPI_File fh, MPI_Offset value) {
    if (int err = ensure_open(fh)) return err;
    Locked lock(fh->shared_fd);
    return write_value(fh->shared_fd, value);
}

}  // namespace ftmpi::io
