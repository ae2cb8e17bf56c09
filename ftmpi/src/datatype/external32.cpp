// external32 conversion of packed streams (external32.hpp).
#include "external32.hpp"

#include <bit>
#include <cfloat>
#include <cstdint>
#include <cstring>

namespace ftmpi::dt::external32 {

namespace {

enum class Conv : std::uint8_t {
    reverse,          // same size, big-endian
    narrow_signed,    // fewer bytes; sign-extended on the way back
    narrow_unsigned,  // fewer bytes; zero-extended on the way back
    long_double,      // native long double <-> IEEE binary128
};

// How the basic elements of one signature run convert: each is `per_element`
// units of `native` bytes, each `ext` bytes in external32.
struct Unit {
    Conv conv;
    size_t native, ext, per_element;
};

Unit unit_of(const SigRun &r) {
    switch (r.kind) {
    case Kind::long_: return {Conv::narrow_signed, r.bytes, 4, 1};
    case Kind::unsigned_long: return {Conv::narrow_unsigned, r.bytes, 4, 1};
    case Kind::wchar: return {Conv::narrow_unsigned, r.bytes, 2, 1};
    case Kind::long_double: return {Conv::long_double, r.bytes, 16, 1};
    case Kind::c_long_double_complex: return {Conv::long_double, r.bytes / 2, 16, 2};
    case Kind::c_float_complex:
    case Kind::c_double_complex: return {Conv::reverse, r.bytes / 2, r.bytes / 2, 2};
    // The Fortran types without a C kind: only MPI_COMPLEX32 (two REAL16)
    // is 32 bytes; INTEGER16, REAL2 and REAL16 are one big-endian number.
    case Kind::none:
        if (r.bytes == 32) return {Conv::reverse, 16, 16, 2};
        return {Conv::reverse, r.bytes, r.bytes, 1};
    default: return {Conv::reverse, r.bytes, r.bytes, 1};
    }
}

constexpr bool little = std::endian::native == std::endian::little;

// An unsigned integer of n <= 8 bytes in host order, and back.
std::uint64_t load_host(const unsigned char *p, size_t n) {
    std::uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= std::uint64_t{p[little ? i : n - 1 - i]} << (8 * i);
    return v;
}
void store_host(std::uint64_t v, unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; ++i) p[little ? i : n - 1 - i] = static_cast<unsigned char>(v >> (8 * i));
}
// The same, big-endian.
std::uint64_t load_big(const unsigned char *p, size_t n) {
    std::uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v = (v << 8) | p[i];
    return v;
}
void store_big(std::uint64_t v, unsigned char *p, size_t n) {
    for (size_t i = n; i-- > 0; v >>= 8) p[i] = static_cast<unsigned char>(v);
}

void reverse_copy(const unsigned char *from, unsigned char *to, size_t n) {
    if constexpr (little) {
        for (size_t i = 0; i < n; ++i) to[i] = from[n - 1 - i];
    } else {
        std::memcpy(to, from, n);
    }
}

// x87 extended precision (64-bit significand with an explicit integer bit,
// 15-bit exponent, in the first 10 of long double's bytes) <-> binary128
// (same exponent bias, 112-bit fraction). Widening is exact; narrowing
// rounds to nearest, ties to even.
constexpr std::uint64_t top_bit = std::uint64_t{1} << 63;
constexpr std::uint64_t low48 = (std::uint64_t{1} << 48) - 1;

void x87_to_quad(const unsigned char *from, unsigned char *to) {
    const std::uint64_t m = load_host(from, 8);
    const auto se = static_cast<std::uint32_t>(load_host(from + 8, 2));
    const std::uint64_t sign = se >> 15;
    std::uint64_t exp = se & 0x7fff;
    std::uint64_t frac63 = m & ~top_bit;
    if (exp == 0 && (m & top_bit)) exp = 1;  // pseudo-denormal: the same value, normalised
    if (exp != 0 && exp != 0x7fff && !(m & top_bit)) {
        exp = 0x7fff;  // unnormal: not a number on x87 since the 387
        frac63 = std::uint64_t{1} << 62;
    }
    store_big((sign << 63) | (exp << 48) | (frac63 >> 15), to, 8);
    store_big(frac63 << 49, to + 8, 8);
}

void quad_to_x87(const unsigned char *from, unsigned char *to) {
    const std::uint64_t hi = load_big(from, 8), lo = load_big(from + 8, 8);
    const std::uint64_t sign = hi >> 63;
    std::uint64_t exp = (hi >> 48) & 0x7fff;
    std::uint64_t frac63 = ((hi & low48) << 15) | (lo >> 49);
    const std::uint64_t dropped = lo & ((std::uint64_t{1} << 49) - 1);
    std::uint64_t m = 0;
    if (exp == 0x7fff) {
        if (frac63 == 0 && dropped != 0) frac63 = std::uint64_t{1} << 62;  // a NaN stays a NaN
        m = top_bit | frac63;
    } else {
        const std::uint64_t half = std::uint64_t{1} << 48;
        if (dropped > half || (dropped == half && (frac63 & 1))) ++frac63;
        if (exp == 0) {
            // Zero or subnormal: no integer bit; rounding up to 2^63 makes
            // the smallest normal number.
            if (frac63 == top_bit) exp = 1;
            m = frac63;
        } else {
            if (frac63 == top_bit) {  // the fraction rounded over into the exponent
                frac63 = 0;
                ++exp;
            }
            m = top_bit | frac63;
            if (exp == 0x7fff) m = top_bit;  // overflowed to infinity
        }
    }
    store_host(m, to, 8);
    store_host((sign << 15) | exp, to + 8, 2);
    std::memset(to + 10, 0, sizeof(long double) - 10);
}

static_assert(sizeof(long double) == 16, "long double is kept in 16 bytes");
static_assert(LDBL_MANT_DIG == 64 || LDBL_MANT_DIG == 113, "long double is x87 extended or IEEE binary128");
constexpr bool x87 = LDBL_MANT_DIG == 64;

void encode_unit(const Unit &u, const unsigned char *from, unsigned char *to) {
    switch (u.conv) {
    case Conv::reverse: reverse_copy(from, to, u.native); return;
    case Conv::narrow_signed:
    case Conv::narrow_unsigned: store_big(load_host(from, u.native), to, u.ext); return;
    case Conv::long_double:
        if constexpr (x87)
            x87_to_quad(from, to);
        else
            reverse_copy(from, to, 16);
        return;
    }
}

void decode_unit(const Unit &u, const unsigned char *from, unsigned char *to) {
    switch (u.conv) {
    case Conv::reverse: reverse_copy(from, to, u.native); return;
    case Conv::narrow_signed:
    case Conv::narrow_unsigned: {
        std::uint64_t v = load_big(from, u.ext);
        const std::uint64_t sign_bit = std::uint64_t{1} << (8 * u.ext - 1);
        if (u.conv == Conv::narrow_signed && (v & sign_bit)) v |= ~((sign_bit << 1) - 1);
        store_host(v, to, u.native);
        return;
    }
    case Conv::long_double:
        if constexpr (x87)
            quad_to_x87(from, to);
        else
            reverse_copy(from, to, 16);
        return;
    }
}

// Walks `count` elements of the signature, one unit at a time, with the
// native and the external cursor.
template <class Step>
void walk(const Signature &sig, size_t count, Step step) {
    size_t native = 0, ext = 0;
    for (size_t e = 0; e < count * sig.reps; ++e)
        for (const SigRun &r : sig.runs) {
            const Unit u = unit_of(r);
            for (size_t k = 0; k < r.n * u.per_element; ++k) {
                step(u, native, ext);
                native += u.native;
                ext += u.ext;
            }
        }
}

}  // namespace

size_t size_of(const Signature &sig) {
    size_t rep = 0;
    for (const SigRun &r : sig.runs) {
        const Unit u = unit_of(r);
        rep += r.n * u.per_element * u.ext;
    }
    return rep * sig.reps;
}

bool same_size(const Signature &sig) {
    for (const SigRun &r : sig.runs) {
        const Unit u = unit_of(r);
        if (u.ext != u.native) return false;
    }
    return true;
}

void encode(const Signature &sig, size_t count, const unsigned char *from, unsigned char *to) {
    walk(sig, count, [&](const Unit &u, size_t native, size_t ext) { encode_unit(u, from + native, to + ext); });
}

void decode(const Signature &sig, size_t count, const unsigned char *from, unsigned char *to) {
    walk(sig, count, [&](const Unit &u, size_t native, size_t ext) { decode_unit(u, from + ext, to + native); });
}

}  // namespace ftmpi::dt::external32
