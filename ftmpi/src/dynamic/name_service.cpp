// The names of MPI_Publish_name: records of the VM's DRD through the local
// daemon, or a table of this process without a VM (name_service.hpp).
#include "dynamic/name_service.hpp"

#include "dynamic/port_name.hpp"
#include "internal/runtime.hpp"
#include "mpi.h"
#include "runtime/log.hpp"

#include <harness/common/pack.hpp>
#include <harness/hlib/busy_retry.hpp>
#include <harness/hlib/hlib.hpp>

#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <unistd.h>

namespace ftmpi::dynamic {
namespace {

namespace hl = harness::hlib;
const harness::ComponentName names_drd{"vm", "drd"};
constexpr std::chrono::milliseconds names_timeout{10000};

std::string record_key(const std::string &service) {
    return "mpi-name/" + service;
}

// One call to the DRD through a fresh connection to the local daemon (names
// are published rarely). Nothing when the daemon cannot be reached or the
// call fails (said on stderr unless `quiet`).
std::optional<harness::Bytes> call_names_drd(const char *function, const char *what, const harness::Packer &args,
                                             bool quiet = false) {
    hl::ConnectOptions options;
    options.timeout = names_timeout;
    auto vm = hl::VirtualMachine::connect(options.resolved());
    if (!vm) {
        if (quiet) return std::nullopt;
        log::error("%s: cannot reach the local HARNESS daemon: %s", function, vm.error().describe().c_str());
        return std::nullopt;
    }
    auto reply = hl::call_while_busy(vm->local(), names_drd, what, args.view(), hl::deadline_in(names_timeout));
    if (!reply) {
        if (quiet) return std::nullopt;
        log::error("%s: vm/drd %s failed: %s", function, what, reply.error().describe().c_str());
        return std::nullopt;
    }
    return std::move(*reply);
}

// Whether names go to the DRD: under a VM (the launcher hands its ranks the
// daemon in HARNESS_HCORE, as the failure notifier reads it) whose DRD
// answers. Asked once; a VM without a DRD falls back to this process's
// table, said once on stderr.
bool vm_names() {
    static const bool answer = [] {
        const char *hcore = std::getenv("HARNESS_HCORE");
        if (hcore == nullptr || *hcore == '\0') return false;
        harness::Packer probe;
        probe.str(record_key("")).boolean(false);
        if (call_names_drd("MPI_Publish_name", "get", probe, /*quiet=*/true)) return true;
        log::warn("MPI_Publish_name and MPI_Lookup_name: the VM's vm/drd does not answer; published names are "
                  "kept in this process only");
        return false;
    }();
    return answer;
}

// The port a service is published with in the DRD: nothing when absent;
// MPI_ERR_OTHER in *err when the DRD could not answer.
std::optional<std::string> drd_lookup(const char *function, const std::string &service, int *err) {
    harness::Packer get;
    get.str(record_key(service)).boolean(true);
    auto reply = call_names_drd(function, "get", get);
    *err = reply ? MPI_SUCCESS : MPI_ERR_OTHER;
    if (!reply) return std::nullopt;
    harness::Unpacker in(*reply);
    bool found = false;
    harness::Bytes value;
    std::int64_t version = 0;
    if (!in.boolean(found) || (found && (!in.bytes(value) || !in.i64(version)))) {
        *err = MPI_ERR_OTHER;
        log::error("%s: malformed vm/drd get reply", function);
        return std::nullopt;
    }
    if (!found) return std::nullopt;
    return std::string(value.begin(), value.end());
}

// Who writes, for the DRD's exactly-once rule: call_while_busy may send a
// cas or del again after the first one took effect, and the DRD then
// answers the first outcome instead of applying it twice.
harness::Packer &add_requester(harness::Packer &args) {
    static const std::string client =
        "ftmpi-names/" + job_id() + "/" + std::to_string(runtime::world_rank()) + "/" + std::to_string(getpid());
    static std::atomic<std::int64_t> requests{0};
    return args.str(client).i64(++requests);
}

// Without a VM.
std::mutex local_names_mutex;
std::map<std::string, std::string> &local_names() {
    static std::map<std::string, std::string> names;
    return names;
}

}  // namespace

int publish_name(const std::string &service, const std::string &port) {
    if (!vm_names()) {
        std::lock_guard lk(local_names_mutex);
        return local_names().emplace(service, port).second ? MPI_SUCCESS : MPI_ERR_SERVICE;
    }
    harness::Packer cas;
    cas.str(record_key(service)).i64(0);  // 0: the record must not exist yet
    cas.bytes({reinterpret_cast<const std::uint8_t *>(port.data()), port.size()});
    cas.str("voters");
    add_requester(cas);
    auto reply = call_names_drd("MPI_Publish_name", "cas", cas);
    if (!reply) return MPI_ERR_OTHER;
    harness::Unpacker in(*reply);
    bool ok = false;
    if (!in.boolean(ok)) return MPI_ERR_OTHER;
    return ok ? MPI_SUCCESS : MPI_ERR_SERVICE;
}

int lookup_name(const std::string &service, std::string *port) {
    if (!vm_names()) {
        std::lock_guard lk(local_names_mutex);
        auto it = local_names().find(service);
        if (it == local_names().end()) return MPI_ERR_NAME;
        *port = it->second;
        return MPI_SUCCESS;
    }
    int err = MPI_SUCCESS;
    auto found = drd_lookup("MPI_Lookup_name", service, &err);
    if (err != MPI_SUCCESS) return err;
    if (!found) return MPI_ERR_NAME;
    *port = *found;
    return MPI_SUCCESS;
}

int unpublish_name(const std::string &service, const std::string &port) {
    if (!vm_names()) {
        std::lock_guard lk(local_names_mutex);
        auto it = local_names().find(service);
        if (it == local_names().end() || it->second != port) return MPI_ERR_SERVICE;
        local_names().erase(it);
        return MPI_SUCCESS;
    }
    int err = MPI_SUCCESS;
    auto found = drd_lookup("MPI_Unpublish_name", service, &err);
    if (err != MPI_SUCCESS) return err;
    if (!found || *found != port) return MPI_ERR_SERVICE;
    harness::Packer del;
    del.str(record_key(service));
    add_requester(del);
    auto reply = call_names_drd("MPI_Unpublish_name", "del", del);
    if (!reply) return MPI_ERR_OTHER;
    harness::Unpacker in(*reply);
    bool existed = false;
    if (!in.boolean(existed)) return MPI_ERR_OTHER;
    return existed ? MPI_SUCCESS : MPI_ERR_SERVICE;  // unpublished meanwhile by another caller
}

}  // namespace ftmpi::dynamic
