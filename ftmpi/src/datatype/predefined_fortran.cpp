// The Fortran named datatypes as C sees them (MPI_INTEGER, MPI_REAL, …,
// MPI_2REAL) and MPI-1's MPI_LB/MPI_UB markers. Sizes are gfortran's on
// this platform: default INTEGER, REAL and LOGICAL are 4 bytes.
#include "predefined.hpp"

#define FTMPI_DT_DEFINE(name, kind, ctype)                                                                             \
    __attribute__((visibility("default"))) ftmpi_predefined_datatype_u ftmpi_dt_##name;
#define FTMPI_DT_DEFINE4(name, kind, size, align)                                                                      \
    __attribute__((visibility("default"))) ftmpi_predefined_datatype_u ftmpi_dt_##name;
extern "C" {
FTMPI_DT_FORTRAN(FTMPI_DT_DEFINE4)
FTMPI_DT_FORTRAN_PAIRS(FTMPI_DT_DEFINE)
__attribute__((visibility("default"))) ftmpi_predefined_datatype_u ftmpi_dt_lb;
__attribute__((visibility("default"))) ftmpi_predefined_datatype_u ftmpi_dt_ub;
}
#undef FTMPI_DT_DEFINE
#undef FTMPI_DT_DEFINE4

namespace ftmpi::dt {

namespace {

// A pair of two values of T (Fortran's 2REAL: value and index both REAL).
template <class T>
void set_same_pair(Type &t, const char *name, Kind kind, Kind value_kind) {
    set_basic(t, name, kind, 2 * sizeof(T), alignof(T));
    t.sig.runs = {SigRun{value_kind, 2, sizeof(T)}};
}

// A marker: no data, zero extent, an explicit bound where it is placed.
void set_marker(Type &t, const char *name, bool lower) {
    set_basic(t, name, Kind::none, 0, 1);
    t.layout.blocks.clear();
    index(t.layout);
    t.sig.runs.clear();
    t.explicit_lb = lower;
    t.explicit_ub = !lower;
}

struct FortranTypesSetup {
    FortranTypesSetup() {
#define FTMPI_DT_SET4(name, kind, size, align) set_basic(ftmpi_dt_##name.object, #name, Kind::kind, size, align);
        FTMPI_DT_FORTRAN(FTMPI_DT_SET4)
#undef FTMPI_DT_SET4
        // 2INTEGER is laid out as C's 2INT (two ints).
        set_same_pair<int>(ftmpi_dt_2integer.object, "2integer", Kind::two_int, Kind::int_);
        set_same_pair<float>(ftmpi_dt_2real.object, "2real", Kind::two_real, Kind::float_);
        set_same_pair<double>(ftmpi_dt_2double_precision.object, "2double_precision", Kind::two_double, Kind::double_);
        set_marker(ftmpi_dt_lb.object, "lb", true);
        set_marker(ftmpi_dt_ub.object, "ub", false);
    }
} const fortran_types_setup;

}  // namespace

}  // namespace ftmpi::dt
