// Daemon::handle_request and the handlers of each request type.
#include "daemon.hpp"

#include <harness/common/pack.hpp>

namespace harness::hcore {

using protocol::Type;

namespace {

Reply ok(Bytes body = {}) {
    return Reply{HARNESS_OK, std::move(body)};
}

Reply malformed(Type t) {
    return error_reply(HARNESS_ERR_PROTOCOL,
                       std::string("malformed ") + protocol::type_name(static_cast<std::uint8_t>(t)) + " request");
}

Result<ComponentName> read_component(Unpacker &u) {
    ComponentName n;
    if (!u.str(n.package) || !u.str(n.component)) return make_error(HARNESS_ERR_PROTOCOL, "malformed component name");
    if (!is_valid_name_part(n.package) || !is_valid_name_part(n.component))
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "invalid component name " + n.package + "/" + n.component);
    return n;
}

bool udp_allowed(Type t) {
    return t == Type::ping || t == Type::call || t == Type::members || t == Type::loaded || t == Type::locate ||
        t == Type::published;
}

}  // namespace

void Daemon::handle_request(const protocol::Header &h, std::span<const std::uint8_t> body, Via via, RawChannel *raw,
                            ReplyFn done) {
    auto type = static_cast<Type>(h.type);
    if (!protocol::is_known_type(h.type) || type == Type::hello || type == Type::auth || type == Type::auth_ok ||
        type == Type::heartbeat)
        return done(error_reply(HARNESS_ERR_PROTOCOL, "unknown or unexpected request type " + std::to_string(h.type)));
    if (via == Via::udp && !udp_allowed(type))
        return done(
            error_reply(HARNESS_ERR_NOT_SUPPORTED,
                        std::string(protocol::type_name(h.type)) + " is served over TCP or the Unix socket only"));
    if (stopping_) return done(error_reply(HARNESS_ERR_BUSY, "the daemon is stopping"));

    switch (type) {
    case Type::ping: return done(ok());
    case Type::load: return handle_load(body, std::move(done));
    case Type::call: return handle_call(body, raw, std::move(done));
    case Type::resolve: return handle_resolve(body, std::move(done));
    case Type::members: return done(ok(membership_->encode_members()));
    case Type::loaded: return done(ok(encode_loaded()));
    case Type::locate: {
        Unpacker u(body);
        auto name = read_component(u);
        if (!name) return done(error_reply(name.error()));
        auto holders = membership_->holders_of(*name);
        Packer p;
        p.u64(holders.size());
        for (const auto &id : holders) p.str(id);
        return done(ok(p.take()));
    }
    case Type::join: {
        auto reply = membership_->handle_join(body);
        return done(reply ? ok(std::move(reply.value())) : error_reply(reply.error()));
    }
    case Type::add: return handle_add(body, std::move(done));
    case Type::invite: return handle_invite(body, std::move(done));
    case Type::halt: return handle_halt(body, std::move(done));
    case Type::claim: return handle_claim(body, std::move(done));
    case Type::publish: return handle_publish(body, std::move(done));
    case Type::published: return done(ok(encode_published()));
    default: return done(error_reply(HARNESS_ERR_PROTOCOL, "unexpected request type"));
    }
}

void Daemon::handle_load(std::span<const std::uint8_t> body, ReplyFn done) {
    Unpacker u(body);
    auto name = read_component(u);
    if (!name) return done(error_reply(name.error()));
    if (!u.done()) return done(malformed(Type::load));
    // Already loaded: answer at once, without a trip through the pool.
    if (const auto *p = registry_->find(*name)) {
        Packer out;
        out.str(p->descriptor().version);
        return done(ok(out.take()));
    }
    in_background(
        [this, n = *name] {
            auto loaded = registry_->load(n);
            if (!loaded) return error_reply(loaded.error());
            Packer out;
            out.str((*loaded)->descriptor().version);
            return ok(out.take());
        },
        std::move(done));
}

void Daemon::handle_resolve(std::span<const std::uint8_t> body, ReplyFn done) {
    Unpacker u(body);
    auto name = read_component(u);
    if (!name) return done(error_reply(name.error()));
    if (!u.done()) return done(malformed(Type::resolve));
    // A fetch may take seconds: never on the I/O thread.
    in_background(
        [this, n = *name] {
            auto found = registry_->resolve_for_process(n);
            if (!found) {
                log_.warning("resolve " + n.to_string() + " for a process refused: " + found.error().describe());
                return error_reply(found.error());
            }
            Packer out;
            out.str(found->where.shared_object.string()).str(found->where.manifest.string());
            out.str(found->version).str(origin_name(found->where.origin));
            return ok(out.take());
        },
        std::move(done));
}

