#include <harness/vmview/vm_state.hpp>

#include <algorithm>

namespace harness::hostinfo {

namespace {

const ComponentName kDrd{"vm", "drd"};

Result<Bytes> call_drd(hlib::VirtualMachine &vm, std::string_view function, std::span<const std::uint8_t> args,
                       std::chrono::milliseconds timeout) {
    return vm.local().call(kDrd, function, args, HARNESS_CALL_PACKED, HARNESS_MODE_DEFAULT, hlib::deadline_in(timeout));
}

// vm/drd status: str leader, i64 n, n × str, i64 m, m × str, i64 commit_index.
Result<DrdStatus> drd_status(hlib::VirtualMachine &vm, std::chrono::milliseconds timeout) {
    auto reply = call_drd(vm, "status", {}, timeout);
    if (!reply) return reply.error();
    Unpacker u(*reply);
    DrdStatus s;
    s.known = true;
    std::int64_t n = 0;
    if (!u.str(s.leader) || !u.i64(n) || n < 0 || n > 4096)
        return make_error(HARNESS_ERR_PROTOCOL, "malformed drd status");
    s.voters.resize(static_cast<std::size_t>(n));
    for (auto &v : s.voters)
        if (!u.str(v)) return make_error(HARNESS_ERR_PROTOCOL, "malformed drd status");
    if (!u.i64(n) || n < 0 || n > 4096) return make_error(HARNESS_ERR_PROTOCOL, "malformed drd status");
    s.standbys.resize(static_cast<std::size_t>(n));
    for (auto &v : s.standbys)
        if (!u.str(v)) return make_error(HARNESS_ERR_PROTOCOL, "malformed drd status");
    if (!u.i64(s.commit_index)) return make_error(HARNESS_ERR_PROTOCOL, "malformed drd status");
    return s;
}

// The member id in vm/services/<name> (plain bytes), "" when the record is absent.
Result<std::string> active_instance(hlib::VirtualMachine &vm, const std::string &service,
                                    std::chrono::milliseconds timeout) {
    Packer args;
    args.str("vm/services/" + service).boolean(false);
    auto reply = call_drd(vm, "get", args.view(), timeout);
    if (!reply) return reply.error();
    Unpacker u(*reply);
    bool found = false;
    Bytes value;
    std::int64_t version = 0;
    if (!u.boolean(found) || !u.bytes(value) || !u.i64(version))
        return make_error(HARNESS_ERR_PROTOCOL, "malformed drd get reply");
    return found ? std::string(value.begin(), value.end()) : std::string();
}

}  // namespace

Result<VmState> gather(hlib::VirtualMachine &vm, std::chrono::milliseconds timeout) {
    VmState st;
    st.via = vm.local_id();
    auto members = vm.members();
    if (!members) return members.error();
    for (const auto &m : *members) st.members.push_back({m.id, m.tcp.to_string(), m.alive, m.silent_ms, m.left});
    std::sort(st.members.begin(), st.members.end(), [](const auto &a, const auto &b) { return a.id < b.id; });

    std::map<std::string, std::vector<std::string>> loaded_service;  // service → members with it loaded
    for (auto &per : vm.loaded_everywhere()) {
        if (!per.result) {
            st.notes.push_back("member " + per.member_id + ": " + per.result.error().describe());
            continue;
        }
        auto &list = st.plugins[per.member_id];
        for (const auto &c : *per.result) {
            list.push_back(c.name.to_string() + " " + c.version);
            if (c.name.package == "vm") loaded_service[c.name.component].push_back(per.member_id);
        }
    }
    for (auto &[name, ids] : loaded_service) std::sort(ids.begin(), ids.end());

    // drd and spawn_notify run wherever they are loaded; events and naming
    // have one active instance, named in the DRD.
    st.services["drd"] = loaded_service["drd"];
    st.services["spawn_notify"] = loaded_service["spawn_notify"];
    for (const char *name : {"events", "naming"}) {
        st.services[name] = {};
        if (loaded_service["drd"].empty() ||
            std::find(loaded_service["drd"].begin(), loaded_service["drd"].end(), st.via) ==
                loaded_service["drd"].end()) {
            if (!loaded_service[name].empty())
                st.notes.push_back(std::string(name) + ": no vm/drd on member " + st.via +
                                   " to ask for the active instance");
            continue;
        }
        auto active = active_instance(vm, name, timeout);
        if (!active)
            st.notes.push_back(std::string(name) + ": " + active.error().describe());
        else if (!active->empty())
            st.services[name].push_back(*active);
    }

    if (!loaded_service["drd"].empty()) {
        auto status = drd_status(vm, timeout);
        if (status)
            st.drd = *status;
        else
            st.notes.push_back("drd status: " + status.error().describe());
    }
    return st;
}

}  // namespace harness::hostinfo
