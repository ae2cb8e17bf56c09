// harness/common/plugin.hpp — conveniences for plugins written in C++ (header only).
//
// harness::auto_function<&fn>("name") turns a plain typed C++ function into an
// AUTO table entry: the signature string is derived from fn's type at compile
// time, arguments arrive already type-checked, and any exception fn throws is
// caught here (harness/common/plugin_guard.hpp) and reported as
// HARNESS_ERR_PLUGIN_FAILED with its message, so nothing crosses the C
// boundary. Scalar-only functions also get their native pointer published for
// direct invocation. packed_function and raw_function make the other entries;
// plugin_descriptor and HARNESS_PLUGIN_EXPORT the descriptor and its symbol.
#pragma once

#include <harness/common/plugin.h>
#include <harness/common/plugin_guard.hpp>
#include <harness/common/types.hpp>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace harness {

namespace detail {

template <class T>
constexpr bool is_blob = std::is_same_v<plain_t<T>, std::string> || std::is_same_v<plain_t<T>, std::string_view> ||
    std::is_same_v<plain_t<T>, Bytes>;

template <class T>
void to_value(T &&r, harness_value *out) {
    using P = plain_t<T>;
    out->type = static_cast<std::uint32_t>(type_traits<P>::tag);
    if constexpr (std::is_same_v<P, std::int32_t>)
        out->v.i32 = r;
    else if constexpr (std::is_same_v<P, std::int64_t>)
        out->v.i64 = r;
    else if constexpr (std::is_same_v<P, std::uint64_t>)
        out->v.u64 = r;
    else if constexpr (std::is_same_v<P, double>)
        out->v.f64 = r;
    else if constexpr (std::is_same_v<P, bool>)
        out->v.boolean = r ? 1 : 0;
    else {
        void *copy = std::malloc(r.size() ? r.size() : 1);
        if (!copy) throw std::bad_alloc();
        if (r.size()) std::memcpy(copy, r.data(), r.size());
        out->v.blob.data = copy;
        out->v.blob.len = r.size();
        out->v.blob.owned = 1;
    }
}

template <auto Fn>
struct auto_traits;
template <class R, class... A, R (*Fn)(A...)>
struct auto_traits<Fn> {
    static constexpr bool scalar_only = !is_blob<R> && (!is_blob<A> && ...);
    static constexpr const char *signature = signature_text<R, A...>::c_str();

    static int call(harness_call_ctx *ctx, const harness_value *args, std::size_t nargs,
                    harness_value *result) noexcept {
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
    static void invoke(const harness_value *args, harness_value *result, std::index_sequence<I...>) {
        if constexpr (std::is_void_v<R>) {
            Fn(from_value<plain_t<A>>(args[I])...);
            result->type = 0;
        } else {
            to_value(Fn(from_value<plain_t<A>>(args[I])...), result);
        }
    }
};

// The fields every table entry sets; the caller adds its function pointer.
constexpr harness_function table_entry(const char *name, harness_convention convention, harness_mode default_mode) {
    harness_function f{};
    f.struct_size = sizeof(harness_function);
    f.name = name;
    f.convention = static_cast<std::uint32_t>(convention);
    f.default_mode = static_cast<std::uint32_t>(default_mode);
    return f;
}

}  // namespace detail

// Not constexpr: publishing the native pointer needs a reinterpret_cast, so
// tables of these are initialized when the plugin is loaded.
template <auto Fn>
harness_function auto_function(const char *name, harness_mode default_mode = HARNESS_MODE_INLINE) {
    using T = detail::auto_traits<Fn>;
    harness_function f = detail::table_entry(name, HARNESS_CALL_AUTO, default_mode);
    f.signature = T::signature;
    f.automatic = &T::call;
    if constexpr (T::scalar_only) f.native = reinterpret_cast<void (*)(void)>(Fn);
    return f;
}

constexpr harness_function packed_function(const char *name, harness_packed_fn fn,
                                           harness_mode default_mode = HARNESS_MODE_INLINE) {
    harness_function f = detail::table_entry(name, HARNESS_CALL_PACKED, default_mode);
    f.packed = fn;
    return f;
}

constexpr harness_function raw_function(const char *name, harness_raw_fn fn,
                                        harness_mode default_mode = HARNESS_MODE_INLINE) {
    harness_function f = detail::table_entry(name, HARNESS_CALL_RAW, default_mode);
    f.raw = fn;
    return f;
}

// What a descriptor says about its plugin besides its tables. Designated
// initializers name each field at the plugin:
//     plugin_descriptor({.package = "examples", .component = "math", .version = "1.0.0"}, kFunctions)
struct PluginInfo {
    const char *package = nullptr;
    const char *component = nullptr;
    const char *version = nullptr;
    harness_level level = HARNESS_LEVEL_DAEMON;
    harness_instance_policy instance_policy = HARNESS_PER_DAEMON;
    int (*init)(const harness_host_api *host, void **state, char *err, size_t errlen) = nullptr;
    void (*fini)(void *state) = nullptr;
};

// A descriptor of this header's ABI: major, minor and size first, the table
// sizes taken from the arrays.
template <std::size_t N>
constexpr harness_plugin_descriptor plugin_descriptor(const PluginInfo &info, const harness_function (&functions)[N]) {
    return {HARNESS_PLUGIN_ABI_MAJOR,
            HARNESS_PLUGIN_ABI_MINOR,
            sizeof(harness_plugin_descriptor),
            info.package,
            info.component,
            info.version,
            static_cast<std::uint32_t>(info.level),
            static_cast<std::uint32_t>(info.instance_policy),
            info.init,
            info.fini,
            N,
            functions,
            0,
            nullptr};
}

template <std::size_t N, std::size_t M>
constexpr harness_plugin_descriptor plugin_descriptor(const PluginInfo &info, const harness_function (&functions)[N],
                                                      const harness_interface (&interfaces)[M]) {
    harness_plugin_descriptor d = plugin_descriptor(info, functions);
    d.interface_count = M;
    d.interfaces = interfaces;
    return d;
}

}  // namespace harness

// Defines the plugin's one exported symbol, returning descriptor (an object
// that lives as long as the plugin). Use once, at namespace scope.
#define HARNESS_PLUGIN_EXPORT(descriptor)                                                                              \
    extern "C" __attribute__((visibility("default"))) const harness_plugin_descriptor *harness_plugin_entry(void) {    \
        return &(descriptor);                                                                                          \
    }
