// The data path of one access: the user's (count, datatype) buffer becomes a
// packed stream in the file's representation (no copy when it is one
// contiguous native block), the view maps the stream to file segments, and
// pread/pwrite move each segment. Collective accesses add the two-phase
// exchange (two_phase.cpp) and the collective outcome (outcome.cpp).
#include "internals.hpp"

#include "../internal/datatype.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ftmpi::io {
namespace {

unsigned char *at_true_lb(void *buf, MPI_Datatype type) {
    return reinterpret_cast<unsigned char *>(reinterpret_cast<std::uintptr_t>(buf) +
                                             static_cast<std::uintptr_t>(dt::true_lb(type)));
}

// Locks [first, last) of the file for an atomic-mode access (MPI-3.1
// §13.6.1): writers exclude everybody, readers exclude writers.
class RangeLock {
public:
    RangeLock(MPI_File fh, const std::vector<Segment> &segs, bool write) : fd_(fh->atomic ? fh->fd : -1) {
        if (fd_ < 0 || segs.empty()) {
            fd_ = -1;
            return;
        }
        MPI_Offset lo = segs.front().offset, hi = lo;
        for (const Segment &s : segs) {
            lo = std::min(lo, s.offset);
            hi = std::max(hi, s.offset + static_cast<MPI_Offset>(s.len));
        }
        lock_.l_type = write ? F_WRLCK : F_RDLCK;
        lock_.l_whence = SEEK_SET;
        lock_.l_start = lo;
        lock_.l_len = hi - lo;
        while (::fcntl(fd_, F_SETLKW, &lock_) != 0 && errno == EINTR) {}
    }
    ~RangeLock() {
        if (fd_ < 0) return;
        lock_.l_type = F_UNLCK;
        ::fcntl(fd_, F_SETLK, &lock_);
    }
    RangeLock(const RangeLock &) = delete;
    RangeLock &operator=(const RangeLock &) = delete;

private:
    int fd_;
    struct flock lock_ {};
};

}  // namespace

int check_access(MPI_File fh, Dir dir, const void *buf, int count, MPI_Datatype type) {
    if (count < 0) return MPI_ERR_COUNT;
    if (!dt::valid(type)) return MPI_ERR_TYPE;
    if (buf == nullptr && count > 0 && dt::size(type) > 0) return MPI_ERR_BUFFER;
    if (dir == Dir::write && (fh->amode & MPI_MODE_RDONLY)) return MPI_ERR_READ_ONLY;
    if (dir == Dir::read && (fh->amode & MPI_MODE_WRONLY)) return MPI_ERR_ACCESS;
    // Only whole etypes are accessed (§13.4.1: the datatype's signature is
    // a number of copies of the etype's).
    const size_t bytes = static_cast<size_t>(count) * dt::size(type);
    if (bytes % fh->view.etype_size() != 0) return MPI_ERR_TYPE;
    return MPI_SUCCESS;
}

int prepare(MPI_File fh, Access &a, Dir dir, MPI_Offset pos, void *buf, int count, MPI_Datatype type) {
    if (pos < 0) return MPI_ERR_ARG;
    a.dir = dir;
    a.buf = buf;
    a.count = count;
    a.type = type;
    a.bytes = static_cast<size_t>(count) * dt::size(type);
    a.segments.clear();
    if (a.bytes == 0) return MPI_SUCCESS;
    const bool external32 = fh->view.external32();
    // The file's stream is as long as the native one: the view refuses
    // types whose external32 sizes differ (view.hpp), and so does this.
    if (external32 && !dt::external32_same_size(type)) return MPI_ERR_CONVERSION;
    if (dt::contiguous(type) && !external32) {
        a.stream = at_true_lb(buf, type);
    } else {
        a.staging.resize(a.bytes);
        a.stream = a.staging.data();
        if (dir == Dir::write && external32) {
            std::vector<unsigned char> native(a.bytes);
            dt::pack(buf, count, type, 0, native.data(), a.bytes);
            dt::to_external32(type, static_cast<size_t>(count), native.data(), a.stream);
        } else if (dir == Dir::write) {
            dt::pack(buf, count, type, 0, a.stream, a.bytes);
        }
    }
    fh->view.segments(pos * static_cast<MPI_Offset>(fh->view.etype_size()), a.bytes, a.segments);
    return MPI_SUCCESS;
}

