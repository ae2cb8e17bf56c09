// VirtualMachine: invocation through daemons (class 4) with packed arguments.
#include "io.hpp"
#include "wire.hpp"

namespace harness::hlib {

using namespace detail;
using protocol::Type;

namespace {

Result<harness_convention> wire_convention(const FunctionRef &f) {
    // The request carries the function's own convention: AUTO arguments are
    // checked against the signature by the daemon, PACKED ones go through.
    if (f.function.convention == HARNESS_CALL_RAW)
        return make_error(HARNESS_ERR_NOT_SUPPORTED, f.function.name + " is a RAW function; use Daemon::call_raw");
    return f.function.convention;
}

}  // namespace

Result<Bytes> VirtualMachine::call_packed(const FunctionRef &f, std::span<const std::uint8_t> args,
                                          const CallOptions &o) {
    return call_with_convention(f, args, o);
}

Result<Bytes> VirtualMachine::call_with_convention(const FunctionRef &f, std::span<const std::uint8_t> args,
                                                   const CallOptions &o) {
    auto conv = wire_convention(f);
    if (!conv) return conv.error();
    auto deadline = deadline_in(o.timeout);
    auto d = daemon_at(f.member_id, f.tcp, f.udp, o.transport, deadline);
    if (!d) return refine_peer_error(f.member_id, d.error(), deadline);
    auto r = (*d)->call(f.component, f.function.name, args, *conv, o.mode, deadline);
    if (!r) return refine_peer_error(f.member_id, r.error(), deadline);
    return r;
}

std::vector<PerDaemon<Bytes>> VirtualMachine::call_packed_parallel(const std::vector<FunctionRef> &fs,
                                                                   std::span<const std::uint8_t> args,
                                                                   const CallOptions &o) {
    auto deadline = deadline_in(o.timeout);
    // Learn which members the VM has declared failed: those are answered at
    // once instead of being waited for.
    (void)members_refresh(deadline);
    std::vector<Target> targets;
    std::vector<PerDaemon<Bytes>> out(fs.size(), PerDaemon<Bytes>{{}, Bytes{}});
    std::vector<std::size_t> sent;  // index in fs of each target
    for (std::size_t i = 0; i < fs.size(); ++i) {
        out[i].member_id = fs[i].member_id;
        auto conv = wire_convention(fs[i]);
        if (!conv) {
            out[i].result = conv.error();
            continue;
        }
        targets.push_back({fs[i].member_id, fs[i].tcp, fs[i].udp,
                           encode_call(fs[i].component, fs[i].function.name, o.mode, *conv, args)});
        sent.push_back(i);
    }
    auto replies = fan_out(targets, Type::call, o.transport, deadline);
    for (std::size_t k = 0; k < replies.size(); ++k) {
        auto &slot = out[sent[k]];
        if (!replies[k].result)
            slot.result = replies[k].result.error();
        else
            slot.result = decode_call_reply(*replies[k].result);
    }
    return out;
}

Result<Bytes> VirtualMachine::call_detached(ConnectOptions options, VmKey key, std::string local_id, FunctionRef f,
                                            Bytes args, CallOptions o) {
    auto conv = wire_convention(f);
    if (!conv) return conv.error();
    auto deadline = deadline_in(o.timeout);
    Result<Connection> conn = make_error(HARNESS_ERR_INTERNAL, "not connected");
    if (o.transport == Transport::udp)
        conn = Connection::open_udp(f.udp, key, deadline);
    else if (f.member_id == local_id && options.hcore)
        conn = Connection::open_tcp(*options.hcore, key, deadline);
    else if (f.member_id == local_id)
        conn = Connection::open_unix(options.root / "var" / "hcored.sock", key, deadline);
    else
        conn = Connection::open_tcp(f.tcp, key, deadline);
    if (!conn) return conn.error();
    Daemon d(std::move(*conn));
    return d.call(f.component, f.function.name, args, *conv, o.mode, deadline);
}

}  // namespace harness::hlib
