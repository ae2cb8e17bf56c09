// `hconsole call PKG/COMP FUNC ARG…`: typed literals packed for the function's
// convention, one line of result per daemon.
#include "session.hpp"

#include <harness/console/hconsole_literal.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>

namespace harness::hconsole {

int Session::call(const CallRequest &request) {
    auto name = parse_component_name(request.component);
    if (!name) return fail(name.error());
    auto literals = parse_literals(request.arguments);
    if (!literals) return fail(literals.error());
    auto mode = parse_mode(request.mode);
    if (!mode) return fail(mode.error());
    auto *v = vm();
    if (!v) return 1;

    std::vector<hlib::FunctionRef> refs;
    if (request.all || !request.on.empty()) {
        auto all = v->get_functions(*name, request.function);
        if (!all) return fail(all.error());
        for (auto &f : *all)
            if (request.on.empty() || std::count(request.on.begin(), request.on.end(), f.member_id)) refs.push_back(f);
        for (const auto &id : request.on)
            if (std::none_of(refs.begin(), refs.end(), [&](const auto &f) { return f.member_id == id; }))
                return fail(name->to_string() + " is not loaded on " + id);
    } else {
        auto one = v->get_function(*name, request.function);
        if (!one) return fail(one.error());
        refs.push_back(*one);
    }

    const hlib::FunctionInfo &info = refs.front().function;
    Result<Bytes> args = make_error(HARNESS_ERR_INTERNAL, "");
    if (info.convention == HARNESS_CALL_AUTO) {
        auto sig = parse_signature(info.signature);
        if (!sig) return fail(sig.error());
        args = pack_for_signature(*literals, *sig);
    } else if (info.convention == HARNESS_CALL_PACKED) {
        args = pack_literals(*literals);
    } else {
        return fail(request.function + " is a RAW function: it speaks its own protocol, hconsole cannot call it");
    }
    if (!args) return fail(args.error());

    hlib::CallOptions options;
    options.transport = request.udp ? hlib::Transport::udp : hlib::Transport::tcp;
    options.mode = *mode;
    options.timeout = timeout();
    std::vector<hlib::PerDaemon<Bytes>> replies;
    if (refs.size() == 1)
        replies.push_back({refs.front().member_id, v->call_packed(refs.front(), *args, options)});
    else
        replies = v->call_packed_parallel(refs, *args, options);

    std::size_t failed = 0;
    nlohmann::json list = nlohmann::json::array();
    for (const auto &r : replies) {
        Result<Bytes> reply = r.result;
        if (!reply) {
            ++failed;
            if (settings_.json)
                list.push_back({{"id", r.member_id}, {"error", reply.error().describe()}});
            else
                out_ << r.member_id << ": error: " << reply.error().describe() << "\n";
            continue;
        }
        if (settings_.json) {
            auto items = items_json(*reply);
            if (!items) {
                ++failed;
                list.push_back({{"id", r.member_id}, {"error", items.error().describe()}});
            } else if (info.convention == HARNESS_CALL_AUTO) {
                list.push_back({{"id", r.member_id}, {"value", items->empty() ? nlohmann::json() : (*items)[0]}});
            } else {
                list.push_back({{"id", r.member_id}, {"values", *items}});
            }
            continue;
        }
        auto items = format_items(*reply);
        if (!items) {
            ++failed;
            out_ << r.member_id << ": error: " << items.error().describe() << "\n";
            continue;
        }
        out_ << r.member_id << ":";
        if (items->empty()) out_ << " (no value)";
        for (const auto &item : *items) out_ << " " << item;
        out_ << "\n";
    }
    if (settings_.json) out_ << nlohmann::json{{"results", list}}.dump() << "\n";
    out_ << std::flush;
    if (failed)
        return fail(name->to_string() + " " + request.function + " failed on " + std::to_string(failed) + " of " +
                    std::to_string(replies.size()) + " daemon(s)");
    return 0;
}

}  // namespace harness::hconsole
