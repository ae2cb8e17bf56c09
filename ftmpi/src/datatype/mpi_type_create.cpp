// MPI_Type_contiguous, _vector, _create_hvector, _indexed, _create_hindexed,
// _create_indexed_block, _create_hindexed_block, _create_struct,
// _create_resized, _dup: check the arguments, call the engine.
#include "checks.hpp"
#include "internal/comm.hpp"
#include "internal/errors.hpp"
#include "internal/pmpi.hpp"

#include <span>

using namespace ftmpi::dt;

namespace {
int fail(int code, const char *function) {
    return ftmpi::comm::raise(MPI_COMM_NULL, code, function);
}
}  // namespace

#define FTMPI_CHECK(expr, fn)                                                                                          \
    do {                                                                                                               \
        if (const int rc_ = (expr); rc_ != MPI_SUCCESS) return fail(rc_, fn);                                          \
    } while (0)

extern "C" int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_contiguous";
    FTMPI_CHECK(check_count(count), fn);
    FTMPI_CHECK(check_old(oldtype), fn);
    FTMPI_CHECK(check_out(newtype), fn);
    try {
        *newtype = make_contiguous(count, oldtype);
    } catch (...) {
        return fail(MPI_ERR_NO_MEM, fn);
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_contiguous)

extern "C" int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                               MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_vector";
    FTMPI_CHECK(check_count(count), fn);
    FTMPI_CHECK(blocklength >= 0 ? MPI_SUCCESS : MPI_ERR_ARG, fn);
    FTMPI_CHECK(check_old(oldtype), fn);
    FTMPI_CHECK(check_out(newtype), fn);
    try {
        *newtype = make_vector(count, blocklength, stride, oldtype);
    } catch (...) {
        return fail(MPI_ERR_NO_MEM, fn);
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_vector)

extern "C" int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                       MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_create_hvector";
    FTMPI_CHECK(check_count(count), fn);
    FTMPI_CHECK(blocklength >= 0 ? MPI_SUCCESS : MPI_ERR_ARG, fn);
    FTMPI_CHECK(check_old(oldtype), fn);
    FTMPI_CHECK(check_out(newtype), fn);
    try {
        *newtype = make_hvector(count, blocklength, stride, oldtype);
    } catch (...) {
        return fail(MPI_ERR_NO_MEM, fn);
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_create_hvector)

extern "C" int MPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[],
                                MPI_Datatype oldtype, MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_indexed";
    FTMPI_CHECK(check_count(count), fn);
    FTMPI_CHECK(check_blocklens(count, array_of_blocklengths), fn);
    FTMPI_CHECK(count == 0 || array_of_displacements ? MPI_SUCCESS : MPI_ERR_ARG, fn);
    FTMPI_CHECK(check_old(oldtype), fn);
    FTMPI_CHECK(check_out(newtype), fn);
    const auto n = static_cast<size_t>(count);
    try {
        *newtype = make_indexed(std::span(array_of_blocklengths, n), std::span(array_of_displacements, n), oldtype);
    } catch (...) {
        return fail(MPI_ERR_NO_MEM, fn);
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_indexed)

extern "C" int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                                        const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                        MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_create_hindexed";
    FTMPI_CHECK(check_count(count), fn);
    FTMPI_CHECK(check_blocklens(count, array_of_blocklengths), fn);
    FTMPI_CHECK(count == 0 || array_of_displacements ? MPI_SUCCESS : MPI_ERR_ARG, fn);
    FTMPI_CHECK(check_old(oldtype), fn);
    FTMPI_CHECK(check_out(newtype), fn);
    const auto n = static_cast<size_t>(count);
    try {
        *newtype = make_hindexed(std::span(array_of_blocklengths, n), std::span(array_of_displacements, n), oldtype);
    } catch (...) {
        return fail(MPI_ERR_NO_MEM, fn);
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_create_hindexed)

extern "C" int MPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                             MPI_Datatype oldtype, MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_create_indexed_block";
    FTMPI_CHECK(check_count(count), fn);
    FTMPI_CHECK(blocklength >= 0 ? MPI_SUCCESS : MPI_ERR_ARG, fn);
    FTMPI_CHECK(count == 0 || array_of_displacements ? MPI_SUCCESS : MPI_ERR_ARG, fn);
    FTMPI_CHECK(check_old(oldtype), fn);
    FTMPI_CHECK(check_out(newtype), fn);
    try {
        *newtype =
            make_indexed_block(blocklength, std::span(array_of_displacements, static_cast<size_t>(count)), oldtype);
    } catch (...) {
        return fail(MPI_ERR_NO_MEM, fn);
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_create_indexed_block)

extern "C" int MPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[],
                                              MPI_Datatype oldtype, MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_create_hindexed_block";
    FTMPI_CHECK(check_count(count), fn);
    FTMPI_CHECK(blocklength >= 0 ? MPI_SUCCESS : MPI_ERR_ARG, fn);
    FTMPI_CHECK(count == 0 || array_of_displacements ? MPI_SUCCESS : MPI_ERR_ARG, fn);
    FTMPI_CHECK(check_old(oldtype), fn);
    FTMPI_CHECK(check_out(newtype), fn);
    try {
        *newtype =
            make_hindexed_block(blocklength, std::span(array_of_displacements, static_cast<size_t>(count)), oldtype);
    } catch (...) {
        return fail(MPI_ERR_NO_MEM, fn);
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_create_hindexed_block)

extern "C" int MPI_Type_create_struct(int count, const int array_of_blocklengths[],
                                      const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                                      MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_create_struct";
    FTMPI_CHECK(check_count(count), fn);
    FTMPI_CHECK(check_blocklens(count, array_of_blocklengths), fn);
    FTMPI_CHECK(count == 0 || (array_of_displacements && array_of_types) ? MPI_SUCCESS : MPI_ERR_ARG, fn);
    for (int i = 0; i < count; ++i) FTMPI_CHECK(check_old(array_of_types[i]), fn);
    FTMPI_CHECK(check_out(newtype), fn);
    const auto n = static_cast<size_t>(count);
    try {
        *newtype = make_struct(std::span(array_of_blocklengths, n), std::span(array_of_displacements, n),
                               std::span(array_of_types, n));
    } catch (...) {
        return fail(MPI_ERR_NO_MEM, fn);
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_create_struct)

extern "C" int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                                       MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_create_resized";
    FTMPI_CHECK(check_old(oldtype), fn);
    FTMPI_CHECK(check_out(newtype), fn);
    try {
        *newtype = make_resized(oldtype, lb, extent);
    } catch (...) {
        return fail(MPI_ERR_NO_MEM, fn);
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_create_resized)

extern "C" int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_dup";
    FTMPI_CHECK(check_old(oldtype), fn);
    FTMPI_CHECK(check_out(newtype), fn);
    try {
        *newtype = make_dup(oldtype);
    } catch (...) {
        return fail(MPI_ERR_NO_MEM, fn);
    }
    // The new handle gets old's attributes through their copy callbacks; a
    // callback's error fails the dup and leaves no new type behind.
    if (const int err = ftmpi::comm::copy_type_attributes(oldtype, *newtype); err != MPI_SUCCESS) {
        release(*newtype);
        *newtype = MPI_DATATYPE_NULL;
        return fail(err, fn);
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_dup)
