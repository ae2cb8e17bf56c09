#include <harness/common/signature.hpp>

#include <cstdlib>

namespace harness {

namespace {

struct TypeName {
    int type;
    std::string_view name;
};
constexpr TypeName kTypes[] = {
    {HARNESS_T_I32, "i32"}, {HARNESS_T_I64, "i64"},     {HARNESS_T_U64, "u64"},   {HARNESS_T_F64, "f64"},
    {HARNESS_T_STR, "str"}, {HARNESS_T_BYTES, "bytes"}, {HARNESS_T_BOOL, "bool"},
};

std::string_view trim(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

}  // namespace

const char *type_name(int type) {
    for (const auto &t : kTypes)
        if (t.type == type) return t.name.data();
    return "void";
}

int type_from_name(std::string_view name) {
    for (const auto &t : kTypes)
        if (t.name == name) return t.type;
    return 0;
}

std::string Signature::to_string() const {
    std::string s = type_name(result);
    s += "(";
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (i) s += ",";
        s += type_name(args[i]);
    }
    return s + ")";
}

Result<Signature> parse_signature(std::string_view text) {
    auto bad = [&](const char *why) {
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "bad signature \"" + std::string(text) + "\": " + why);
    };
    auto open = text.find('(');
    if (open == std::string_view::npos || text.empty() || text.back() != ')') return bad("expected ret(args)");
    Signature sig;
    auto ret = trim(text.substr(0, open));
    if (ret != "void") {
        sig.result = type_from_name(ret);
        if (!sig.result) return bad("unknown result type");
    }
    auto inner = trim(text.substr(open + 1, text.size() - open - 2));
    while (!inner.empty()) {
        auto comma = inner.find(',');
        auto name = trim(inner.substr(0, comma));
        int t = type_from_name(name);
        if (!t) return bad("unknown argument type");
        sig.args.push_back(t);
        if (comma == std::string_view::npos) break;
        inner = inner.substr(comma + 1);
        if (trim(inner).empty()) return bad("trailing comma");
    }
    return sig;
}

Result<std::vector<harness_value>> unpack_values(const Signature &sig, std::span<const std::uint8_t> packed) {
    Unpacker u(packed);
    std::vector<harness_value> values;
    values.reserve(sig.args.size());
    for (std::size_t i = 0; i < sig.args.size(); ++i) {
        int want = sig.args[i];
        int got = u.peek_type();
        if (got != want) {
            return make_error(HARNESS_ERR_TYPE_MISMATCH,
                              "argument " + std::to_string(i + 1) + " of " + sig.to_string() + " must be " +
                                  type_name(want) + ", got " + (got ? type_name(got) : "nothing"));
        }
        harness_value v{};
        v.type = static_cast<std::uint32_t>(want);
        bool ok = false;
        switch (want) {
        case HARNESS_T_I32: ok = harness_unpack_i32(u.c_reader(), &v.v.i32) == 0; break;
        case HARNESS_T_I64: ok = harness_unpack_i64(u.c_reader(), &v.v.i64) == 0; break;
        case HARNESS_T_U64: ok = harness_unpack_u64(u.c_reader(), &v.v.u64) == 0; break;
        case HARNESS_T_F64: ok = harness_unpack_f64(u.c_reader(), &v.v.f64) == 0; break;
        case HARNESS_T_BOOL: ok = harness_unpack_bool(u.c_reader(), &v.v.boolean) == 0; break;
        case HARNESS_T_STR:
        case HARNESS_T_BYTES:
            ok = harness_unpack_blob(u.c_reader(), static_cast<std::uint8_t>(want), &v.v.blob.data, &v.v.blob.len) == 0;
            break;
        }
        if (!ok) return make_error(HARNESS_ERR_PROTOCOL, "argument " + std::to_string(i + 1) + " is truncated");
        values.push_back(v);
    }
    if (!u.done()) return make_error(HARNESS_ERR_TYPE_MISMATCH, "too many arguments for " + sig.to_string());
    return values;
}

void pack_value(Packer &p, const harness_value &v) {
    switch (v.type) {
    case HARNESS_T_I32: p.i32(v.v.i32); break;
    case HARNESS_T_I64: p.i64(v.v.i64); break;
    case HARNESS_T_U64: p.u64(v.v.u64); break;
    case HARNESS_T_F64: p.f64(v.v.f64); break;
    case HARNESS_T_BOOL: p.boolean(v.v.boolean != 0); break;
    case HARNESS_T_STR: p.str(std::string_view(static_cast<const char *>(v.v.blob.data), v.v.blob.len)); break;
    case HARNESS_T_BYTES: p.bytes({static_cast<const std::uint8_t *>(v.v.blob.data), v.v.blob.len}); break;
    default: break;  // void: nothing
    }
}

void release_value(harness_value &v) {
    if ((v.type == HARNESS_T_STR || v.type == HARNESS_T_BYTES) && v.v.blob.owned) {
        std::free(const_cast<void *>(v.v.blob.data));
        v.v.blob.data = nullptr;
        v.v.blob.owned = 0;
    }
}

}  // namespace harness
