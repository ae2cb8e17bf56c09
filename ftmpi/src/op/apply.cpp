// ftmpi::op::apply: inout = in op inout for `count` elements of a type.
// Predefined and contiguous types run the kernel on the user's buffers; any
// other derived type is packed into aligned scratch buffers, combined there,
// and the result unpacked, so an op works on every layout the standard
// allows it on.
#include "internal/datatype.hpp"
#include "internal/op.hpp"
#include "kernels.hpp"
#include "op.hpp"
#include "predefined.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace ftmpi::op {

namespace {

using dt::Kind;
namespace k = kernels;

// Calls fn.template operator()<T>() with the C type of a non-pair kind.
template <class Fn>
bool with_type(Kind kind, Fn &&fn) {
    switch (kind) {
    case Kind::signed_char:
    case Kind::int8: fn.template operator()<signed char>(); return true;
    case Kind::unsigned_char:
    case Kind::uint8:
    case Kind::byte: fn.template operator()<unsigned char>(); return true;
    case Kind::short_:
    case Kind::int16: fn.template operator()<short>(); return true;
    case Kind::unsigned_short:
    case Kind::uint16: fn.template operator()<unsigned short>(); return true;
    case Kind::int_:
    case Kind::int32: fn.template operator()<int>(); return true;
    case Kind::unsigned_:
    case Kind::uint32: fn.template operator()<unsigned>(); return true;
    case Kind::long_: fn.template operator()<long>(); return true;
    case Kind::unsigned_long: fn.template operator()<unsigned long>(); return true;
    case Kind::long_long: fn.template operator()<long long>(); return true;
    case Kind::unsigned_long_long: fn.template operator()<unsigned long long>(); return true;
    case Kind::int64:
    case Kind::aint:
    case Kind::offset:
    case Kind::count: fn.template operator()<std::int64_t>(); return true;
    case Kind::uint64: fn.template operator()<std::uint64_t>(); return true;
    case Kind::float_: fn.template operator()<float>(); return true;
    case Kind::double_: fn.template operator()<double>(); return true;
    case Kind::long_double: fn.template operator()<long double>(); return true;
    case Kind::c_bool: fn.template operator()<bool>(); return true;
    case Kind::f_logical: fn.template operator()<int>(); return true;  // only LAND/LOR/LXOR reach it
    case Kind::c_float_complex: fn.template operator()<std::complex<float>>(); return true;
    case Kind::c_double_complex: fn.template operator()<std::complex<double>>(); return true;
    case Kind::c_long_double_complex: fn.template operator()<std::complex<long double>>(); return true;
    default: return false;
    }
}

template <class Op>
bool run(Kind kind, const void *in, void *inout, size_t n) {
    return with_type(kind, [&]<class T>() {
        if constexpr (Op::template accepts<T>) k::loop<Op, T>(in, inout, n);
    });
}

// n elements of a basic kind, aligned, back to back.
bool combine_basic(Id id, Kind kind, const void *in, void *inout, size_t n) {
    switch (id) {
    case Id::max: return run<k::Max>(kind, in, inout, n);
    case Id::min: return run<k::Min>(kind, in, inout, n);
    case Id::sum: return run<k::Sum>(kind, in, inout, n);
    case Id::prod: return run<k::Prod>(kind, in, inout, n);
    case Id::land: return run<k::Land>(kind, in, inout, n);
    case Id::lor: return run<k::Lor>(kind, in, inout, n);
    case Id::lxor: return run<k::Lxor>(kind, in, inout, n);
    case Id::band: return run<k::Band>(kind, in, inout, n);
    case Id::bor: return run<k::Bor>(kind, in, inout, n);
    case Id::bxor: return run<k::Bxor>(kind, in, inout, n);
    default: return false;
    }
}

// n (value, int) pairs `stride` bytes apart, the int `index_at` bytes in.
template <class V>
void combine_pairs_of(bool max, const void *in, void *inout, size_t n, size_t stride, size_t index_at) {
    if (max)
        k::loc_loop<V, true>(in, inout, n, stride, index_at);
    else
        k::loc_loop<V, false>(in, inout, n, stride, index_at);
}

bool combine_pairs(Id id, Kind kind, const void *in, void *inout, size_t n, bool packed) {
    if (id != Id::maxloc && id != Id::minloc) return false;
    const bool max = id == Id::maxloc;
    auto go = [&]<class V>() {
        using P = dt::pair_of<V>;
        const size_t stride = packed ? sizeof(V) + sizeof(int) : sizeof(P);
        const size_t index_at = packed ? sizeof(V) : offsetof(P, index);
        combine_pairs_of<V>(max, in, inout, n, stride, index_at);
    };
    switch (kind) {
    case Kind::float_int: go.template operator()<float>(); return true;
    case Kind::double_int: go.template operator()<double>(); return true;
    case Kind::long_int: go.template operator()<long>(); return true;
    case Kind::two_int: go.template operator()<int>(); return true;
    case Kind::short_int: go.template operator()<short>(); return true;
    case Kind::long_double_int: go.template operator()<long double>(); return true;
    case Kind::two_real:
        max ? k::loc_loop<float, true, float>(in, inout, n, 2 * sizeof(float), sizeof(float))
            : k::loc_loop<float, false, float>(in, inout, n, 2 * sizeof(float), sizeof(float));
        return true;
    case Kind::two_double:
        max ? k::loc_loop<double, true, double>(in, inout, n, 2 * sizeof(double), sizeof(double))
            : k::loc_loop<double, false, double>(in, inout, n, 2 * sizeof(double), sizeof(double));
        return true;
    default: return false;
    }
}

// Combine `n` elements of `kind` laid out as the predefined type (packed =
// false) or packed back to back (packed = true).
bool combine(Id id, Kind kind, const void *in, void *inout, size_t n, bool packed) {
    if (n == 0) return true;
    if (id == Id::replace) {
        const size_t elem = packed ? dt::predefined(kind)->size : static_cast<size_t>(dt::predefined(kind)->extent());
        std::memcpy(inout, in, n * elem);
        return true;
    }
    if (combine_pairs(id, kind, in, inout, n, packed)) return true;
    return combine_basic(id, kind, in, inout, n);
}

}  // namespace

