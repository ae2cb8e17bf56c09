// Where the web view's data comes from: this daemon, asked through Hlib as
// hostinfo and cominfo ask it (the gathering and the JSON are theirs, from
// harness_vmview), so /api/vm is `hostinfo --json` and /api/jobs/<J> is
// `cominfo --job J --json`. Each caller opens its own connection: Hlib's
// VirtualMachine is not shared between threads.
#pragma once

#include <harness/common/plugin.h>
#include <harness/hlib/hlib.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>

namespace harness::web {

// JSON as the web view sends it: compact, and never throwing on a string
// that is not valid UTF-8 (a name a user gave): such bytes become U+FFFD.
inline std::string to_text(const nlohmann::json &j) {
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The most jobs /api/jobs and the live feed carry, newest first.
inline constexpr std::size_t kMaxJobs = 20;

class VmSource {
public:
    explicit VmSource(const harness_host_api *host) : host_(host) {}

    // A connection to this daemon (its TCP address from the member list,
    // with the VM key), authenticated like any tool's.
    Result<hlib::VirtualMachine> connect() const;

    // `hostinfo --json`.
    static Result<nlohmann::json> vm_state(hlib::VirtualMachine &vm);
    // {"jobs": [`cominfo --json` of each job, newest first, at most kMaxJobs], "total": n, "notes": […]}.
    static Result<nlohmann::json> jobs(hlib::VirtualMachine &vm);
    // `cominfo --job J --json`; NOT_FOUND when job J has no records.
    static Result<nlohmann::json> job(hlib::VirtualMachine &vm, const std::string &id);

    static constexpr std::chrono::milliseconds kTimeout{5000};

private:
    const harness_host_api *host_;
};

}  // namespace harness::web
