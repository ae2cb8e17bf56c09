// The predefined datatype objects: MPI_INT is (&ftmpi_dt_int) and so on
// (CONTRACTS.md, "Handles"). Declared here with C linkage, as mpi.h does, so
// the engine and its tests need not include mpi.h.
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

#define FTMPI_DT_DECLARE(name, kind, ctype) extern ftmpi_datatype_s ftmpi_dt_##name;
extern "C" {
FTMPI_DT_PREDEFINED(FTMPI_DT_DECLARE)
FTMPI_DT_PAIRS(FTMPI_DT_DECLARE)
}
#undef FTMPI_DT_DECLARE
