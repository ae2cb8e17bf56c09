// MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size for the
// "external32" representation (MPI-3.1 §13.5.2): the type's native packed
// stream converted by dt::to_external32 / from_external32 (external32.hpp:
// big-endian, fixed sizes), the same conversion MPI-IO's file views use.
#include "internal/datatype.hpp"
#include "internal/errors.hpp"
#include "internal/pmpi.hpp"
#include "type.hpp"

#include <cstring>
#include <vector>

using namespace ftmpi::dt;

namespace {

bool is_external32(const char *datarep) {
    return datarep && std::strcmp(datarep, "external32") == 0;
}

}  // namespace

extern "C" int MPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype,
                                 void *outbuf, MPI_Aint outsize, MPI_Aint *position) noexcept {
    constexpr const char *fn = "MPI_Pack_external";
    if (!is_external32(datarep)) return ftmpi::comm::raise_unattached(MPI_ERR_UNSUPPORTED_DATAREP, fn);
    if (incount < 0) return ftmpi::comm::raise_unattached(MPI_ERR_COUNT, fn);
    if (!valid(datatype)) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, fn);
    if (!position || *position < 0 || outsize < 0 || (!outbuf && outsize > 0))
        return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    const size_t need = static_cast<size_t>(incount) * external32_size(datatype);
    if (outsize < *position || static_cast<size_t>(outsize - *position) < need)
        return ftmpi::comm::raise_unattached(MPI_ERR_TRUNCATE, fn);
    if (need == 0) return MPI_SUCCESS;
    try {
        const size_t native_bytes = static_cast<size_t>(incount) * datatype->size;
        std::vector<unsigned char> native(native_bytes);
        pack(inbuf, incount, datatype, 0, native.data(), native_bytes);
        to_external32(datatype, static_cast<size_t>(incount), native.data(),
                      static_cast<unsigned char *>(outbuf) + *position);
    } catch (...) {
        return ftmpi::comm::raise_unattached(MPI_ERR_NO_MEM, fn);
    }
    *position += static_cast<MPI_Aint>(need);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Pack_external)

extern "C" int MPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position,
                                   void *outbuf, int outcount, MPI_Datatype datatype) noexcept {
    constexpr const char *fn = "MPI_Unpack_external";
    if (!is_external32(datarep)) return ftmpi::comm::raise_unattached(MPI_ERR_UNSUPPORTED_DATAREP, fn);
    if (outcount < 0) return ftmpi::comm::raise_unattached(MPI_ERR_COUNT, fn);
    if (!valid(datatype)) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, fn);
    if (!position || *position < 0 || insize < 0 || (!inbuf && insize > 0))
        return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    const size_t need = static_cast<size_t>(outcount) * external32_size(datatype);
    if (insize < *position || static_cast<size_t>(insize - *position) < need)
        return ftmpi::comm::raise_unattached(MPI_ERR_TRUNCATE, fn);
    if (need == 0) return MPI_SUCCESS;
    try {
        const size_t native_bytes = static_cast<size_t>(outcount) * datatype->size;
        std::vector<unsigned char> native(native_bytes);
        from_external32(datatype, static_cast<size_t>(outcount), static_cast<const unsigned char *>(inbuf) + *position,
                        native.data());
        unpack(native.data(), native_bytes, 0, outbuf, outcount, datatype);
    } catch (...) {
        return ftmpi::comm::raise_unattached(MPI_ERR_NO_MEM, fn);
    }
    *position += static_cast<MPI_Aint>(need);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Unpack_external)

extern "C" int MPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
                                      MPI_Aint *size) noexcept {
    constexpr const char *fn = "MPI_Pack_external_size";
    if (!is_external32(datarep)) return ftmpi::comm::raise_unattached(MPI_ERR_UNSUPPORTED_DATAREP, fn);
    if (incount < 0) return ftmpi::comm::raise_unattached(MPI_ERR_COUNT, fn);
    if (!valid(datatype)) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, fn);
    if (!size) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    *size = static_cast<MPI_Aint>(static_cast<size_t>(incount) * external32_size(datatype));
    return MPI_SUCCESS;
}
FTMPI_PMPI(Pack_external_size)
