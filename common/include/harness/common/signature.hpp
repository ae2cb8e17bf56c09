// harness/common/signature.hpp — AUTO calling-convention signatures.
//
// A signature is written "ret(arg,arg,…)" with the type names i32, i64, u64,
// f64, bool, str, bytes, and "void" for no result: "i64(i64,i64)", "void()".
// The daemon checks a caller's packed arguments against it before calling;
// Hlib checks a C++ call's template types against it before handing out a
// native pointer, so a mistyped call is an error and never undefined behaviour.
#pragma once

#include <harness/common/pack.hpp>
#include <harness/common/plugin.h>
#include <harness/common/result.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace harness {

struct Signature {
    int result = 0;         // harness_type, 0 for void
    std::vector<int> args;  // harness_type each

    std::string to_string() const;
    bool operator==(const Signature &) const = default;
};

Result<Signature> parse_signature(std::string_view text);
const char *type_name(int harness_type);    // "i64", … or "void" for 0
int type_from_name(std::string_view name);  // 0 when unknown

// Unpacks args that must match sig.args exactly (count and types). Blobs
// point into the packed buffer.
Result<std::vector<harness_value>> unpack_values(const Signature &sig, std::span<const std::uint8_t> packed);
// Packs one value (the result of an AUTO call).
void pack_value(Packer &p, const harness_value &v);
// Frees a value's owned blob, if any.
void release_value(harness_value &v);

}  // namespace harness
