// Which predefined operation is defined on which types: the type classes of
// MPI-3.1 §5.9.2 (C integer, floating point, logical, complex, byte, and the
// pair types for MINLOC/MAXLOC). A derived type qualifies when all its data
// is of one such kind; a user operation accepts any type.
#include "internal/op.hpp"

#include "op.hpp"
#include "type.hpp"

namespace ftmpi::op {

namespace {

using dt::Kind;

bool c_integer(Kind k) {
    switch (k) {
    case Kind::signed_char:
    case Kind::unsigned_char:
    case Kind::short_:
    case Kind::unsigned_short:
    case Kind::int_:
    case Kind::unsigned_:
    case Kind::long_:
    case Kind::unsigned_long:
    case Kind::long_long:
    case Kind::unsigned_long_long:
    case Kind::int8:
    case Kind::int16:
    case Kind::int32:
    case Kind::int64:
    case Kind::uint8:
    case Kind::uint16:
    case Kind::uint32:
    case Kind::uint64:
    case Kind::aint:
    case Kind::offset:
    case Kind::count: return true;
    default: return false;
    }
}
bool floating(Kind k) {
    return k == Kind::float_ || k == Kind::double_ || k == Kind::long_double;
}
bool logical(Kind k) {
    return k == Kind::c_bool || k == Kind::f_logical;
}
bool complex(Kind k) {
    return k == Kind::c_float_complex || k == Kind::c_double_complex || k == Kind::c_long_double_complex;
}
bool pair(Kind k) {
    return k == Kind::float_int || k == Kind::double_int || k == Kind::long_int || k == Kind::two_int ||
        k == Kind::short_int || k == Kind::long_double_int || k == Kind::two_real || k == Kind::two_double;
}

}  // namespace

bool valid(MPI_Op op, MPI_Datatype type) {
    if (!op || !type) return false;
    if (!op->predefined) return true;
    // REPLACE and NO_OP move or keep data of any layout (MPI_Accumulate's use).
    if (op->id == Id::replace || op->id == Id::no_op) return true;
    const Kind k = type->kind;
    if (k == Kind::none) return false;
    switch (op->id) {
    case Id::max:
    case Id::min: return c_integer(k) || floating(k);
    case Id::sum:
    case Id::prod: return c_integer(k) || floating(k) || complex(k);
    case Id::land:
    case Id::lor:
    case Id::lxor: return c_integer(k) || logical(k);
    case Id::band:
    case Id::bor:
    case Id::bxor: return c_integer(k) || k == Kind::byte;
    case Id::maxloc:
    case Id::minloc: return pair(k);
    case Id::replace:
    case Id::no_op: return true;
    case Id::user: return true;
    }
    return false;
}

bool commutative(MPI_Op op) {
    return op->commute;
}

void retain(MPI_Op op) {
    if (op && !op->predefined) op->refs.fetch_add(1, std::memory_order_relaxed);
}

void release(MPI_Op op) {
    if (!op || op->predefined) return;
    if (op->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete op;
}

}  // namespace ftmpi::op
