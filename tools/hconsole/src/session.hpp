// hconsole's state between commands: settings, the lazily opened VM, output.
#pragma once

#include <harness/hlib/hlib.hpp>

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace harness::hconsole {

struct Settings {
    hlib::ConnectOptions connect;
    bool json = false;
};

struct CallRequest {
    std::string component;  // PKG/COMP
    std::string function;
    std::vector<std::string> arguments;  // literals
    bool all = false;
    std::vector<std::string> on;  // member ids
    bool udp = false;
    std::string mode;  // inline|thread|fork|service or empty
};

// Every command prints its result on out and returns an exit status; on
// failure it writes one line "hconsole: reason" on err.
class Session {
public:
    Session(Settings settings, std::ostream &out, std::ostream &err);

    int members();
    int add(const std::string &host_port);
    int load(const std::string &component, const std::vector<std::string> &on, bool all);
    int loaded();
    int call(const CallRequest &request);
    int halt();
    // The web view's token (docs/webview.md), from the key file alone: no daemon is asked.
    int web_token();

    Settings &settings() { return settings_; }

private:
    hlib::VirtualMachine *vm();  // connects on first use; null after a reported failure
    int fail(const std::string &reason);
    int fail(const Error &error) { return fail(error.describe()); }
    std::chrono::milliseconds timeout() const { return settings_.connect.timeout; }

    Settings settings_;
    std::ostream &out_;
    std::ostream &err_;
    std::optional<hlib::VirtualMachine> vm_;
};

// "inline", "thread", "fork", "service" (or empty: the function's default).
Result<harness_mode> parse_mode(std::string_view text);

}  // namespace harness::hconsole
