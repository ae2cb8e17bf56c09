// MPI_Type_create_f90_integer, _real, _complex (MPI-3.1 §17.2.5) and
// MPI_Type_match_size. The f90 calls return a predefined type with the data
// of the Fortran named type of the range and precision asked for
// (gfortran's kinds: INTEGER 1/2/4/8/16, REAL 4/8/16), whose envelope is
// MPI_COMBINER_F90_* with the (p, r) asked for: one handle per distinct
// request, made on first use and kept for the life of the process.
// MPI_Type_match_size returns the named types themselves.
#include "internal/errors.hpp"
#include "internal/pmpi.hpp"
#include "predefined.hpp"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <iterator>
#include <map>
#include <mutex>

using ftmpi::dt::Combiner;

namespace {

// The f90 type for (combiner, params) with the data of `named`; the same
// handle for the same request. Null if out of memory.
MPI_Datatype f90_type(Combiner combiner, MPI_Datatype named, int p, int r) noexcept {
    const bool has_r = combiner != Combiner::f90_integer;
    const std::array<int, 3> key{static_cast<int>(combiner), p, has_r ? r : 0};
    static std::mutex mutex;
    // Never destroyed: the handles are predefined and may be used until exit.
    static auto *made = new std::map<std::array<int, 3>, MPI_Datatype>;
    try {
        std::lock_guard lock(mutex);
        MPI_Datatype &t = (*made)[key];
        if (!t) {
            const int params[] = {p, r};
            t = ftmpi::dt::make_f90(combiner, *named, std::span<const int>(params, has_r ? 2 : 1));
        }
        return t;
    } catch (...) {
        return MPI_DATATYPE_NULL;
    }
}

// The REAL kind with at least precision p and exponent range r
// (MPI_UNDEFINED: no requirement), or null.
MPI_Datatype real_for(int p, int r, bool complex) {
    struct Kind {
        int precision, range;
        MPI_Datatype real, cplx;
    };
    for (const Kind &k : {Kind{6, 37, &ftmpi_dt_real4.object, &ftmpi_dt_complex8.object},
                          Kind{15, 307, &ftmpi_dt_real8.object, &ftmpi_dt_complex16.object},
                          Kind{33, 4931, &ftmpi_dt_real16.object, &ftmpi_dt_complex32.object}})
        if ((p == MPI_UNDEFINED || p <= k.precision) && (r == MPI_UNDEFINED || r <= k.range))
            return complex ? k.cplx : k.real;
    return MPI_DATATYPE_NULL;
}
}  // namespace

extern "C" int MPI_Type_create_f90_integer(int r, MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_create_f90_integer";
    if (!newtype) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    // Decimal digits each INTEGER kind holds (SELECTED_INT_KIND).
    struct Kind {
        int range;
        MPI_Datatype type;
    };
    for (const Kind &k :
         {Kind{2, &ftmpi_dt_integer1.object}, Kind{4, &ftmpi_dt_integer2.object}, Kind{9, &ftmpi_dt_integer4.object},
          Kind{18, &ftmpi_dt_integer8.object}, Kind{38, &ftmpi_dt_integer16.object}})
        if (r <= k.range) {
            MPI_Datatype t = f90_type(Combiner::f90_integer, k.type, r, 0);
            if (!t) return ftmpi::comm::raise_unattached(MPI_ERR_NO_MEM, fn);
            *newtype = t;
            return MPI_SUCCESS;
        }
    return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
}
FTMPI_PMPI(Type_create_f90_integer)

extern "C" int MPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_create_f90_real";
    if (!newtype || (p == MPI_UNDEFINED && r == MPI_UNDEFINED)) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    MPI_Datatype named = real_for(p, r, false);
    if (!named) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    MPI_Datatype t = f90_type(Combiner::f90_real, named, p, r);
    if (!t) return ftmpi::comm::raise_unattached(MPI_ERR_NO_MEM, fn);
    *newtype = t;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_create_f90_real)

extern "C" int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype) noexcept {
    constexpr const char *fn = "MPI_Type_create_f90_complex";
    if (!newtype || (p == MPI_UNDEFINED && r == MPI_UNDEFINED)) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    MPI_Datatype named = real_for(p, r, true);
    if (!named) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    MPI_Datatype t = f90_type(Combiner::f90_complex, named, p, r);
    if (!t) return ftmpi::comm::raise_unattached(MPI_ERR_NO_MEM, fn);
    *newtype = t;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_create_f90_complex)

// The Fortran type of that class and size, as MPICH answers (MPI-3.1
// §17.2.5 names MPI_INTEGERn, MPI_REALn, MPI_COMPLEXn).
extern "C" int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype) noexcept {
    constexpr const char *fn = "MPI_Type_match_size";
    if (!datatype) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    static constexpr int kinds = 5;
    MPI_Datatype candidates[kinds] = {};
    if (typeclass == MPI_TYPECLASS_INTEGER) {
        MPI_Datatype list[kinds] = {&ftmpi_dt_integer1.object, &ftmpi_dt_integer2.object, &ftmpi_dt_integer4.object,
                                    &ftmpi_dt_integer8.object, &ftmpi_dt_integer16.object};
        std::copy(list, list + kinds, candidates);
    } else if (typeclass == MPI_TYPECLASS_REAL) {
        MPI_Datatype list[] = {&ftmpi_dt_real2.object, &ftmpi_dt_real4.object, &ftmpi_dt_real8.object,
                               &ftmpi_dt_real16.object};
        std::copy(std::begin(list), std::end(list), candidates);
    } else if (typeclass == MPI_TYPECLASS_COMPLEX) {
        MPI_Datatype list[] = {&ftmpi_dt_complex8.object, &ftmpi_dt_complex16.object, &ftmpi_dt_complex32.object};
        std::copy(std::begin(list), std::end(list), candidates);
    } else {
        return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    }
    for (MPI_Datatype t : candidates)
        if (t && size >= 0 && t->size == static_cast<size_t>(size)) {
            *datatype = t;
            return MPI_SUCCESS;
        }
    return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
}
FTMPI_PMPI(Type_match_size)
