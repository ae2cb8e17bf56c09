// The predefined operations as element functions, and the loops that apply
// them. Loops are plain indexed loops over restrict pointers so the compiler
// vectorizes them. Signed integer SUM/PROD wrap (computed unsigned): an
// overflowing reduction must not be undefined behaviour inside the library.
#pragma once

#include <complex>
#include <cstddef>
#include <cstring>
#include <functional>
#include <type_traits>

namespace ftmpi::op::kernels {

template <class T>
constexpr bool is_bool = std::is_same_v<T, bool>;
template <class T>
constexpr bool is_number = std::is_arithmetic_v<T> && !is_bool<T>;
template <class T>
struct is_complex_t : std::false_type {};
template <class T>
struct is_complex_t<std::complex<T>> : std::true_type {};
template <class T>
constexpr bool is_complex = is_complex_t<T>::value;

// Integer arithmetic done in an unsigned type at least as wide as unsigned
// int, so neither overflow nor promotion to int is undefined.
template <class T>
using wide_unsigned = std::common_type_t<std::make_unsigned_t<T>, unsigned>;

struct Max {
    template <class T>
    static constexpr bool accepts = is_number<T>;
    template <class T>
    static T f(T a, T b) {
        return a > b ? a : b;
    }
};
struct Min {
    template <class T>
    static constexpr bool accepts = is_number<T>;
    template <class T>
    static T f(T a, T b) {
        return a < b ? a : b;
    }
};
// a op b, for integers computed in wide_unsigned<T> so that it wraps.
template <class T, class Op>
T wrapping(T a, T b, Op op) {
    if constexpr (std::is_integral_v<T>) {
        using U = wide_unsigned<T>;
        return static_cast<T>(op(static_cast<U>(a), static_cast<U>(b)));
    } else {
        return op(a, b);
    }
}
struct Sum {
    template <class T>
    static constexpr bool accepts = is_number<T> || is_complex<T>;
    template <class T>
    static T f(T a, T b) {
        return wrapping(a, b, std::plus<>());
    }
};
struct Prod {
    template <class T>
    static constexpr bool accepts = is_number<T> || is_complex<T>;
    template <class T>
    static T f(T a, T b) {
        return wrapping(a, b, std::multiplies<>());
    }
};
struct Land {
    template <class T>
    static constexpr bool accepts = std::is_integral_v<T>;
    template <class T>
    static T f(T a, T b) {
        return static_cast<T>(a && b);
    }
};
struct Lor {
    template <class T>
    static constexpr bool accepts = std::is_integral_v<T>;
    template <class T>
    static T f(T a, T b) {
        return static_cast<T>(a || b);
    }
};
struct Lxor {
    template <class T>
    static constexpr bool accepts = std::is_integral_v<T>;
    template <class T>
    static T f(T a, T b) {
        return static_cast<T>(!a != !b);
    }
};
struct Band {
    template <class T>
    static constexpr bool accepts = std::is_integral_v<T> && !is_bool<T>;
    template <class T>
    static T f(T a, T b) {
        return static_cast<T>(a & b);
    }
};
struct Bor {
    template <class T>
    static constexpr bool accepts = std::is_integral_v<T> && !is_bool<T>;
    template <class T>
    static T f(T a, T b) {
        return static_cast<T>(a | b);
    }
};
struct Bxor {
    template <class T>
    static constexpr bool accepts = std::is_integral_v<T> && !is_bool<T>;
    template <class T>
    static T f(T a, T b) {
        return static_cast<T>(a ^ b);
    }
};

// inout[i] = in[i] op inout[i] over n elements of T, aligned.
template <class Op, class T>
void loop(const void *in, void *inout, size_t n) {
    const T *__restrict a = static_cast<const T *>(in);
    T *__restrict b = static_cast<T *>(inout);
    for (size_t i = 0; i < n; ++i) b[i] = Op::f(a[i], b[i]);
}

// MAXLOC/MINLOC over (value, index) pairs `stride` bytes apart with the
// index at `index_at`: the C struct layout for user buffers, the packed
// layout (no padding, maybe unaligned) for derived types. The index is an
// int (C's pair types) or of the value's type (Fortran's 2REAL, …). Ties
// keep the smaller index.
template <class V, bool Max, class I = int>
void loc_loop(const void *in, void *inout, size_t n, size_t stride, size_t index_at) {
    const auto *a = static_cast<const unsigned char *>(in);
    auto *b = static_cast<unsigned char *>(inout);
    for (size_t i = 0; i < n; ++i, a += stride, b += stride) {
        V va, vb;
        I ia, ib;
        std::memcpy(&va, a, sizeof(V));
        std::memcpy(&vb, b, sizeof(V));
        std::memcpy(&ia, a + index_at, sizeof(I));
        std::memcpy(&ib, b + index_at, sizeof(I));
        const bool take_a = Max ? va > vb : va < vb;
        if (take_a) {
            std::memcpy(b, &va, sizeof(V));
            std::memcpy(b + index_at, &ia, sizeof(I));
        } else if (!(va != vb) && ia < ib) {
            std::memcpy(b + index_at, &ia, sizeof(I));
        }
    }
}

}  // namespace ftmpi::op::kernels