void Daemon::handle_call(std::span<const std::uint8_t> body, RawChannel *raw, ReplyFn done) {
    Unpacker u(body);
    auto name = read_component(u);
    if (!name) return done(error_reply(name.error()));
    std::string_view function;
    std::int32_t mode = 0, convention = 0;
    std::span<const std::uint8_t> args;
    if (!u.str_view(function) || !u.i32(mode) || !u.i32(convention) || !u.bytes(args) || !u.done())
        return done(malformed(Type::call));
    const LoadedPlugin *plugin = registry_->find(*name);
    if (!plugin)
        return done(error_reply(HARNESS_ERR_NOT_FOUND,
                                name->to_string() + " is not loaded on member " + id_ + "; load it first"));
    CallTarget target{plugin, nullptr, 0};
    const auto &d = plugin->descriptor();
    for (std::size_t i = 0; i < d.function_count; ++i) {
        if (function == function_at(d, i).name) {
            target.function = &function_at(d, i);
            target.function_index = i;
            break;
        }
    }
    if (!target.function)
        return done(error_reply(HARNESS_ERR_NOT_FOUND,
                                "no function \"" + std::string(function) + "\" in " + name->to_string()));
    const harness_function &f = *target.function;
    if (static_cast<std::uint32_t>(convention) != f.convention)
        return done(error_reply(HARNESS_ERR_TYPE_MISMATCH,
                                std::string(f.name) + " uses another calling convention than requested"));
    if (mode < HARNESS_MODE_DEFAULT || mode > HARNESS_MODE_SERVICE)
        return done(error_reply(HARNESS_ERR_INVALID_ARGUMENT, "unknown invocation mode " + std::to_string(mode)));
    auto how =
        mode == HARNESS_MODE_DEFAULT ? static_cast<harness_mode>(f.default_mode) : static_cast<harness_mode>(mode);
    if (how == HARNESS_MODE_DEFAULT) how = HARNESS_MODE_INLINE;

    auto finish = [done = std::move(done)](Outcome o) { done(Reply{o.status, std::move(o.body)}); };
    if (f.convention != HARNESS_CALL_RAW)
        return invoker_->invoke(target, how, Bytes(args.begin(), args.end()), -1, std::move(finish));
    if (!raw) return finish(error_outcome(HARNESS_ERR_NOT_SUPPORTED, "RAW functions need a TCP or Unix connection"));
    if (how == HARNESS_MODE_SERVICE)
        return finish(error_outcome(HARNESS_ERR_NOT_SUPPORTED, "RAW functions cannot run in service mode yet"));
    // Inline, the plugin runs on the I/O thread: it must give up well before
    // the other members would declare this daemon failed.
    auto io_timeout = how == HARNESS_MODE_INLINE ? settings_.heartbeat_timeout / 2 : std::chrono::milliseconds(0);
    int fd = raw->begin(io_timeout);
    if (fd < 0) return finish(error_outcome(HARNESS_ERR_UNREACHABLE, "the connection closed before the RAW call"));
    invoker_->invoke(target, how, {}, fd, [raw, finish = std::move(finish)](Outcome o) mutable {
        raw->end();
        finish(std::move(o));
    });
}

Bytes Daemon::encode_published() const {
    auto entries = directory_->all();
    Packer p;
    p.u64(entries.size());
    for (const auto &e : entries)
        p.str(e.repo_url).str(e.name.package).str(e.name.component).str(e.version).str(e.info_json);
    return p.take();
}

Bytes Daemon::encode_loaded() const {
    Packer p;
    auto plugins = registry_->all();
    p.u64(plugins.size());
    for (const auto *plugin : plugins) {
        const auto &d = plugin->descriptor();
        p.str(d.package).str(d.component).str(d.version);
        p.i32(static_cast<std::int32_t>(d.level)).i32(static_cast<std::int32_t>(d.instance_policy));
        p.u64(d.function_count);
        for (std::size_t i = 0; i < d.function_count; ++i) {
            const auto &f = function_at(d, i);
            p.str(f.name).i32(static_cast<std::int32_t>(f.convention)).i32(static_cast<std::int32_t>(f.default_mode));
            p.str(f.convention == HARNESS_CALL_AUTO ? f.signature : "");
        }
    }
    return p.take();
}

}  // namespace harness::hcore
