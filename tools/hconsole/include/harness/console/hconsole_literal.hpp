// harness/console/hconsole_literal.hpp — typed argument literals of `hconsole call`.
//
// An argument is written TYPE:VALUE with TYPE one of i32, i64, u64, f64,
// bool, str, bytes (hex), or bare: an integer is i64, a decimal with '.' is
// f64, anything else is str. For AUTO functions a bare literal adapts to the
// signature where that is lossless (5 → i32, u64 or f64; anything → str);
// an explicitly typed one must match exactly. Results are printed back in the
// same spirit (bytes as hex).
#pragma once

#include <harness/common/pack.hpp>
#include <harness/common/result.hpp>
#include <harness/common/signature.hpp>

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace harness::hconsole {

struct Literal {
    int type = HARNESS_T_STR;  // harness_type
    bool explicit_type = false;
    std::string text;      // as written, without the TYPE: prefix
    std::int64_t i64 = 0;  // i32 and i64
    std::uint64_t u64 = 0;
    double f64 = 0;
    bool boolean = false;
    Bytes bytes;  // bytes; str uses text
};

Result<Literal> parse_literal(std::string_view text);
Result<std::vector<Literal>> parse_literals(const std::vector<std::string> &texts);

// The literal as a value of harness type `type`, or an error saying why not.
Result<Literal> coerce(const Literal &literal, int type);

// PACKED functions: the literals in order, as written.
Bytes pack_literals(const std::vector<Literal> &literals);
// AUTO functions: checked (and bare literals adapted) against the signature.
Result<Bytes> pack_for_signature(const std::vector<Literal> &literals, const Signature &signature);

// Every item of a packed buffer as text ("5", "2.5", "true", "hello", hex).
Result<std::vector<std::string>> format_items(std::span<const std::uint8_t> packed);
// The same as JSON values (bytes as a hex string).
Result<nlohmann::json> items_json(std::span<const std::uint8_t> packed);

Result<Bytes> parse_hex(std::string_view hex);

}  // namespace harness::hconsole
