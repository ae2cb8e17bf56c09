// Reading an integer field of untrusted JSON (manifests, repository indexes)
// without undefined behaviour: nlohmann's get<int>() on a float such as 3.6e49,
// or on an integer beyond the target type, converts out of range. Here such a
// value is refused, so the caller reports a malformed document.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <utility>

namespace harness {

// The value if it is a JSON integer that fits T, otherwise nothing.
template <class T>
std::optional<T> json_integer(const nlohmann::json &value) {
    if (value.is_number_unsigned()) {
        auto v = value.get<nlohmann::json::number_unsigned_t>();
        if (!std::in_range<T>(v)) return std::nullopt;
        return static_cast<T>(v);
    }
    if (value.is_number_integer()) {
        auto v = value.get<nlohmann::json::number_integer_t>();
        if (!std::in_range<T>(v)) return std::nullopt;
        return static_cast<T>(v);
    }
    return std::nullopt;
}

// Field `key` of object j: `fallback` when absent, nothing when present but
// not an integer that fits T.
template <class T>
std::optional<T> json_integer_field(const nlohmann::json &j, const char *key, T fallback) {
    auto it = j.find(key);
    if (it == j.end()) return fallback;
    return json_integer<T>(*it);
}

}  // namespace harness
