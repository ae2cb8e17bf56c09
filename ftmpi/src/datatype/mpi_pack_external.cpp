// MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size for the
// "external32" representation (MPI-3.1 §13.5.2): big-endian, with sizes
// that on x86-64 Linux equal the native ones. So external32 is our packed
// stream with every basic element byte-reversed (complex: each half), found
// through the type's signature. long double would need a conversion from
// x87 extended to IEEE binary128 that is not done here: MPI_ERR_CONVERSION.
// Each call's large-count (`_c`) form shares its body, counts in MPI_Count.
#include "internal/datatype.hpp"
#include "internal/errors.hpp"
#include "internal/pmpi.hpp"
#include "type.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

using namespace ftmpi::dt;

namespace {

bool is_external32(const char *datarep) {
    return datarep && std::strcmp(datarep, "external32") == 0;
}

// The byte-order unit of a basic element: its size, half for complex.
size_t swap_unit(const SigRun &r) {
    switch (r.kind) {
    case Kind::c_float_complex:
    case Kind::c_double_complex:
    case Kind::c_long_double_complex: return r.bytes / 2;
    default: return r.bytes;
    }
}

bool convertible(const Signature &sig) {
    return std::none_of(sig.runs.begin(), sig.runs.end(), [](const SigRun &r) {
        return r.kind == Kind::long_double || r.kind == Kind::c_long_double_complex;
    });
}

// Native packed <-> external32 (the same operation both ways).
void swap_stream(const Signature &sig, size_t count, unsigned char *p) {
    if constexpr (std::endian::native == std::endian::big) return;
    for (size_t e = 0; e < count * sig.reps; ++e)
        for (const SigRun &r : sig.runs) {
            const size_t unit = swap_unit(r);
            const size_t units = r.n * (r.bytes / unit);
            if (unit == 1) {
                p += units;
                continue;
            }
            for (size_t k = 0; k < units; ++k, p += unit) std::reverse(p, p + unit);
        }
}

}  // namespace

int ftmpi::dt::external32_swap(MPI_Datatype datatype, size_t count, void *stream) {
    if (!convertible(datatype->sig)) return MPI_ERR_CONVERSION;
    if (count > 0 && datatype->size > 0) swap_stream(datatype->sig, count, static_cast<unsigned char *>(stream));
    return MPI_SUCCESS;
}

namespace {

int pack_external(const char *fn, const char datarep[], const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
                  void *outbuf, MPI_Aint outsize, MPI_Aint *position) {
    if (!is_external32(datarep)) return ftmpi::comm::raise_unattached(MPI_ERR_UNSUPPORTED_DATAREP, fn);
    if (incount < 0) return ftmpi::comm::raise_unattached(MPI_ERR_COUNT, fn);
    if (!valid(datatype)) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, fn);
    if (!position || *position < 0 || outsize < 0 || (!outbuf && outsize > 0))
        return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    if (!convertible(datatype->sig)) return ftmpi::comm::raise_unattached(MPI_ERR_CONVERSION, fn);
    const size_t need = static_cast<size_t>(incount) * datatype->size;
    if (outsize < *position || static_cast<size_t>(outsize - *position) < need)
        return ftmpi::comm::raise_unattached(MPI_ERR_TRUNCATE, fn);
    if (need == 0) return MPI_SUCCESS;
    auto *out = static_cast<unsigned char *>(outbuf) + *position;
    pack(inbuf, incount, datatype, 0, out, need);
    swap_stream(datatype->sig, static_cast<size_t>(incount), out);
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
    if (!convertible(datatype->sig)) return ftmpi::comm::raise_unattached(MPI_ERR_CONVERSION, fn);
    const size_t need = static_cast<size_t>(outcount) * datatype->size;
    if (insize < *position || static_cast<size_t>(insize - *position) < need)
        return ftmpi::comm::raise_unattached(MPI_ERR_TRUNCATE, fn);
    if (need == 0) return MPI_SUCCESS;
    try {
        const auto *in = static_cast<const unsigned char *>(inbuf) + *position;
        std::vector<unsigned char> native(in, in + need);
        swap_stream(datatype->sig, static_cast<size_t>(outcount), native.data());
        unpack(native.data(), need, 0, outbuf, outcount, datatype);
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
    *size = static_cast<MPI_Aint>(static_cast<size_t>(incount) * datatype->size);
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