int apply(MPI_Op op, const void *in, void *inout, int count, MPI_Datatype type) {
    if (!op) return MPI_ERR_OP;
    if (!type) return MPI_ERR_TYPE;
    if (count < 0) return MPI_ERR_COUNT;
    if (!op->predefined) {
        MPI_Datatype t = type;
        if (op->user_c != nullptr) {
            MPI_Count n = count;
            op->user_c(const_cast<void *>(in), inout, &n, &t);
        } else {
            int n = count;
            op->user(const_cast<void *>(in), inout, &n, &t);
        }
        return MPI_SUCCESS;
    }
    if (!valid(op, type)) return MPI_ERR_OP;
    if (op->id == Id::no_op || count == 0 || type->size == 0) return MPI_SUCCESS;
    if (op->id == Id::replace && type->kind == Kind::none) {
        // Mixed data: copy it through the packed form, whatever its layout.
        const size_t bytes = static_cast<size_t>(count) * type->size;
        std::unique_ptr<unsigned char[]> scratch(new unsigned char[bytes]);
        dt::pack(in, count, type, 0, scratch.get(), bytes);
        dt::unpack(scratch.get(), bytes, 0, inout, count, type);
        return MPI_SUCCESS;
    }
    const Kind kind = type->kind;
    const dt::Type *basic = dt::predefined(kind);
    if (type->predefined) {
        return combine(op->id, kind, in, inout, static_cast<size_t>(count), false) ? MPI_SUCCESS : MPI_ERR_OP;
    }
    const size_t bytes = static_cast<size_t>(count) * type->size;
    const size_t n = bytes / basic->size;
    if (dt::contiguous(type) && basic->size == static_cast<size_t>(basic->extent())) {
        const auto at = [&](const void *p) {
            return reinterpret_cast<void *>(reinterpret_cast<std::uintptr_t>(p) +
                                            static_cast<std::uintptr_t>(type->true_lb));
        };
        return combine(op->id, kind, at(in), at(inout), n, false) ? MPI_SUCCESS : MPI_ERR_OP;
    }
    // Scratch in max_align_t units so the kernels' typed loads are aligned.
    const size_t words = (bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t);
    std::unique_ptr<std::max_align_t[]> a(new std::max_align_t[words]), b(new std::max_align_t[words]);
    dt::pack(in, count, type, 0, a.get(), bytes);
    dt::pack(inout, count, type, 0, b.get(), bytes);
    if (!combine(op->id, kind, a.get(), b.get(), n, true)) return MPI_ERR_OP;
    dt::unpack(b.get(), bytes, 0, inout, count, type);
    return MPI_SUCCESS;
}

}  // namespace ftmpi::op
