// harness/common/result.hpp — value-or-error results used inside the C++ code.
//
// C boundaries speak harness_status codes (plugin.h); inside C++ a function
// that can fail returns Result<T>, which carries either the value or an Error
// (a status and a readable message). Convert at the edge, never throw across it.
#pragma once

#include <harness/common/plugin.h>

#include <string>
#include <utility>
#include <variant>

namespace harness {

struct Error {
    int status = HARNESS_ERR_INTERNAL;
    std::string message;

    // "not found: no component examples/nope" — the status name, then details.
    std::string describe() const {
        std::string s = harness_status_string(status);
        if (!message.empty()) s += ": " + message;
        return s;
    }
};

inline Error make_error(int status, std::string message) {
    return Error{status, std::move(message)};
}

template <class T>
class [[nodiscard]] Result {
public:
    Result(T v) : v_(std::move(v)) {}  // "v": a function-pointer T would shadow value() (-Wshadow)
    Result(Error error) : v_(std::move(error)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T &value() & { return std::get<0>(v_); }
    const T &value() const & { return std::get<0>(v_); }
    T &&value() && { return std::get<0>(std::move(v_)); }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }

    const Error &error() const { return std::get<1>(v_); }

private:
    std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error) : error_(std::move(error)), ok_(false) {}

    bool ok() const { return ok_; }
    explicit operator bool() const { return ok_; }
    const Error &error() const { return error_; }

private:
    Error error_;
    bool ok_ = true;
};

}  // namespace harness
