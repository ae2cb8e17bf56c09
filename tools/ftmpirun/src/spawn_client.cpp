#include "spawn_client.hpp"

#include <harness/common/pack.hpp>

namespace harness::spawn_client {

namespace {

const ComponentName kSpawnNotify{"vm", "spawn_notify"};
// A quick request's deadline; long polls add their wait to it.
constexpr std::chrono::milliseconds kRequestTimeout{10000};

Error bad_reply(const std::string &function) {
    return make_error(HARNESS_ERR_PROTOCOL, "vm/spawn_notify " + function + ": malformed reply");
}

}  // namespace

std::string Address::describe() const {
    if (tcp) return tcp->to_string();
    if (unix_socket) return unix_socket->string();
    return "(nowhere)";
}

Result<SpawnClient> SpawnClient::open(const Address &where, const VmKey &key, std::chrono::milliseconds timeout) {
    auto deadline = hlib::deadline_in(timeout);
    Result<hlib::Connection> conn = make_error(HARNESS_ERR_INVALID_ARGUMENT, "no daemon address");
    if (where.tcp)
        conn = hlib::Connection::open_tcp(*where.tcp, key, deadline);
    else if (where.unix_socket)
        conn = hlib::Connection::open_unix(*where.unix_socket, key, deadline);
    if (!conn) return conn.error();
    return SpawnClient(hlib::Daemon(std::move(conn).value()));
}

Result<Bytes> SpawnClient::call(const std::string &function, std::span<const std::uint8_t> args,
                                std::chrono::milliseconds timeout) {
    return daemon_.call(kSpawnNotify, function, args, HARNESS_CALL_PACKED, HARNESS_MODE_DEFAULT,
                        hlib::deadline_in(timeout));
}

Result<Started> SpawnClient::spawn(const SpawnSpec &spec) {
    Packer p;
    p.i64(static_cast<std::int64_t>(spec.argv.size()));
    for (const auto &a : spec.argv) p.str(a);
    p.i64(static_cast<std::int64_t>(spec.env.size()));
    for (const auto &e : spec.env) p.str(e);
    p.str(spec.cwd).str(spec.tag).str(spec.notify_topic);
    auto r = call("spawn", p.view(), kRequestTimeout);
    if (!r) return r.error();
    Unpacker u(*r);
    Started s;
    if (!u.i64(s.handle) || !u.i64(s.pid)) return bad_reply("spawn");
    return s;
}

Result<void> SpawnClient::signal(std::int64_t handle, int sig, bool whole_group) {
    Packer p;
    p.i64(handle).i32(sig).boolean(whole_group);
    auto r = call("signal", p.view(), kRequestTimeout);
    if (!r) return r.error();
    return {};
}

Result<ProcStatus> SpawnClient::status(std::int64_t handle, std::chrono::milliseconds timeout) {
    Packer p;
    p.i64(handle);
    auto r = call("status", p.view(), timeout);
    if (!r) return r.error();
    Unpacker u(*r);
    ProcStatus s;
    if (!u.str(s.state) || !u.i32(s.exit_code) || !u.i32(s.signal)) return bad_reply("status");
    if (!u.done() && !u.str(s.mpi_state)) return bad_reply("status");
    return s;
}

Result<Exits> SpawnClient::wait(std::int64_t after_event, std::chrono::milliseconds wait) {
    Packer p;
    p.i64(after_event).i64(wait.count());
    auto r = call("wait", p.view(), kRequestTimeout + wait);
    if (!r) return r.error();
    Unpacker u(*r);
    Exits x;
    std::int64_t n = 0;
    if (!u.i64(x.next_event) || !u.i64(n) || n < 0) return bad_reply("wait");
    for (std::int64_t i = 0; i < n; ++i) {
        ExitEvent e;
        if (!u.i64(e.handle) || !u.str(e.tag) || !u.i32(e.exit_code) || !u.i32(e.signal)) return bad_reply("wait");
        x.events.push_back(std::move(e));
    }
    return x;
}

Result<Output> SpawnClient::output(std::int64_t handle, std::int64_t after_line, std::chrono::milliseconds wait) {
    Packer p;
    p.i64(handle).i64(after_line).i64(wait.count());
    auto r = call("output", p.view(), kRequestTimeout + wait);
    if (!r) return r.error();
    Unpacker u(*r);
    Output o;
    std::int64_t n = 0;
    if (!u.i64(o.next_line) || !u.i64(n) || n < 0) return bad_reply("output");
    for (std::int64_t i = 0; i < n; ++i) {
        Line line;
        if (!u.i32(line.stream) || !u.str(line.text)) return bad_reply("output");
        o.lines.push_back(std::move(line));
    }
    if (!u.boolean(o.finished)) return bad_reply("output");
    return o;
}

Result<std::int64_t> SpawnClient::write_stdin(std::int64_t handle, std::span<const std::uint8_t> data, bool close,
                                              std::chrono::milliseconds wait) {
    Packer p;
    p.i64(handle).bytes(data).boolean(close).i64(wait.count());
    auto r = call("stdin", p.view(), kRequestTimeout + wait);
    if (!r) return r.error();
    Unpacker u(*r);
    std::int64_t taken = 0;
    if (!u.i64(taken)) return bad_reply("stdin");
    return taken;
}

}  // namespace harness::spawn_client
