// Definitions of the predefined datatypes: sizes, alignments and, for the
// pair types, the padding holes of the C struct they describe.
// The X-macro tables keep one entry per line:
// clang-format off
#include "predefined.hpp"

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#define FTMPI_DT_DEFINE(name, kind, ctype) __attribute__((visibility("default"))) ftmpi_predefined_datatype_u ftmpi_dt_##name;
extern "C" {
FTMPI_DT_PREDEFINED(FTMPI_DT_DEFINE)
FTMPI_DT_PAIRS(FTMPI_DT_DEFINE)
}
#undef FTMPI_DT_DEFINE

namespace ftmpi::dt {

namespace {

std::string mpi_name(const char *name) {
    std::string s = "MPI_";
    for (const char *p = name; *p; ++p) s += static_cast<char>(std::toupper(static_cast<unsigned char>(*p)));
    return s;
}

}  // namespace

void set_basic(Type &t, const char *name, Kind kind, size_t size, size_t align) {
    t.predefined = true;
    t.committed = true;
    t.kind = kind;
    t.size = size;
    t.lb = t.true_lb = 0;
    t.ub = t.true_ub = static_cast<Aint>(size);
    t.align = align;
    t.layout.blocks = {Block{0, size, 1, 0}};
    index(t.layout);
    t.sig.runs = {SigRun{kind, 1, size}};
    t.name = mpi_name(name);
}

namespace {

// The basic kind of a pair's value member, for its signature.
template <class T>
Kind value_kind() {
    if constexpr (std::is_same_v<T, float>) return Kind::float_;
    if constexpr (std::is_same_v<T, double>) return Kind::double_;
    if constexpr (std::is_same_v<T, long>) return Kind::long_;
    if constexpr (std::is_same_v<T, int>) return Kind::int_;
    if constexpr (std::is_same_v<T, short>) return Kind::short_;
    return Kind::long_double;
}

template <class T>
void set_pair(Type &t, const char *name, Kind kind) {
    using P = pair_of<T>;
    t.predefined = true;
    t.committed = true;
    t.kind = kind;
    t.size = sizeof(T) + sizeof(int);
    t.lb = t.true_lb = 0;
    t.ub = static_cast<Aint>(sizeof(P));
    t.true_ub = static_cast<Aint>(offsetof(P, index) + sizeof(int));
    t.align = alignof(P);
    Layout l;
    l.blocks = {Block{0, sizeof(T), 1, 0}, Block{static_cast<Aint>(offsetof(P, index)), sizeof(int), 1, 0}};
    t.layout = compact(l);
    t.sig.runs = {SigRun{value_kind<T>(), 1, sizeof(T)}, SigRun{Kind::int_, 1, sizeof(int)}};
    t.name = mpi_name(name);
}

// Filled before main (and before any MPI call): libftmpi's static
// initializers run when it is loaded.
struct Setup {
    Setup() {
#define FTMPI_DT_SET(name, kind, ctype) set_basic(ftmpi_dt_##name.object, #name, Kind::kind, sizeof(ctype), alignof(ctype));
        FTMPI_DT_PREDEFINED(FTMPI_DT_SET)
#undef FTMPI_DT_SET
#define FTMPI_DT_SET_PAIR(name, kind, ctype) set_pair<ctype>(ftmpi_dt_##name.object, #name, Kind::kind);
        FTMPI_DT_PAIRS(FTMPI_DT_SET_PAIR)
#undef FTMPI_DT_SET_PAIR
        // MPI_C_COMPLEX and its synonym MPI_C_FLOAT_COMPLEX are one object
        // (mpi.h); it answers to the standard's first name, as MPICH's does.
        ftmpi_dt_c_float_complex.object.name = "MPI_C_COMPLEX";
    }
} const setup;

}  // namespace

Type *predefined(Kind kind) {
    switch (kind) {
#define FTMPI_DT_CASE(name, kind_, ctype) \
    case Kind::kind_: return &ftmpi_dt_##name.object;
        FTMPI_DT_CASE(char, char_, ) FTMPI_DT_CASE(signed_char, signed_char, )
        FTMPI_DT_CASE(unsigned_char, unsigned_char, ) FTMPI_DT_CASE(wchar, wchar, )
        FTMPI_DT_CASE(short, short_, ) FTMPI_DT_CASE(unsigned_short, unsigned_short, )
        FTMPI_DT_CASE(int, int_, ) FTMPI_DT_CASE(unsigned, unsigned_, )
        FTMPI_DT_CASE(long, long_, ) FTMPI_DT_CASE(unsigned_long, unsigned_long, )
        FTMPI_DT_CASE(long_long, long_long, ) FTMPI_DT_CASE(unsigned_long_long, unsigned_long_long, )
        FTMPI_DT_CASE(int8_t, int8, ) FTMPI_DT_CASE(int16_t, int16, ) FTMPI_DT_CASE(int32_t, int32, )
        FTMPI_DT_CASE(int64_t, int64, ) FTMPI_DT_CASE(uint8_t, uint8, ) FTMPI_DT_CASE(uint16_t, uint16, )
        FTMPI_DT_CASE(uint32_t, uint32, ) FTMPI_DT_CASE(uint64_t, uint64, )
        FTMPI_DT_CASE(float, float_, ) FTMPI_DT_CASE(double, double_, ) FTMPI_DT_CASE(long_double, long_double, )
        FTMPI_DT_CASE(c_bool, c_bool, ) FTMPI_DT_CASE(c_float_complex, c_float_complex, )
        FTMPI_DT_CASE(c_double_complex, c_double_complex, )
        FTMPI_DT_CASE(c_long_double_complex, c_long_double_complex, )
        FTMPI_DT_CASE(byte, byte, ) FTMPI_DT_CASE(packed, packed, ) FTMPI_DT_CASE(aint, aint, )
        FTMPI_DT_CASE(offset, offset, ) FTMPI_DT_CASE(count, count, )
        FTMPI_DT_CASE(float_int, float_int, ) FTMPI_DT_CASE(double_int, double_int, )
        FTMPI_DT_CASE(long_int, long_int, ) FTMPI_DT_CASE(2int, two_int, ) FTMPI_DT_CASE(short_int, short_int, )
        FTMPI_DT_CASE(long_double_int, long_double_int, )
        FTMPI_DT_CASE(logical, f_logical, ) FTMPI_DT_CASE(2real, two_real, )
        FTMPI_DT_CASE(2double_precision, two_double, )
#undef FTMPI_DT_CASE
    case Kind::none: break;
    }
    return nullptr;
}

}  // namespace ftmpi::dt
// clang-format on
