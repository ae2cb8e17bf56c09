// MPI_Type_contiguous, _vector, _create_hvector, _indexed, _create_hindexed,
// _create_indexed_block, _create_hindexed_block, _create_struct,
// _create_resized, _dup: check the arguments, call the engine. The MPI-4
// large-count (`_c`) form of each takes MPI_Counts and runs the same body.
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

template <class Int>
int build_contiguous(const char *fn, Int count, MPI_Datatype oldtype, MPI_Datatype *newtype) {
    FTMPI_CHECK(check_count(count), fn);
    FTMPI_CHECK(check_old(oldtype), fn);
    return create(fn, newtype, [&] { return make_contiguous(count, oldtype); });
}

template <class Int>
int build_vector(const char *fn, Int count, Int blocklength, Int stride, MPI_Datatype oldtype, MPI_Datatype *newtype) {
    FTMPI_CHECK(check_vector(count, blocklength, oldtype), fn);
    return create(fn, newtype, [&] { return make_vector(count, blocklength, stride, oldtype); });
}

template <class Int>
int build_hvector(const char *fn, Int count, Int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                  MPI_Datatype *newtype) {
    FTMPI_CHECK(check_vector(count, blocklength, oldtype), fn);
    return create(fn, newtype, [&] { return make_hvector(count, blocklength, stride, oldtype); });
}

template <class Int>
int build_indexed(const char *fn, Int count, const Int blocklengths[], const Int displacements[], MPI_Datatype oldtype,
                  MPI_Datatype *newtype) {
    FTMPI_CHECK(check_indexed(count, blocklengths, displacements, oldtype), fn);
    const auto n = static_cast<size_t>(count);
    return create(fn, newtype,
                  [&] { return make_indexed(std::span(blocklengths, n), std::span(displacements, n), oldtype); });
}

template <class Int>
int build_hindexed(const char *fn, Int count, const Int blocklengths[], const MPI_Aint displacements[],
                   MPI_Datatype oldtype, MPI_Datatype *newtype) {
    FTMPI_CHECK(check_indexed(count, blocklengths, displacements, oldtype), fn);
    const auto n = static_cast<size_t>(count);
    return create(fn, newtype,
                  [&] { return make_hindexed(std::span(blocklengths, n), std::span(displacements, n), oldtype); });
}

template <class Int>
int build_indexed_block(const char *fn, Int count, Int blocklength, const Int displacements[], MPI_Datatype oldtype,
                        MPI_Datatype *newtype) {
    FTMPI_CHECK(check_indexed_block(count, blocklength, displacements, oldtype), fn);
    return create(fn, newtype, [&] {
        return make_indexed_block(blocklength, std::span(displacements, static_cast<size_t>(count)), oldtype);
    });
}

template <class Int>
int build_hindexed_block(const char *fn, Int count, Int blocklength, const MPI_Aint displacements[],
                         MPI_Datatype oldtype, MPI_Datatype *newtype) {
    FTMPI_CHECK(check_indexed_block(count, blocklength, displacements, oldtype), fn);
    return create(fn, newtype, [&] {
        return make_hindexed_block(blocklength, std::span(displacements, static_cast<size_t>(count)), oldtype);
    });
}

template <class Int>
int build_structure(const char *fn, Int count, const Int blocklengths[], const MPI_Aint displacements[],
                    const MPI_Datatype types[], MPI_Datatype *newtype) {
    FTMPI_CHECK(check_count(count), fn);
    FTMPI_CHECK(check_blocklens(count, blocklengths), fn);
    FTMPI_CHECK(count == 0 || (displacements && types) ? MPI_SUCCESS : MPI_ERR_ARG, fn);
    for (Int i = 0; i < count; ++i) FTMPI_CHECK(check_old(types[i]), fn);
    const auto n = static_cast<size_t>(count);
    return create(fn, newtype, [&] {
        return make_struct(std::span(blocklengths, n), std::span(displacements, n), std::span(types, n));
    });
}

}  // namespace

