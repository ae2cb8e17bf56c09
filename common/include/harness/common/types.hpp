// harness/common/types.hpp — C++ types ↔ pack-buffer types, at compile time.
//
// Used by plugins (plugin.hpp) to build AUTO wrappers and their signature
// strings, and by Hlib to pack typed calls and check them against the
// plugin's declared signature. Supported: int32_t, int64_t, uint64_t, double,
// bool, std::string (std::string_view as a plugin argument), Bytes.
#pragma once

#include <harness/common/pack.hpp>
#include <harness/common/plugin.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace harness {

template <class T>
struct type_traits;
template <>
struct type_traits<void> {
    static constexpr int tag = 0;
    static constexpr std::string_view name = "void";
};
template <>
struct type_traits<std::int32_t> {
    static constexpr int tag = HARNESS_T_I32;
    static constexpr std::string_view name = "i32";
};
template <>
struct type_traits<std::int64_t> {
    static constexpr int tag = HARNESS_T_I64;
    static constexpr std::string_view name = "i64";
};
template <>
struct type_traits<std::uint64_t> {
    static constexpr int tag = HARNESS_T_U64;
    static constexpr std::string_view name = "u64";
};
template <>
struct type_traits<double> {
    static constexpr int tag = HARNESS_T_F64;
    static constexpr std::string_view name = "f64";
};
template <>
struct type_traits<bool> {
    static constexpr int tag = HARNESS_T_BOOL;
    static constexpr std::string_view name = "bool";
};
template <>
struct type_traits<std::string> {
    static constexpr int tag = HARNESS_T_STR;
    static constexpr std::string_view name = "str";
};
template <>
struct type_traits<std::string_view> {
    static constexpr int tag = HARNESS_T_STR;
    static constexpr std::string_view name = "str";
};
template <>
struct type_traits<Bytes> {
    static constexpr int tag = HARNESS_T_BYTES;
    static constexpr std::string_view name = "bytes";
};

template <class T>
using plain_t = std::remove_cvref_t<T>;

// Signature text "ret(a,b)" as a constexpr, NUL-terminated char array.
template <class R, class... A>
struct signature_text {
    static constexpr std::size_t length() {
        std::size_t n = type_traits<plain_t<R>>::name.size() + 2;
        ((n += type_traits<plain_t<A>>::name.size() + 1), ...);
        return sizeof...(A) ? n - 1 : n;
    }
    static constexpr std::array<char, length() + 1> build() {
        std::array<char, length() + 1> out{};
        std::size_t i = 0;
        auto put = [&](std::string_view s) {
            for (char c : s) out[i++] = c;
        };
        put(type_traits<plain_t<R>>::name);
        put("(");
        bool first = true;
        ((put(first ? "" : ","), put(type_traits<plain_t<A>>::name), first = false), ...);
        put(")");
        out[i] = '\0';
        return out;
    }
    static constexpr auto value = build();
    static constexpr const char *c_str() { return value.data(); }
};

inline void pack_typed(Packer &p, std::int32_t v) {
    p.i32(v);
}
inline void pack_typed(Packer &p, std::int64_t v) {
    p.i64(v);
}
inline void pack_typed(Packer &p, std::uint64_t v) {
    p.u64(v);
}
inline void pack_typed(Packer &p, double v) {
    p.f64(v);
}
inline void pack_typed(Packer &p, bool v) {
    p.boolean(v);
}
inline void pack_typed(Packer &p, std::string_view v) {
    p.str(v);
}
inline void pack_typed(Packer &p, const std::string &v) {
    p.str(v);
}
inline void pack_typed(Packer &p, const char *v) {
    p.str(v);
}
inline void pack_typed(Packer &p, const Bytes &v) {
    p.bytes(v);
}

inline bool unpack_typed(Unpacker &u, std::int32_t &v) {
    return u.i32(v);
}
inline bool unpack_typed(Unpacker &u, std::int64_t &v) {
    return u.i64(v);
}
inline bool unpack_typed(Unpacker &u, std::uint64_t &v) {
    return u.u64(v);
}
inline bool unpack_typed(Unpacker &u, double &v) {
    return u.f64(v);
}
inline bool unpack_typed(Unpacker &u, bool &v) {
    return u.boolean(v);
}
inline bool unpack_typed(Unpacker &u, std::string &v) {
    return u.str(v);
}
inline bool unpack_typed(Unpacker &u, Bytes &v) {
    return u.bytes(v);
}

// harness_value → C++ argument (views point into the request).
template <class T>
T from_value(const harness_value &v);
template <>
inline std::int32_t from_value<std::int32_t>(const harness_value &v) {
    return v.v.i32;
}
template <>
inline std::int64_t from_value<std::int64_t>(const harness_value &v) {
    return v.v.i64;
}
template <>
inline std::uint64_t from_value<std::uint64_t>(const harness_value &v) {
    return v.v.u64;
}
template <>
inline double from_value<double>(const harness_value &v) {
    return v.v.f64;
}
template <>
inline bool from_value<bool>(const harness_value &v) {
    return v.v.boolean != 0;
}
template <>
inline std::string_view from_value<std::string_view>(const harness_value &v) {
    return {static_cast<const char *>(v.v.blob.data), v.v.blob.len};
}
template <>
inline std::string from_value<std::string>(const harness_value &v) {
    return std::string(from_value<std::string_view>(v));
}
template <>
inline Bytes from_value<Bytes>(const harness_value &v) {
    auto p = static_cast<const std::uint8_t *>(v.v.blob.data);
    return Bytes(p, p + v.v.blob.len);
}

}  // namespace harness
