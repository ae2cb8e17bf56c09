#include "wire.hpp"

namespace harness::hlib::detail {

namespace {

Error malformed(const char *what) {
    return make_error(HARNESS_ERR_PROTOCOL, std::string("malformed ") + what + " reply");
}

// A count read from the wire must not make us reserve more than the body holds.
bool sane_count(const Unpacker &u, std::uint64_t n) {
    return n <= u.rest().size();
}

}  // namespace

Bytes encode_component(const ComponentName &name) {
    Packer p;
    p.str(name.package).str(name.component);
    return p.take();
}

Bytes encode_call(const ComponentName &name, std::string_view function, harness_mode mode,
                  harness_convention convention, std::span<const std::uint8_t> args) {
    Packer p;
    p.str(name.package).str(name.component).str(function);
    p.i32(static_cast<std::int32_t>(mode)).i32(static_cast<std::int32_t>(convention)).bytes(args);
    return p.take();
}

Result<std::string> decode_single_str(std::span<const std::uint8_t> body, const char *what) {
    Unpacker u(body);
    std::string s;
    if (!u.str(s)) return malformed(what);
    return s;
}

Result<ResolvedComponent> decode_resolve(std::span<const std::uint8_t> body) {
    Unpacker u(body);
    std::string so, manifest, version, origin;
    if (!u.str(so) || !u.str(manifest) || !u.str(version) || !u.str(origin) || !u.done() || so.empty() ||
        manifest.empty())
        return malformed("RESOLVE");
    ResolvedComponent r;
    r.where.shared_object = so;
    r.where.manifest = manifest;
    r.version = version;
    r.where.origin = PluginOrigin::fetched;
    for (auto o : {PluginOrigin::lib, PluginOrigin::cache, PluginOrigin::fetched, PluginOrigin::plugin_path})
        if (origin == origin_name(o)) r.where.origin = o;
    return r;
}

Result<Bytes> decode_call_reply(std::span<const std::uint8_t> body) {
    Unpacker u(body);
    Bytes result;
    if (!u.bytes(result)) return malformed("CALL");
    return result;
}

Result<std::vector<Member>> decode_members(std::span<const std::uint8_t> body) {
    Unpacker u(body);
    std::uint64_t n = 0;
    if (!u.u64(n) || !sane_count(u, n)) return malformed("MEMBERS");
    std::vector<Member> members;
    for (std::uint64_t i = 0; i < n; ++i) {
        Member m;
        std::string tcp, udp;
        std::int32_t state = 0;
        if (!u.str(m.id) || !u.str(tcp) || !u.str(udp) || !u.i32(state) || !u.i64(m.silent_ms))
            return malformed("MEMBERS");
        auto t = parse_endpoint(tcp);
        auto d = parse_endpoint(udp);
        if (!t || !d) return malformed("MEMBERS (endpoint)");
        m.tcp = *t;
        m.udp = *d;
        m.alive = state == HARNESS_MEMBER_ALIVE;
        m.left = state == HARNESS_MEMBER_LEFT;
        members.push_back(std::move(m));
    }
    return members;
}

Result<std::vector<ComponentInfo>> decode_loaded(std::span<const std::uint8_t> body) {
    Unpacker u(body);
    std::uint64_t n = 0;
    if (!u.u64(n) || !sane_count(u, n)) return malformed("LOADED");
    std::vector<ComponentInfo> out;
    for (std::uint64_t i = 0; i < n; ++i) {
        ComponentInfo c;
        std::int32_t level = 0, policy = 0;
        std::uint64_t m = 0;
        if (!u.str(c.name.package) || !u.str(c.name.component) || !u.str(c.version) || !u.i32(level) ||
            !u.i32(policy) || !u.u64(m) || !sane_count(u, m))
            return malformed("LOADED");
        c.level = static_cast<harness_level>(level);
        c.policy = static_cast<harness_instance_policy>(policy);
        for (std::uint64_t j = 0; j < m; ++j) {
            FunctionInfo f;
            std::int32_t conv = 0, mode = 0;
            if (!u.str(f.name) || !u.i32(conv) || !u.i32(mode) || !u.str(f.signature)) return malformed("LOADED");
            f.convention = static_cast<harness_convention>(conv);
            f.default_mode = static_cast<harness_mode>(mode);
            c.functions.push_back(std::move(f));
        }
        out.push_back(std::move(c));
    }
    return out;
}

Result<std::vector<std::string>> decode_locate(std::span<const std::uint8_t> body) {
    Unpacker u(body);
    std::uint64_t n = 0;
    if (!u.u64(n) || !sane_count(u, n)) return malformed("LOCATE");
    std::vector<std::string> ids(n);
    for (auto &id : ids)
        if (!u.str(id)) return malformed("LOCATE");
    return ids;
}

}  // namespace harness::hlib::detail
