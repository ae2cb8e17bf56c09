// Session: connecting, and the membership commands (members, add, halt).
#include "session.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iomanip>
#include <ostream>

namespace harness::hconsole {

Session::Session(Settings settings, std::ostream &out, std::ostream &err)
    : settings_(std::move(settings)), out_(out), err_(err) {}

int Session::fail(const std::string &reason) {
    err_ << "hconsole: " << reason << std::endl;
    return 1;
}

hlib::VirtualMachine *Session::vm() {
    if (vm_) return &*vm_;
    auto vm = hlib::VirtualMachine::connect(settings_.connect);
    if (!vm) {
        fail("cannot reach the local daemon: " + vm.error().describe());
        return nullptr;
    }
    vm_.emplace(std::move(*vm));
    return &*vm_;
}

Result<harness_mode> parse_mode(std::string_view text) {
    if (text.empty() || text == "default") return HARNESS_MODE_DEFAULT;
    if (text == "inline") return HARNESS_MODE_INLINE;
    if (text == "thread") return HARNESS_MODE_THREAD;
    if (text == "fork") return HARNESS_MODE_FORK;
    if (text == "service") return HARNESS_MODE_SERVICE;
    return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                      "mode \"" + std::string(text) + "\" is not one of inline, thread, fork, service");
}

int Session::members() {
    auto *v = vm();
    if (!v) return 1;
    auto members = v->members();
    if (!members) return fail(members.error());
    if (settings_.json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto &m : *members)
            list.push_back({{"id", m.id},
                            {"tcp", m.tcp.to_string()},
                            {"udp", m.udp.to_string()},
                            {"state", m.alive ? "alive" : "failed"},
                            {"silent_ms", m.silent_ms}});
        out_ << nlohmann::json{{"members", list}}.dump() << std::endl;
        return 0;
    }
    std::size_t w_id = 2, w_tcp = 3, w_udp = 3;
    for (const auto &m : *members) {
        w_id = std::max(w_id, m.id.size());
        w_tcp = std::max(w_tcp, m.tcp.to_string().size());
        w_udp = std::max(w_udp, m.udp.to_string().size());
    }
    auto row = [&](const std::string &id, const std::string &tcp, const std::string &udp, const std::string &state,
                   const std::string &silent) {
        out_ << std::left << std::setw(static_cast<int>(w_id)) << id << "  " << std::setw(static_cast<int>(w_tcp))
             << tcp << "  " << std::setw(static_cast<int>(w_udp)) << udp << "  " << std::setw(6) << state << "  "
             << silent << "\n";
    };
    row("ID", "TCP", "UDP", "STATE", "SILENT_MS");
    for (const auto &m : *members)
        row(m.id, m.tcp.to_string(), m.udp.to_string(), m.alive ? "alive" : "failed", std::to_string(m.silent_ms));
    out_ << std::flush;
    return 0;
}

int Session::add(const std::string &host_port) {
    auto where = parse_endpoint(host_port);
    if (!where) return fail(where.error());
    auto *v = vm();
    if (!v) return 1;
    // Joining takes a handshake and a membership exchange with the new host:
    // allow it twice the usual time.
    auto id = v->local().add(*where, hlib::deadline_in(2 * timeout()));
    if (!id) return fail("add " + host_port + ": " + id.error().describe());
    if (settings_.json)
        out_ << nlohmann::json{{"id", *id}, {"address", where->to_string()}}.dump() << std::endl;
    else
        out_ << "added " << *id << " at " << where->to_string() << std::endl;
    return 0;
}

int Session::halt() {
    auto *v = vm();
    if (!v) return 1;
    auto r = v->local().halt(true, hlib::deadline_in(timeout()));
    if (!r) return fail("halt: " + r.error().describe());
    vm_.reset();  // the daemon is gone
    if (settings_.json)
        out_ << nlohmann::json{{"halted", true}}.dump() << std::endl;
    else
        out_ << "halt requested for the whole VM" << std::endl;
    return 0;
}

}  // namespace harness::hconsole
