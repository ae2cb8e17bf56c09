#include "vm_service_kit/host_plumbing.hpp"

#include <cstddef>
#include <map>
#include <mutex>

namespace harness::vmsvc {

namespace {

std::mutex hooks_mutex;
std::map<std::uint64_t, MemberHooks::Hook> hooks;
std::uint64_t next_handle = 1;

void on_member(void *user, const char *member_id, int state) {
    try {
        std::lock_guard lock(hooks_mutex);
        auto it = hooks.find(reinterpret_cast<std::uintptr_t>(user));
        if (it != hooks.end() && member_id) it->second(member_id, state == HARNESS_MEMBER_ALIVE);
    } catch (...) {  // nothing crosses the C callback
    }
}

}  // namespace

Result<void> check_host(const harness_host_api *host, const char *service) {
    if (!host) return make_error(HARNESS_ERR_NOT_SUPPORTED, std::string(service) + " needs a host");
    if (!HARNESS_HOST_HAS(host, member_id) || !HARNESS_HOST_HAS(host, subscribe_members) ||
        !HARNESS_HOST_HAS(host, list_members) || !HARNESS_HOST_HAS(host, key_file) ||
        !HARNESS_HOST_HAS(host, call_local))
        return make_error(HARNESS_ERR_NOT_SUPPORTED,
                          std::string(service) +
                              " runs only in a daemon offering host API 1.1 "
                              "(member_id, subscribe_members, list_members, key_file, call_local)");
    const char *id = host->member_id(host->host);
    if (!id || !*id)
        return make_error(HARNESS_ERR_NOT_SUPPORTED, std::string(service) + " needs a daemon with a member id");
    return {};
}

Result<VmKey> vm_key_of(const harness_host_api *host) {
    const char *file = host->key_file(host->host);
    if (!file || !*file) return make_error(HARNESS_ERR_NOT_SUPPORTED, "the host names no VM key file");
    return load_key(file);
}

ActiveRole::LogFn host_logger(const harness_host_api *host, std::string prefix) {
    return [host, prefix = std::move(prefix)](int level, const std::string &message) {
        if (host && host->log) host->log(host->host, level, (prefix + message).c_str());
    };
}

Result<std::uint64_t> MemberHooks::subscribe(const harness_host_api *host, Hook hook) {
    std::uint64_t handle = 0;
    {
        std::lock_guard lock(hooks_mutex);
        handle = next_handle++;
        hooks.emplace(handle, std::move(hook));
    }
    int status =
        host->subscribe_members(host->host, &on_member, reinterpret_cast<void *>(static_cast<std::uintptr_t>(handle)));
    if (status != HARNESS_OK) {
        unsubscribe(handle);
        return make_error(status, "subscribe_members refused");
    }
    return handle;
}

void MemberHooks::unsubscribe(std::uint64_t handle) {
    std::lock_guard lock(hooks_mutex);
    hooks.erase(handle);
}

}  // namespace harness::vmsvc
