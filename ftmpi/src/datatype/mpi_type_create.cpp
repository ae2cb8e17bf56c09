// MPI_Type_contiguous, _vector, _create_hvector, _indexed, _create_hindexed,
// _create_indexed_block, _create_hindexed_block, _create_struct,
// _create_resized, _dup: check the arguments, call the engine.
#include "checks.hpp"
#include "internal/comm.hpp"
#include "internal/errors.hpp"
#include "internal/pmpi.hpp"

#include <span>

using namespace ftmpi::dt;

#define FTMPI_CHECK(expr, fn)                                                                                          \
    do {                                                                                                               \
        if (const int rc_ = (expr); rc_ != MPI_SUCCESS) return ftmpi::comm::raise_unattached(rc_, fn);                 \
    } while (0)

namespace {
// Checks the output handle and builds the new type; the engine throws only
// when it cannot allocate, which the caller sees as MPI_ERR_NO_MEM.
template <class Make>
int create(const char *fn, MPI_Datatype *newtype, Make make) noexcept {
    FTMPI_CHECK(check_out(newtype), fn);
    try {
        *newtype = make();
    } catch (...) {
        return ftmpi::comm::raise_unattached(MPI_ERR_NO_MEM, fn);
    }
    return MPI_SUCCESS;
}
}  // namespace

extern "C" int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_contiguous";
    FTMPI_CHECK(check_count(count), fn);
    FTMPI_CHECK(check_old(oldtype), fn);
    return create(fn, newtype, [&] { return make_contiguous(count, oldtype); });
}
FTMPI_PMPI(Type_contiguous)

extern "C" int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                               MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_vector";
    FTMPI_CHECK(check_vector(count, blocklength, oldtype), fn);
    return create(fn, newtype, [&] { return make_vector(count, blocklength, stride, oldtype); });
}
FTMPI_PMPI(Type_vector)

extern "C" int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                       MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_create_hvector";
    FTMPI_CHECK(check_vector(count, blocklength, oldtype), fn);
    return create(fn, newtype, [&] { return make_hvector(count, blocklength, stride, oldtype); });
}
FTMPI_PMPI(Type_create_hvector)

extern "C" int MPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[],
                                MPI_Datatype oldtype, MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_indexed";
    FTMPI_CHECK(check_indexed(count, array_of_blocklengths, array_of_displacements, oldtype), fn);
    const auto n = static_cast<size_t>(count);
    return create(fn, newtype, [&] {
        return make_indexed(std::span(array_of_blocklengths, n), std::span(array_of_displacements, n), oldtype);
    });
}
FTMPI_PMPI(Type_indexed)

extern "C" int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                                        const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                        MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_create_hindexed";
    FTMPI_CHECK(check_indexed(count, array_of_blocklengths, array_of_displacements, oldtype), fn);
    const auto n = static_cast<size_t>(count);
    return create(fn, newtype, [&] {
        return make_hindexed(std::span(array_of_blocklengths, n), std::span(array_of_displacements, n), oldtype);
    });
}
FTMPI_PMPI(Type_create_hindexed)

extern "C" int MPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                             MPI_Datatype oldtype, MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_create_indexed_block";
    FTMPI_CHECK(check_indexed_block(count, blocklength, array_of_displacements, oldtype), fn);
    return create(fn, newtype, [&] {
        return make_indexed_block(blocklength, std::span(array_of_displacements, static_cast<size_t>(count)), oldtype);
    });
}
FTMPI_PMPI(Type_create_indexed_block)

extern "C" int MPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[],
                                              MPI_Datatype oldtype, MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_create_hindexed_block";
    FTMPI_CHECK(check_indexed_block(count, blocklength, array_of_displacements, oldtype), fn);
    return create(fn, newtype, [&] {
        return make_hindexed_block(blocklength, std::span(array_of_displacements, static_cast<size_t>(count)), oldtype);
    });
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
    const auto n = static_cast<size_t>(count);
    return create(fn, newtype, [&] {
        return make_struct(std::span(array_of_blocklengths, n), std::span(array_of_displacements, n),
                           std::span(array_of_types, n));
    });
}
FTMPI_PMPI(Type_create_struct)

extern "C" int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                                       MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_create_resized";
    FTMPI_CHECK(check_old(oldtype), fn);
    return create(fn, newtype, [&] { return make_resized(oldtype, lb, extent); });
}
FTMPI_PMPI(Type_create_resized)

extern "C" int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_dup";
    FTMPI_CHECK(check_old(oldtype), fn);
    if (const int rc = create(fn, newtype, [&] { return make_dup(oldtype); }); rc != MPI_SUCCESS) return rc;
    // The new handle gets old's attributes through their copy callbacks; a
    // callback's error fails the dup and leaves no new type behind.
    if (const int err = ftmpi::comm::copy_type_attributes(oldtype, *newtype); err != MPI_SUCCESS) {
        release(*newtype);
        *newtype = MPI_DATATYPE_NULL;
        return ftmpi::comm::raise_unattached(err, fn);
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_dup)