// MPI_<Name>Suffix with parameters Params, calling body<Int>(Args).
#define FTMPI_CONSTRUCTOR_AS(Name, Suffix, Int, Params, body, Args)                                                    \
    extern "C" int MPI_##Name##Suffix Params noexcept {                                                                \
        return body<Int> Args;                                                                                         \
    }                                                                                                                  \
    FTMPI_PMPI(Name##Suffix)

// MPI_<Name> (counts in int) and MPI_<Name>_c (in MPI_Count), both calling
// body(function name, ...). Params(Int) is the parameter list.
#define FTMPI_CONSTRUCTOR(Name, Params, body, ...)                                                                     \
    FTMPI_CONSTRUCTOR_AS(Name, , int, Params(int), body, ("MPI_" #Name, __VA_ARGS__))                                  \
    FTMPI_CONSTRUCTOR_AS(Name, _c, MPI_Count, Params(MPI_Count), body, ("MPI_" #Name "_c", __VA_ARGS__))

#define FTMPI_CONTIGUOUS_PARAMS(Int) (Int count, MPI_Datatype oldtype, MPI_Datatype * newtype)
FTMPI_CONSTRUCTOR(Type_contiguous, FTMPI_CONTIGUOUS_PARAMS, build_contiguous, count, oldtype, newtype)

#define FTMPI_VECTOR_PARAMS(Int) (Int count, Int blocklength, Int stride, MPI_Datatype oldtype, MPI_Datatype * newtype)
FTMPI_CONSTRUCTOR(Type_vector, FTMPI_VECTOR_PARAMS, build_vector, count, blocklength, stride, oldtype, newtype)

#define FTMPI_HVECTOR_PARAMS(Int)                                                                                      \
    (Int count, Int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype * newtype)
FTMPI_CONSTRUCTOR(Type_create_hvector, FTMPI_HVECTOR_PARAMS, build_hvector, count, blocklength, stride, oldtype,
                  newtype)

#define FTMPI_INDEXED_PARAMS(Int)                                                                                      \
    (Int count, const Int array_of_blocklengths[], const Int array_of_displacements[], MPI_Datatype oldtype,           \
     MPI_Datatype *newtype)
FTMPI_CONSTRUCTOR(Type_indexed, FTMPI_INDEXED_PARAMS, build_indexed, count, array_of_blocklengths,
                  array_of_displacements, oldtype, newtype)

#define FTMPI_HINDEXED_PARAMS(Int)                                                                                     \
    (Int count, const Int array_of_blocklengths[], const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,      \
     MPI_Datatype *newtype)
FTMPI_CONSTRUCTOR(Type_create_hindexed, FTMPI_HINDEXED_PARAMS, build_hindexed, count, array_of_blocklengths,
                  array_of_displacements, oldtype, newtype)

#define FTMPI_INDEXED_BLOCK_PARAMS(Int)                                                                                \
    (Int count, Int blocklength, const Int array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype)
FTMPI_CONSTRUCTOR(Type_create_indexed_block, FTMPI_INDEXED_BLOCK_PARAMS, build_indexed_block, count, blocklength,
                  array_of_displacements, oldtype, newtype)

#define FTMPI_HINDEXED_BLOCK_PARAMS(Int)                                                                               \
    (Int count, Int blocklength, const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype)
FTMPI_CONSTRUCTOR(Type_create_hindexed_block, FTMPI_HINDEXED_BLOCK_PARAMS, build_hindexed_block, count, blocklength,
                  array_of_displacements, oldtype, newtype)

#define FTMPI_STRUCT_PARAMS(Int)                                                                                       \
    (Int count, const Int array_of_blocklengths[], const MPI_Aint array_of_displacements[],                            \
     const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
FTMPI_CONSTRUCTOR(Type_create_struct, FTMPI_STRUCT_PARAMS, build_structure, count, array_of_blocklengths,
                  array_of_displacements, array_of_types, newtype)

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
