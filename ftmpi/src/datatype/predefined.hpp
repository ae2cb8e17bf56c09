// The predefined datatype objects: MPI_INT is &ftmpi_dt_int.object and so on
// (CONTRACTS.md, "Handles"). Declared here with C linkage, as mpi.h does, so
// the engine and its tests need not include mpi.h.
// The X-macro tables keep one entry per line:
// clang-format off
#pragma once

#include "type.hpp"

#define FTMPI_DT_PREDEFINED(X)                                                     \
    X(char, char_, char) X(signed_char, signed_char, signed char)                  \
    X(unsigned_char, unsigned_char, unsigned char) X(wchar, wchar, wchar_t)        \
    X(short, short_, short) X(unsigned_short, unsigned_short, unsigned short)      \
    X(int, int_, int) X(unsigned, unsigned_, unsigned)                             \
    X(long, long_, long) X(unsigned_long, unsigned_long, unsigned long)            \
    X(long_long_int, long_long, long long) X(long_long, long_long, long long)      \
    X(unsigned_long_long, unsigned_long_long, unsigned long long)                  \
    X(int8_t, int8, std::int8_t) X(int16_t, int16, std::int16_t)                   \
    X(int32_t, int32, std::int32_t) X(int64_t, int64, std::int64_t)                \
    X(uint8_t, uint8, std::uint8_t) X(uint16_t, uint16, std::uint16_t)             \
    X(uint32_t, uint32, std::uint32_t) X(uint64_t, uint64, std::uint64_t)          \
    X(float, float_, float) X(double, double_, double)                             \
    X(long_double, long_double, long double)                                       \
    X(c_bool, c_bool, bool) X(cxx_bool, c_bool, bool)                              \
    X(c_complex, c_float_complex, ftmpi::dt::complex_of<float>)                    \
    X(c_float_complex, c_float_complex, ftmpi::dt::complex_of<float>)              \
    X(c_double_complex, c_double_complex, ftmpi::dt::complex_of<double>)           \
    X(c_long_double_complex, c_long_double_complex, ftmpi::dt::complex_of<long double>) \
    X(cxx_float_complex, c_float_complex, ftmpi::dt::complex_of<float>)            \
    X(cxx_double_complex, c_double_complex, ftmpi::dt::complex_of<double>)         \
    X(cxx_long_double_complex, c_long_double_complex, ftmpi::dt::complex_of<long double>) \
    X(byte, byte, unsigned char) X(packed, packed, unsigned char)                  \
    X(aint, aint, std::int64_t) X(offset, offset, std::int64_t)                    \
    X(count, count, std::int64_t)

// The MINLOC/MAXLOC pair types: value then int, with C's padding.
#define FTMPI_DT_PAIRS(X)                                                          \
    X(float_int, float_int, float) X(double_int, double_int, double)               \
    X(long_int, long_int, long) X(2int, two_int, int)                              \
    X(short_int, short_int, short) X(long_double_int, long_double_int, long double)

namespace ftmpi::dt {
// C's `T _Complex`: two T, aligned as T.
template <class T>
struct complex_of {
    T re, im;
};
// C's struct for a pair type.
template <class T>
struct pair_of {
    T value;
    int index;
};
}  // namespace ftmpi::dt

// The Fortran named types, usable from C (MPI-3.1 §3.2.2, §17.2.5): the
// ones with a C equivalent share its kind, so the ops accept them; those
// without one here (REAL2, REAL16, COMPLEX32, INTEGER16: gfortran's half
// and quad kinds) move data but take no predefined op (kind none).
// X(name, kind, size, align)
#define FTMPI_DT_FORTRAN(X)                                                        \
    X(integer, int32, 4, 4) X(real, float_, 4, 4)                                  \
    X(double_precision, double_, 8, 8) X(complex, c_float_complex, 8, 4)           \
    X(double_complex, c_double_complex, 16, 8) X(logical, f_logical, 4, 4)         \
    X(character, char_, 1, 1)                                                      \
    X(integer1, int8, 1, 1) X(integer2, int16, 2, 2) X(integer4, int32, 4, 4)      \
    X(integer8, int64, 8, 8) X(integer16, none, 16, 16)                            \
    X(real2, none, 2, 2) X(real4, float_, 4, 4) X(real8, double_, 8, 8)            \
    X(real16, none, 16, 16)                                                        \
    X(complex8, c_float_complex, 8, 4) X(complex16, c_double_complex, 16, 8)       \
    X(complex32, none, 32, 16)

// Fortran's MINLOC/MAXLOC pairs: X(name, kind, value type).
#define FTMPI_DT_FORTRAN_PAIRS(X) \
    X(2integer, two_int, int) X(2real, two_real, float) X(2double_precision, two_double, double)

#define FTMPI_DT_DECLARE(name, kind, ctype) extern ftmpi_predefined_datatype_u ftmpi_dt_##name;
#define FTMPI_DT_DECLARE4(name, kind, size, align) extern ftmpi_predefined_datatype_u ftmpi_dt_##name;
extern "C" {
FTMPI_DT_PREDEFINED(FTMPI_DT_DECLARE)
FTMPI_DT_PAIRS(FTMPI_DT_DECLARE)
FTMPI_DT_FORTRAN(FTMPI_DT_DECLARE4)
FTMPI_DT_FORTRAN_PAIRS(FTMPI_DT_DECLARE)
// MPI-1's MPI_LB / MPI_UB markers: no data, an explicit lower (upper) bound
// where a struct places them (removed in MPI-3.0; MPICH still ships them).
extern ftmpi_predefined_datatype_u ftmpi_dt_lb, ftmpi_dt_ub;
}
#undef FTMPI_DT_DECLARE
#undef FTMPI_DT_DECLARE4

namespace ftmpi::dt {
// Fills a predefined basic type: `name` is the lower-case part after MPI_.
void set_basic(Type &t, const char *name, Kind kind, size_t size, size_t align);
}  // namespace ftmpi::dt
// clang-format on
