// Daemon: one request of the protocol per method, over one Connection.
#include "frame.hpp"
#include "io.hpp"
#include "wire.hpp"

namespace harness::hlib {

using namespace detail;
using protocol::Type;

Result<void> Daemon::ping(Deadline deadline) {
    auto r = conn_.request(Type::ping, {}, deadline);
    if (!r) return r.error();
    return {};
}

Result<std::string> Daemon::load(const ComponentName &name, Deadline deadline) {
    auto r = conn_.request(Type::load, encode_component(name), deadline);
    if (!r) return r.error();
    return decode_single_str(*r, "LOAD");
}

Result<ResolvedComponent> Daemon::resolve(const ComponentName &name, Deadline deadline) {
    auto r = conn_.request(Type::resolve, encode_component(name), deadline);
    if (!r) return r.error();
    return decode_resolve(*r);
}

Result<Bytes> Daemon::call(const ComponentName &name, std::string_view function,
                           std::span<const std::uint8_t> packed_args, harness_convention convention, harness_mode mode,
                           Deadline deadline) {
    auto r = conn_.request(Type::call, encode_call(name, function, mode, convention, packed_args), deadline);
    if (!r) return r.error();
    return decode_call_reply(*r);
}

Result<void> Daemon::call_raw(const ComponentName &name, std::string_view function, harness_mode mode,
                              const std::function<Result<void>(int fd)> &talk, Deadline deadline) {
    if (conn_.transport() == Transport::udp)
        return make_error(HARNESS_ERR_NOT_SUPPORTED, "RAW calls need a stream connection, not UDP");
    auto id = conn_.send_request(Type::call, encode_call(name, function, mode, HARNESS_CALL_RAW, {}), deadline);
    if (!id) return id.error();
    // The daemon says when the plugin has the socket (kFlagRawStart); a call
    // refused before that gets its final reply instead.
    for (;;) {
        auto frame = read_frame(conn_.fd(), protocol::kDefaultMaxBody, deadline, nullptr);
        if (!frame) {
            conn_.abandon(*id);
            return frame.error();
        }
        if (frame->header.request_id != *id) continue;
        if (frame->header.flags & protocol::kFlagRawStart) break;
        if (frame->header.is_reply()) {
            conn_.abandon(*id);
            auto r = reply_result(std::move(*frame));
            if (!r) return r.error();
            return make_error(HARNESS_ERR_PROTOCOL, "the daemon ended a RAW call before handing over the socket");
        }
    }
    // The plugin's own protocol is written for blocking sockets.
    set_nonblocking(conn_.fd(), false);
    auto talked = talk(conn_.fd());
    set_nonblocking(conn_.fd(), true);
    auto r = conn_.receive_reply(*id, deadline);
    if (!talked) return talked.error();
    if (!r) return r.error();
    return {};
}

Result<std::vector<Member>> Daemon::members(Deadline deadline) {
    auto r = conn_.request(Type::members, {}, deadline);
    if (!r) return r.error();
    return decode_members(*r);
}

Result<std::vector<ComponentInfo>> Daemon::loaded(Deadline deadline) {
    auto r = conn_.request(Type::loaded, {}, deadline);
    if (!r) return r.error();
    return decode_loaded(*r);
}

Result<std::vector<std::string>> Daemon::locate(const ComponentName &name, Deadline deadline) {
    auto r = conn_.request(Type::locate, encode_component(name), deadline);
    if (!r) return r.error();
    return decode_locate(*r);
}

Result<std::string> Daemon::add(const Endpoint &host, Deadline deadline) {
    Packer p;
    p.str(host.to_string());
    auto r = conn_.request(Type::add, p.view(), deadline);
    if (!r) return r.error();
    return decode_single_str(*r, "ADD");
}

Result<void> Daemon::halt(bool whole_vm, Deadline deadline) {
    Packer p;
    p.boolean(whole_vm);
    auto id = conn_.send_request(Type::halt, p.view(), deadline);
    if (!id) return id.error();
    auto r = conn_.receive_reply(*id, deadline);
    // Once the request is out, the daemon may exit before its reply reaches
    // us: a closed connection then means it did what we asked.
    if (!r && r.error().status != HARNESS_ERR_UNREACHABLE) return r.error();
    return {};
}

}  // namespace harness::hlib
