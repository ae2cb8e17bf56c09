#include "host_api.hpp"

#include "daemon.hpp"

#include <cstring>

namespace harness::hcore {

namespace {

Daemon &daemon_of(void *host) { return *static_cast<Daemon *>(host); }

void copy_message(const std::string &message, char *err, std::size_t errlen)
{
    if (!err || errlen == 0) return;
    std::size_t n = std::min(message.size(), errlen - 1);
    std::memcpy(err, message.data(), n);
    err[n] = '\0';
}

int host_load(void *host, const char *package, const char *component, char *err, std::size_t errlen) noexcept
{
    try {
        if (!package || !component) return HARNESS_ERR_INVALID_ARGUMENT;
        auto r = daemon_of(host).load_component(ComponentName{package, component});
        if (!r) {
            copy_message(r.error().message, err, errlen);
            return r.error().status;
        }
        return HARNESS_OK;
    } catch (const std::exception &e) {
        copy_message(e.what(), err, errlen);
    } catch (...) {
        copy_message("unknown exception", err, errlen);
    }
    return HARNESS_ERR_INTERNAL;
}

void host_log(void *host, int level, const char *message) noexcept
{
    try {
        if (message) daemon_of(host).log().log(static_cast<LogLevel>(std::clamp(level, 0, 3)), message);
    } catch (...) {
    }
}

int host_subscribe(void *host, harness_member_hook hook, void *user) noexcept
{
    try {
        if (!hook) return HARNESS_ERR_INVALID_ARGUMENT;
        daemon_of(host).subscribe_members([hook, user](const std::string &id, bool alive) {
            hook(user, id.c_str(), alive ? HARNESS_MEMBER_ALIVE : HARNESS_MEMBER_FAILED);
        });
        return HARNESS_OK;
    } catch (...) {
        return HARNESS_ERR_INTERNAL;
    }
}

const char *host_member_id(void *host) noexcept { return daemon_of(host).id().c_str(); }

} // namespace

harness_host_api make_daemon_host_api(Daemon *daemon)
{
    harness_host_api api{};
    api.struct_size = sizeof api;
    api.host = daemon;
    api.load = host_load;
    api.log = host_log;
    api.subscribe_members = host_subscribe;
    api.member_id = host_member_id;
    return api;
}

} // namespace harness::hcore
