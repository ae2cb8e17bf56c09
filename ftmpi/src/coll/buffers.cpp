// Typed-buffer arithmetic shared by the algorithms: block addresses and copies (buffers.hpp).
#include "buffers.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

namespace ftmpi::coll {

size_t data_bytes(int count, MPI_Datatype type) {
    return count <= 0 ? 0 : static_cast<size_t>(count) * dt::size(type);
}

int copy(const void *src, int scount, MPI_Datatype stype, void *dst, int rcount, MPI_Datatype rtype) {
    const size_t bytes = data_bytes(scount, stype);
    if (bytes > data_bytes(rcount, rtype)) return MPI_ERR_TRUNCATE;
    if (bytes == 0) return MPI_SUCCESS;
    if (stype == rtype && dt::contiguous(stype)) {
        if (src != dst)
            std::memmove(static_cast<char *>(dst) + dt::true_lb(rtype),
                         static_cast<const char *>(src) + dt::true_lb(stype), bytes);
        return MPI_SUCCESS;
    }
    // Through the packed form in slices, so a large copy needs little memory.
    constexpr size_t slice = 256 * 1024;
    std::unique_ptr<char[]> staging(new char[std::min(slice, bytes)]);
    for (size_t done = 0; done < bytes;) {
        const size_t len = std::min(slice, bytes - done);
        const size_t packed = dt::pack(src, scount, stype, done, staging.get(), len);
        const size_t unpacked = dt::unpack(staging.get(), packed, done, dst, rcount, rtype);
        if (packed == 0 || unpacked != packed) return MPI_ERR_INTERN;
        done += packed;
    }
    return MPI_SUCCESS;
}

}  // namespace ftmpi::coll
