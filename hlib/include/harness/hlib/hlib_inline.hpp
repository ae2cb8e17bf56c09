// harness/hlib/hlib_inline.hpp — template bodies of hlib.hpp (included at its end).
//
// Typed calls are checked against the function's declared signature before
// anything is sent: a C++ call whose types differ from the plugin's
// "ret(args)" text is HARNESS_ERR_TYPE_MISMATCH, never a misinterpreted value.
#pragma once

#include <harness/hlib/hlib.hpp>

#include <type_traits>

namespace harness::hlib {

namespace detail {

// String literals and C strings travel as str.
template <class A>
struct wire_arg {
    using type = A;
};
template <>
struct wire_arg<const char *> {
    using type = std::string;
};
template <>
struct wire_arg<char *> {
    using type = std::string;
};
template <std::size_t N>
struct wire_arg<char[N]> {
    using type = std::string;
};
template <std::size_t N>
struct wire_arg<const char[N]> {
    using type = std::string;
};
template <class A>
using wire_arg_t = typename wire_arg<std::remove_cvref_t<A>>::type;

template <class R, class... A>
Result<void> check_auto_signature(const FunctionInfo &f) {
    static_assert(!std::is_same_v<std::remove_cvref_t<R>, std::string_view>,
                  "a result cannot be a string_view (it would dangle); use std::string");
    constexpr const char *wanted = signature_text<R, wire_arg_t<A>...>::c_str();
    if (f.convention != HARNESS_CALL_AUTO)
        return make_error(HARNESS_ERR_TYPE_MISMATCH, f.name + " is not an AUTO function (use call_packed)");
    if (f.signature != wanted)
        return make_error(HARNESS_ERR_TYPE_MISMATCH,
                          f.name + " is " + f.signature + ", called as " + std::string(wanted));
    return {};
}

template <class... A>
Bytes pack_arguments(const A &...args) {
    Packer p;
    (pack_typed(p, args), ...);
    return p.take();
}

// A CALL reply's result: one packed item of type R, or nothing for void.
template <class R>
Result<R> unpack_result(const Bytes &packed) {
    if constexpr (std::is_void_v<R>) {
        if (!packed.empty()) return make_error(HARNESS_ERR_PROTOCOL, "a void function returned a value");
        return {};
    } else {
        Unpacker u(packed);
        R value{};
        if (!unpack_typed(u, value) || !u.done())
            return make_error(HARNESS_ERR_PROTOCOL,
                              "the result does not hold one " + std::string(type_traits<R>::name));
        return value;
    }
}

template <class R>
Result<R> convert_reply(const Result<Bytes> &reply) {
    if (!reply) return reply.error();
    return unpack_result<R>(*reply);
}

template <class Fn>
struct native_signature;
template <class R, class... A>
struct native_signature<R(A...)> {
    static constexpr const char *text = signature_text<R, A...>::c_str();
};

}  // namespace detail

template <class R, class... A>
Result<R> VirtualMachine::call(const FunctionRef &f, const CallOptions &o, const A &...args) {
    if (auto ok = detail::check_auto_signature<R, A...>(f.function); !ok) return ok.error();
    Bytes packed = detail::pack_arguments(args...);
    return detail::convert_reply<R>(call_with_convention(f, packed, o));
}

template <class R, class... A>
std::future<Result<R>> VirtualMachine::call_async(const FunctionRef &f, const CallOptions &o, const A &...args) {
    if (auto ok = detail::check_auto_signature<R, A...>(f.function); !ok) {
        std::promise<Result<R>> refused;
        refused.set_value(Result<R>(ok.error()));
        return refused.get_future();
    }
    // Everything the thread needs is copied: it has its own connection and
    // never touches this VirtualMachine.
    return std::async(
        std::launch::async,
        [options = options_, key = key_, local = local_id(), f, o, packed = detail::pack_arguments(args...)] {
            return detail::convert_reply<R>(call_detached(options, key, local, f, packed, o));
        });
}

template <class R, class... A>
std::vector<PerDaemon<R>> VirtualMachine::call_parallel(const std::vector<FunctionRef> &fs, const CallOptions &o,
                                                        const A &...args) {
    std::vector<PerDaemon<R>> out;
    std::vector<FunctionRef> checked;
    std::vector<std::size_t> slots;
    for (const auto &f : fs) {
        if (auto ok = detail::check_auto_signature<R, A...>(f.function); !ok) {
            out.push_back({f.member_id, ok.error()});
            continue;
        }
        slots.push_back(out.size());
        out.push_back({f.member_id, make_error(HARNESS_ERR_INTERNAL, "not called")});
        checked.push_back(f);
    }
    if (checked.empty()) return out;
    Bytes packed = detail::pack_arguments(args...);
    auto replies = call_packed_parallel(checked, packed, o);
    for (std::size_t i = 0; i < replies.size(); ++i) out[slots[i]].result = detail::convert_reply<R>(replies[i].result);
    return out;
}

template <class Fn>
Result<Fn *> DirectPlugin::get(std::string_view function) const {
    static_assert(std::is_function_v<Fn>, "get<Fn>: Fn is a function type such as std::int64_t(std::int64_t)");
    auto p = native(function, detail::native_signature<Fn>::text);
    if (!p) return p.error();
    return reinterpret_cast<Fn *>(*p);
}

}  // namespace harness::hlib
