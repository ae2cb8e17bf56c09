#include <harness/common/crypto.hpp>
#include <harness/console/hconsole_literal.hpp>

#include <nlohmann/json.hpp>

#include <charconv>
#include <limits>

namespace harness::hconsole {

namespace {

Error bad(std::string_view text, const std::string &why) {
    return make_error(HARNESS_ERR_INVALID_ARGUMENT, "argument \"" + std::string(text) + "\": " + why);
}

template <class T>
bool parse_int(std::string_view s, T &out) {
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

bool parse_double(std::string_view s, double &out) {
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

bool looks_integer(std::string_view s) {
    if (!s.empty() && (s.front() == '-' || s.front() == '+')) s.remove_prefix(1);
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

bool looks_decimal(std::string_view s) {
    if (!s.empty() && (s.front() == '-' || s.front() == '+')) s.remove_prefix(1);
    bool digit = false, dot = false;
    for (char c : s) {
        if (c >= '0' && c <= '9')
            digit = true;
        else if (c == '.' && !dot)
            dot = true;
        else
            return false;
    }
    return digit && dot;
}

std::string format_double(double v) {
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

Result<Literal> typed(int type, std::string_view value, std::string_view whole) {
    Literal l;
    l.type = type;
    l.explicit_type = true;
    l.text = std::string(value);
    switch (type) {
    case HARNESS_T_I32: {
        std::int32_t v = 0;
        if (!parse_int(value, v)) return bad(whole, "not a 32-bit integer");
        l.i64 = v;
        break;
    }
    case HARNESS_T_I64:
        if (!parse_int(value, l.i64)) return bad(whole, "not a 64-bit integer");
        break;
    case HARNESS_T_U64:
        if (value.starts_with('-') || !parse_int(value, l.u64)) return bad(whole, "not an unsigned 64-bit integer");
        break;
    case HARNESS_T_F64:
        if (!parse_double(value, l.f64)) return bad(whole, "not a number");
        break;
    case HARNESS_T_BOOL:
        if (value == "true" || value == "1")
            l.boolean = true;
        else if (value == "false" || value == "0")
            l.boolean = false;
        else
            return bad(whole, "bool is true or false");
        break;
    case HARNESS_T_BYTES: {
        auto b = parse_hex(value);
        if (!b) return bad(whole, b.error().message);
        l.bytes = std::move(*b);
        break;
    }
    default:  // str
        break;
    }
    return l;
}

}  // namespace

Result<Bytes> parse_hex(std::string_view hex) {
    if (hex.starts_with("0x") || hex.starts_with("0X")) hex.remove_prefix(2);
    if (hex.size() % 2) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "hex needs an even number of digits");
    Bytes out;
    for (std::size_t i = 0; i < hex.size(); i += 2) {
        unsigned v = 0;
        auto [end, ec] = std::from_chars(hex.data() + i, hex.data() + i + 2, v, 16);
        if (ec != std::errc() || end != hex.data() + i + 2) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "not hex");
        out.push_back(static_cast<std::uint8_t>(v));
    }
    return out;
}

Result<Literal> parse_literal(std::string_view text) {
    auto colon = text.find(':');
    if (colon != std::string_view::npos) {
        int type = type_from_name(text.substr(0, colon));
        if (type != 0) return typed(type, text.substr(colon + 1), text);
        // An unknown prefix ("http://…") is just a string.
    }
    Literal l;
    l.text = std::string(text);
    if (looks_integer(text)) {
        if (!parse_int(text, l.i64)) return bad(text, "integer out of the i64 range (write u64:… or str:…)");
        l.type = HARNESS_T_I64;
    } else if (looks_decimal(text) && parse_double(text, l.f64)) {
        l.type = HARNESS_T_F64;
    } else {
        l.type = HARNESS_T_STR;
    }
    return l;
}

Result<std::vector<Literal>> parse_literals(const std::vector<std::string> &texts) {
    std::vector<Literal> out;
    for (const auto &t : texts) {
        auto l = parse_literal(t);
        if (!l) return l.error();
        out.push_back(std::move(*l));
    }
    return out;
}

Result<Literal> coerce(const Literal &l, int type) {
    if (l.type == type) return l;
    auto mismatch = [&] {
        return make_error(HARNESS_ERR_TYPE_MISMATCH,
                          "\"" + l.text + "\" is " + harness::type_name(l.type) + ", the function takes " +
                              harness::type_name(type));
    };
    if (l.explicit_type) return mismatch();
    // A bare literal adapts when nothing is lost: re-read its text as `type`.
    if (type == HARNESS_T_STR ||
        (l.type == HARNESS_T_I64 && (type == HARNESS_T_I32 || type == HARNESS_T_U64 || type == HARNESS_T_F64)) ||
        (l.type == HARNESS_T_STR && type == HARNESS_T_BOOL)) {
        auto t = typed(type, l.text, l.text);
        if (!t) return make_error(HARNESS_ERR_TYPE_MISMATCH, t.error().message);
        t->explicit_type = false;
        return t;
    }
    return mismatch();
}

namespace {

void pack_one(Packer &p, const Literal &l) {
    switch (l.type) {
    case HARNESS_T_I32: p.i32(static_cast<std::int32_t>(l.i64)); break;
    case HARNESS_T_I64: p.i64(l.i64); break;
    case HARNESS_T_U64: p.u64(l.u64); break;
    case HARNESS_T_F64: p.f64(l.f64); break;
    case HARNESS_T_BOOL: p.boolean(l.boolean); break;
    case HARNESS_T_BYTES: p.bytes(l.bytes); break;
    default: p.str(l.text); break;
    }
}

}  // namespace

Bytes pack_literals(const std::vector<Literal> &literals) {
    Packer p;
    for (const auto &l : literals) pack_one(p, l);
    return p.take();
}

Result<Bytes> pack_for_signature(const std::vector<Literal> &literals, const Signature &signature) {
    if (literals.size() != signature.args.size())
        return make_error(HARNESS_ERR_TYPE_MISMATCH,
                          "the function " + signature.to_string() + " takes " + std::to_string(signature.args.size()) +
                              " argument(s), " + std::to_string(literals.size()) + " given");
    Packer p;
    for (std::size_t i = 0; i < literals.size(); ++i) {
        auto l = coerce(literals[i], signature.args[i]);
        if (!l) return l.error();
        pack_one(p, *l);
    }
    return p.take();
}

namespace {

// Walks the items of a packed buffer; `emit` gets each as (text, json).
template <class Emit>
Result<void> walk_items(std::span<const std::uint8_t> packed, Emit emit) {
    Unpacker u(packed);
    while (!u.done()) {
        switch (u.peek_type()) {
        case HARNESS_T_I32: {
            std::int32_t v;
            if (u.i32(v)) emit(std::to_string(v), nlohmann::json(v));
            break;
        }
        case HARNESS_T_I64: {
            std::int64_t v;
            if (u.i64(v)) emit(std::to_string(v), nlohmann::json(v));
            break;
        }
        case HARNESS_T_U64: {
            std::uint64_t v;
            if (u.u64(v)) emit(std::to_string(v), nlohmann::json(v));
            break;
        }
        case HARNESS_T_F64: {
            double v;
            if (u.f64(v)) emit(format_double(v), nlohmann::json(v));
            break;
        }
        case HARNESS_T_BOOL: {
            bool v;
            if (u.boolean(v)) emit(v ? "true" : "false", nlohmann::json(v));
            break;
        }
        case HARNESS_T_STR: {
            std::string v;
            if (u.str(v)) emit(v, nlohmann::json(v));
            break;
        }
        case HARNESS_T_BYTES: {
            std::span<const std::uint8_t> v;
            if (u.bytes(v)) emit(to_hex(v), nlohmann::json(to_hex(v)));
            break;
        }
        default: return make_error(HARNESS_ERR_PROTOCOL, "reply holds an item of unknown type");
        }
        if (u.failed()) return make_error(HARNESS_ERR_PROTOCOL, "reply is malformed");
    }
    return {};
}

}  // namespace

Result<std::vector<std::string>> format_items(std::span<const std::uint8_t> packed) {
    std::vector<std::string> out;
    auto r = walk_items(packed, [&](std::string text, const nlohmann::json &) { out.push_back(std::move(text)); });
    if (!r) return r.error();
    return out;
}

Result<nlohmann::json> items_json(std::span<const std::uint8_t> packed) {
    nlohmann::json out = nlohmann::json::array();
    auto r = walk_items(packed, [&](const std::string &, nlohmann::json j) { out.push_back(std::move(j)); });
    if (!r) return r.error();
    return out;
}

}  // namespace harness::hconsole
