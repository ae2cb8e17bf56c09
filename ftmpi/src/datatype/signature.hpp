// A type signature: the sequence of basic elements in one element of a type,
// run-length encoded with one outer repeat (like Layout). MPI_Get_elements
// counts basic elements in a received prefix with it, and the ops learn
// which C type they combine from `Kind`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ftmpi::dt {

// Every predefined type's element kind. Pair kinds (MINLOC/MAXLOC) are kinds
// for ops; in a signature they appear as their two members.
enum class Kind : std::uint8_t {
    none,  // mixed (a derived type with several kinds)
    char_,
    signed_char,
    unsigned_char,
    wchar,
    short_,
    unsigned_short,
    int_,
    unsigned_,
    long_,
    unsigned_long,
    long_long,
    unsigned_long_long,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    float_,
    double_,
    long_double,
    c_bool,
    c_float_complex,
    c_double_complex,
    c_long_double_complex,
    byte,
    packed,
    aint,
    offset,
    count,
    float_int,
    double_int,
    long_int,
    two_int,
    short_int,
    long_double_int,
    // Fortran: LOGICAL (an int, logical ops only), and the MINLOC/MAXLOC
    // pairs whose index has the value's type (2REAL, 2DOUBLE_PRECISION).
    f_logical,
    two_real,
    two_double,
};

struct SigRun {
    Kind kind = Kind::none;
    size_t n = 0;      // elements of this kind in a row
    size_t bytes = 0;  // size of one
    bool operator==(const SigRun &) const = default;
};

struct Signature {
    std::vector<SigRun> runs;
    size_t reps = 1;

    size_t rep_bytes() const;
    size_t rep_elements() const;
    size_t bytes() const { return reps * rep_bytes(); }
    size_t elements() const { return reps * rep_elements(); }
    bool operator==(const Signature &) const = default;
};

Signature replicate(const Signature &child, size_t n);
Signature concat(const std::vector<Signature> &parts);

// Basic elements in the first `bytes` bytes of a stream of elements with
// this signature; -1 when `bytes` ends inside a basic element.
std::int64_t elements_in(const Signature &, size_t bytes);
// The bytes that hold the first `elements` basic elements of such a stream
// (the inverse of elements_in, for MPI_Status_set_elements).
size_t bytes_of(const Signature &, size_t elements);

}  // namespace ftmpi::dt
