// VirtualMachine: what is loaded where, and function references (class 2, 3).
#include "wire.hpp"

#include <algorithm>

namespace harness::hlib {

using namespace detail;
using protocol::Type;

namespace {

const FunctionInfo *find_function(const std::vector<ComponentInfo> &loaded, const ComponentName &name,
                                  std::string_view function, bool *component_found) {
    for (const auto &c : loaded) {
        if (!(c.name == name)) continue;
        if (component_found) *component_found = true;
        for (const auto &f : c.functions)
            if (f.name == function) return &f;
    }
    return nullptr;
}

Error no_function(const ComponentName &name, std::string_view function, bool component_found) {
    if (component_found)
        return make_error(HARNESS_ERR_NOT_FOUND, name.to_string() + " has no function " + std::string(function));
    return make_error(HARNESS_ERR_NOT_FOUND, name.to_string() + " is not loaded on any daemon");
}

}  // namespace

std::vector<PerDaemon<std::vector<ComponentInfo>>> VirtualMachine::loaded_everywhere() {
    auto deadline = deadline_in(options_.timeout);
    std::vector<PerDaemon<std::vector<ComponentInfo>>> out;
    auto members = members_refresh(deadline);
    if (!members) {
        out.push_back({local_->connection().peer_id(), members.error()});
        return out;
    }
    std::vector<Target> targets;
    for (const auto &m : *members) targets.push_back({m.id, m.tcp, m.udp, {}});
    for (auto &r : fan_out(targets, Type::loaded, Transport::tcp, deadline)) {
        if (!r.result)
            out.push_back({r.member_id, r.result.error()});
        else
            out.push_back({r.member_id, decode_loaded(*r.result)});
    }
    return out;
}

Result<FunctionRef> VirtualMachine::get_function(const ComponentName &name, std::string_view function) {
    // The local daemon first: the cheapest place to call.
    auto deadline = deadline_in(options_.timeout);
    auto local = local_daemon(deadline);
    if (!local) return local.error();
    auto loaded = (*local)->loaded(deadline);
    if (!loaded) return loaded.error();
    bool component_found = false;
    if (const FunctionInfo *f = find_function(*loaded, name, function, &component_found)) {
        FunctionRef ref{local_id(), {}, {}, name, *f};
        if (auto me = known_member(local_id(), deadline)) {
            ref.tcp = me->tcp;
            ref.udp = me->udp;
        }
        return ref;
    }
    if (component_found) return no_function(name, function, true);
    auto all = get_functions(name, function);
    if (!all) return all.error();
    return all->front();
}

Result<std::vector<FunctionRef>> VirtualMachine::get_functions(const ComponentName &name, std::string_view function) {
    // Ask every member what it runs (authoritative), and add what the local
    // daemon's LOCATE knows about members that cannot answer right now, so a
    // parallel call reports those as failed instead of silently skipping them.
    auto deadline = deadline_in(options_.timeout);
    auto members = members_refresh(deadline);
    if (!members) return members.error();
    std::vector<Target> targets;
    for (const auto &m : *members)
        if (m.alive) targets.push_back({m.id, m.tcp, m.udp, {}});
    auto answers = fan_out(targets, Type::loaded, Transport::tcp, deadline);

    std::vector<FunctionRef> refs;
    std::optional<FunctionInfo> info;
    bool component_found = false;
    std::vector<std::size_t> silent;  // alive members that did not say what they run
    for (std::size_t i = 0; i < answers.size(); ++i) {
        if (!answers[i].result) {
            silent.push_back(i);
            continue;
        }
        auto loaded = decode_loaded(*answers[i].result);
        if (!loaded) continue;
        if (const FunctionInfo *f = find_function(*loaded, name, function, &component_found)) {
            refs.push_back({targets[i].member_id, targets[i].tcp, targets[i].udp, name, *f});
            info = *f;
        }
    }
    if (!info) return no_function(name, function, component_found);

    // A member that could not answer may well run it: include it, so that a
    // call reports its error instead of silently leaving it out.
    for (std::size_t i : silent) refs.push_back({targets[i].member_id, targets[i].tcp, targets[i].udp, name, *info});

    auto located = local_->locate(name, deadline);
    if (located) {
        for (const auto &id : *located) {
            bool have = std::any_of(refs.begin(), refs.end(), [&](const FunctionRef &r) { return r.member_id == id; });
            if (have) continue;
            for (const auto &m : *members)
                if (m.id == id) refs.push_back({m.id, m.tcp, m.udp, name, *info});
        }
    }
    return refs;
}

}  // namespace harness::hlib
