// What hostinfo and the web view show, gathered through one daemon with
// Hlib: the members and their liveness, the components each live member has
// loaded, where the VM services run (drd and spawn_notify wherever loaded;
// the active instance of events and naming from the DRD records
// vm/services/<name>), and the DRD's voters and standbys (vm/drd status).
// Parts that cannot be read (no DRD, a member that does not answer) are
// reported as notes, not failures.
#pragma once

#include <harness/hlib/hlib.hpp>

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace harness::hostinfo {

struct MemberState {
    std::string id;
    std::string address;
    bool alive = true;
    std::int64_t silent_ms = 0;
    bool left = false;  // not alive because it stopped cleanly
};

struct DrdStatus {
    bool known = false;
    std::string leader;
    std::vector<std::string> voters, standbys;
    std::int64_t commit_index = 0;
};

struct VmState {
    std::string via;  // the member id of the daemon asked
    std::vector<MemberState> members;
    std::map<std::string, std::vector<std::string>> plugins;   // member id → "PKG/COMP version"
    std::map<std::string, std::vector<std::string>> services;  // service name → member ids hosting it
    DrdStatus drd;
    std::vector<std::string> notes;  // what could not be read, and why
};

// The whole state, or an error when the daemon cannot be reached at all.
Result<VmState> gather(hlib::VirtualMachine &vm, std::chrono::milliseconds timeout);

// The `hostinfo --json` document (tools/hostinfo/README.md), which the web
// view's /api/vm serves too.
nlohmann::json to_json(const VmState &st);

}  // namespace harness::hostinfo