int transfer(MPI_File fh, Access &a, size_t *done) {
    *done = 0;
    RangeLock lock(fh, a.segments, a.dir == Dir::write);
    unsigned char *p = a.stream;
    for (const Segment &s : a.segments) {
        size_t moved = 0;
        while (moved < s.len) {
            const off_t off = static_cast<off_t>(s.offset + static_cast<MPI_Offset>(moved));
            const ssize_t n = a.dir == Dir::write ? ::pwrite(fh->fd, p + moved, s.len - moved, off)
                                                  : ::pread(fh->fd, p + moved, s.len - moved, off);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) return error_of_errno(errno);
            if (n == 0) break;  // end of file (reads only: a write of n > 0 bytes never returns 0)
            moved += static_cast<size_t>(n);
        }
        *done += moved;
        p += s.len;
        if (moved < s.len) break;
    }
    return MPI_SUCCESS;
}

int finish_read(MPI_File fh, Access &a, size_t done) {
    if (a.bytes == 0 || a.stream != a.staging.data()) return MPI_SUCCESS;
    // The staging holds whole elements (count of them), so converting all of
    // it is safe even when only `done` bytes came from the file.
    if (fh->view.external32()) {
        std::vector<unsigned char> native(a.bytes);
        dt::from_external32(a.type, static_cast<size_t>(a.count), a.stream, native.data());
        dt::unpack(native.data(), done, 0, a.buf, a.count, a.type);
        return MPI_SUCCESS;
    }
    dt::unpack(a.stream, done, 0, a.buf, a.count, a.type);
    return MPI_SUCCESS;
}

size_t readable_bytes(MPI_File fh, const Access &a) {
    struct stat st {};
    if (::fstat(fh->fd, &st) != 0) return 0;
    const MPI_Offset eof = st.st_size;
    size_t n = 0;
    for (const Segment &s : a.segments) {
        if (s.offset >= eof) break;
        const auto here = static_cast<size_t>(std::min<MPI_Offset>(static_cast<MPI_Offset>(s.len), eof - s.offset));
        n += here;
        if (here < s.len) break;
    }
    return n;
}

int independent(MPI_File fh, Dir dir, MPI_Offset pos, void *buf, int count, MPI_Datatype type, size_t *done) {
    *done = 0;
    if (int err = check_access(fh, dir, buf, count, type)) return err;
    Access a;
    if (int err = prepare(fh, a, dir, pos, buf, count, type)) return err;
    if (int err = transfer(fh, a, done)) return err;
    return dir == Dir::read ? finish_read(fh, a, *done) : MPI_SUCCESS;
}

int collective(MPI_File fh, Dir dir, MPI_Offset pos, void *buf, int count, MPI_Datatype type, size_t *done, int prior) {
    *done = 0;
    // A member with bad arguments (or a revoked file) still takes part, with
    // no data, so that nobody waits for it; the outcome then fails everywhere.
    int local = prior != MPI_SUCCESS ? prior : revoked(fh) ? MPIX_ERR_REVOKED : check_access(fh, dir, buf, count, type);
    Access a;
    if (local == MPI_SUCCESS) local = prepare(fh, a, dir, pos, buf, count, type);
    if (local != MPI_SUCCESS) a = Access{};
    a.dir = dir;

    const bool aggregate =
        fh->size > 1 && (dir == Dir::write ? fh->hints.cb_write : fh->hints.cb_read) != CollectiveBuffering::disable;
    int code = MPI_SUCCESS;
    if (aggregate) {
        code = two_phase(fh, a, done);
    } else if (local == MPI_SUCCESS) {
        code = transfer(fh, a, done);
    }
    if (local == MPI_SUCCESS && code == MPI_SUCCESS && dir == Dir::read) code = finish_read(fh, a, *done);
    if (local == MPI_SUCCESS) local = code;
    const int outcome = agree_outcome(fh, local);
    if (outcome != MPI_SUCCESS) *done = 0;
    return outcome;
}

}  // namespace ftmpi::io
