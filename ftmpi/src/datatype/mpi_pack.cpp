// MPI_Pack, MPI_Unpack, MPI_Pack_size. Our packed format is the type's data
// bytes in type-map order with no header (one node kind per job), so
// Pack_size is count * size.
#include "internal/datatype.hpp"
#include "internal/errors.hpp"
#include "internal/pmpi.hpp"
#include "type.hpp"

#include <climits>

extern "C" int MPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize, int *position,
                        MPI_Comm comm) noexcept {
    constexpr const char *fn = "MPI_Pack";
    if (incount < 0) return ftmpi::comm::raise(comm, MPI_ERR_COUNT, fn);
    if (!ftmpi::dt::valid(datatype)) return ftmpi::comm::raise(comm, MPI_ERR_TYPE, fn);
    if (!position || *position < 0 || outsize < 0 || (!outbuf && outsize > 0))
        return ftmpi::comm::raise(comm, MPI_ERR_ARG, fn);
    const size_t need = static_cast<size_t>(incount) * datatype->size;
    if (static_cast<size_t>(outsize) < static_cast<size_t>(*position) ||
        static_cast<size_t>(outsize - *position) < need)
        return ftmpi::comm::raise(comm, MPI_ERR_TRUNCATE, fn);
    if (need == 0) return MPI_SUCCESS;
    const size_t done = ftmpi::dt::pack(inbuf, incount, datatype, 0, static_cast<char *>(outbuf) + *position, need);
    *position += static_cast<int>(done);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Pack)

extern "C" int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                          MPI_Datatype datatype, MPI_Comm comm) noexcept {
    constexpr const char *fn = "MPI_Unpack";
    if (outcount < 0) return ftmpi::comm::raise(comm, MPI_ERR_COUNT, fn);
    if (!ftmpi::dt::valid(datatype)) return ftmpi::comm::raise(comm, MPI_ERR_TYPE, fn);
    if (!position || *position < 0 || insize < 0 || (!inbuf && insize > 0))
        return ftmpi::comm::raise(comm, MPI_ERR_ARG, fn);
    const size_t need = static_cast<size_t>(outcount) * datatype->size;
    if (static_cast<size_t>(insize) < static_cast<size_t>(*position) || static_cast<size_t>(insize - *position) < need)
        return ftmpi::comm::raise(comm, MPI_ERR_TRUNCATE, fn);
    if (need == 0) return MPI_SUCCESS;
    const size_t done =
        ftmpi::dt::unpack(static_cast<const char *>(inbuf) + *position, need, 0, outbuf, outcount, datatype);
    *position += static_cast<int>(done);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Unpack)

extern "C" int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size) noexcept {
    constexpr const char *fn = "MPI_Pack_size";
    if (incount < 0) return ftmpi::comm::raise(comm, MPI_ERR_COUNT, fn);
    if (!ftmpi::dt::valid(datatype)) return ftmpi::comm::raise(comm, MPI_ERR_TYPE, fn);
    if (!size) return ftmpi::comm::raise(comm, MPI_ERR_ARG, fn);
    const size_t n = static_cast<size_t>(incount) * datatype->size;
    if (n > INT_MAX) return ftmpi::comm::raise(comm, MPI_ERR_SIZE, fn);
    *size = static_cast<int>(n);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Pack_size)
