// harness/plugin.hpp — conveniences for plugins written in C++ (header only).
//
// harness::auto_function<&fn>("name") turns a plain typed C++ function into an
// AUTO table entry: the signature string is derived from fn's type at compile
// time, arguments arrive already type-checked, and any exception fn throws is
// caught here (harness/plugin_guard.hpp) and reported as
// HARNESS_ERR_PLUGIN_FAILED with its message, so nothing crosses the C boundary. Scalar-only functions also get their native
// pointer published for direct invocation.
#pragma once

#include <harness/plugin.h>
#include <harness/plugin_guard.hpp>
#include <harness/types.hpp>

#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace harness {

namespace detail {

template <class T> constexpr bool is_blob = std::is_same_v<plain_t<T>, std::string> ||
                                            std::is_same_v<plain_t<T>, std::string_view> ||
                                            std::is_same_v<plain_t<T>, Bytes>;

template <class T>
void to_value(T &&r, harness_value *out)
{
    using P = plain_t<T>;
    out->type = static_cast<std::uint32_t>(type_traits<P>::tag);
    if constexpr (std::is_same_v<P, std::int32_t>) out->v.i32 = r;
    else if constexpr (std::is_same_v<P, std::int64_t>) out->v.i64 = r;
    else if constexpr (std::is_same_v<P, std::uint64_t>) out->v.u64 = r;
    else if constexpr (std::is_same_v<P, double>) out->v.f64 = r;
    else if constexpr (std::is_same_v<P, bool>) out->v.boolean = r ? 1 : 0;
    else {
        void *copy = std::malloc(r.size() ? r.size() : 1);
        if (!copy) throw std::bad_alloc();
        if (r.size()) std::memcpy(copy, r.data(), r.size());
        out->v.blob.data = copy;
        out->v.blob.len = r.size();
        out->v.blob.owned = 1;
    }
}

template <auto Fn> struct auto_traits;
template <class R, class... A, R (*Fn)(A...)>
struct auto_traits<Fn> {
    static constexpr bool scalar_only = !is_blob<R> && (!is_blob<A> && ...);
    static constexpr const char *signature = signature_text<R, A...>::c_str();

    static int call(harness_call_ctx *ctx, const harness_value *args, std::size_t nargs, harness_value *result) noexcept
    {
        if (nargs != sizeof...(A)) {
            set_call_error(ctx, "wrong argument count");
            return HARNESS_ERR_TYPE_MISMATCH;
        }
        // An exception from fn is the function's own failure, not the host's.
        return guarded_call(
            ctx, {},
            [&] {
                invoke(args, result, std::index_sequence_for<A...>{});
                return HARNESS_OK;
            },
            HARNESS_ERR_PLUGIN_FAILED);
    }

    template <std::size_t... I>
    static void invoke(const harness_value *args, harness_value *result, std::index_sequence<I...>)
    {
        if constexpr (std::is_void_v<R>) {
            Fn(from_value<plain_t<A>>(args[I])...);
            result->type = 0;
        } else {
            to_value(Fn(from_value<plain_t<A>>(args[I])...), result);
        }
    }
};

} // namespace detail

// Not constexpr: publishing the native pointer needs a reinterpret_cast, so
// tables of these are initialized when the plugin is loaded.
template <auto Fn>
harness_function auto_function(const char *name, harness_mode default_mode = HARNESS_MODE_INLINE)
{
    using T = detail::auto_traits<Fn>;
    harness_function f{};
    f.struct_size = sizeof(harness_function);
    f.name = name;
    f.convention = HARNESS_CALL_AUTO;
    f.default_mode = static_cast<std::uint32_t>(default_mode);
    f.signature = T::signature;
    f.automatic = &T::call;
    if constexpr (T::scalar_only) f.native = reinterpret_cast<void (*)(void)>(Fn);
    return f;
}

constexpr harness_function packed_function(const char *name, harness_packed_fn fn,
                                           harness_mode default_mode = HARNESS_MODE_INLINE)
{
    harness_function f{};
    f.struct_size = sizeof(harness_function);
    f.name = name;
    f.convention = HARNESS_CALL_PACKED;
    f.default_mode = static_cast<std::uint32_t>(default_mode);
    f.packed = fn;
    return f;
}

constexpr harness_function raw_function(const char *name, harness_raw_fn fn,
                                        harness_mode default_mode = HARNESS_MODE_INLINE)
{
    harness_function f{};
    f.struct_size = sizeof(harness_function);
    f.name = name;
    f.convention = HARNESS_CALL_RAW;
    f.default_mode = static_cast<std::uint32_t>(default_mode);
    f.raw = fn;
    return f;
}

} // namespace harness
