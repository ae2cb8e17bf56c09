// MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size for the
// "external32" representation (MPI-3.1 §13.5.2): the type's native packed
// stream converted by dt::to_external32 / from_external32 (external32.hpp:
// big-endian, fixed sizes), the same conversion MPI-IO's file views use.
// Each call's large-count (`_c`) form shares its body, counts in MPI_Count.
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

int pack_external(const char *fn, const char datarep[], const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
                  void *outbuf, MPI_Aint outsize, MPI_Aint *position) {
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

int unpack_external(const char *fn, const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position,
                    void *outbuf, MPI_Count outcount, MPI_Datatype datatype) {
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

int pack_external_size(const char *fn, const char datarep[], MPI_Count incount, MPI_Datatype datatype, MPI_Aint *size) {
    if (!is_external32(datarep)) return ftmpi::comm::raise_unattached(MPI_ERR_UNSUPPORTED_DATAREP, fn);
    if (incount < 0) return ftmpi::comm::raise_unattached(MPI_ERR_COUNT, fn);
    if (!valid(datatype)) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, fn);
    if (!size) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    *size = static_cast<MPI_Aint>(static_cast<size_t>(incount) * external32_size(datatype));
    return MPI_SUCCESS;
}

}  // namespace

// Each call twice: the int form and the MPI-4 large-count (`_c`) form.
#define FTMPI_EXTERNAL32(Suffix, Count)                                                                                \
    extern "C" int MPI_Pack_external##Suffix(const char datarep[], const void *inbuf, Count incount,                   \
                                             MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,                    \
                                             MPI_Aint *position) noexcept {                                            \
        return pack_external("MPI_Pack_external" #Suffix, datarep, inbuf, incount, datatype, outbuf, outsize,          \
                             position);                                                                                \
    }                                                                                                                  \
    FTMPI_PMPI(Pack_external##Suffix)                                                                                  \
    extern "C" int MPI_Unpack_external##Suffix(const char datarep[], const void *inbuf, MPI_Aint insize,               \
                                               MPI_Aint *position, void *outbuf, Count outcount,                       \
                                               MPI_Datatype datatype) noexcept {                                       \
        return unpack_external("MPI_Unpack_external" #Suffix, datarep, inbuf, insize, position, outbuf, outcount,      \
                               datatype);                                                                              \
    }                                                                                                                  \
    FTMPI_PMPI(Unpack_external##Suffix)                                                                                \
    extern "C" int MPI_Pack_external_size##Suffix(const char datarep[], Count incount, MPI_Datatype datatype,          \
                                                  MPI_Aint *size) noexcept {                                           \
        return pack_external_size("MPI_Pack_external_size" #Suffix, datarep, incount, datatype, size);                 \
    }                                                                                                                  \
    FTMPI_PMPI(Pack_external_size##Suffix)

// (Positions and sizes are MPI_Aint in both: MPI_Count is the same type.)
FTMPI_EXTERNAL32(, int)
FTMPI_EXTERNAL32(_c, MPI_Count)
#undef FTMPI_EXTERNAL32
