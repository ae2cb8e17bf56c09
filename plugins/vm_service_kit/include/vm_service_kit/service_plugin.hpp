// service_plugin.hpp — the C surface every kit-built VM service shares.
//
// A service (EventsService, NamingService) runs on a DRD record store, the
// host's member directory and an Hlib forwarder to the active instance, and
// follows membership changes. ServicePlugin<Component> builds that instance
// at init, tears it down at fini, and hands each PACKED entry the service:
//
//     struct Events {
//         using Service = EventsService;
//         static constexpr const char *component = "events"; // package "vm"
//         static constexpr const char *label = "vm/events";  // message prefix
//     };
//     using Plugin = ServicePlugin<Events>;
//     int publish(harness_call_ctx *ctx, harness_reader *args, harness_buf *out)
//     {
//         return Plugin::call(ctx, [&](EventsService &s) -> Result<void> { … });
//     }
//     constexpr harness_plugin_descriptor kDescriptor = Plugin::descriptor(kFunctions);
//
// A Service is constructed from (RecordStore &, MemberDirectory &, Forwarder &,
// ActiveRole::LogFn) and has start(), stop(), member_changed(id, alive) and
// where() (the active instance's member id).
#pragma once

#include "drd_record_store.hpp"
#include "hlib_forwarder.hpp"
#include "host_plumbing.hpp"
#include "packed_entry.hpp"

#include <harness/common/plugin_guard.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace harness::vmsvc {

template <class Component>
class ServicePlugin {
public:
    using Service = typename Component::Service;

    static int init(const harness_host_api *host, void **state, char *err, size_t errlen) noexcept {
        return guarded_init(err, errlen, Component::label, [&]() -> Result<void> {
            auto prefixed = [](const Error &e) {
                return make_error(e.status, std::string(Component::label) + ": " + e.message);
            };
            if (auto ok = check_host(host, Component::label); !ok) return prefixed(ok.error());
            auto key = vm_key_of(host);
            if (!key) return prefixed(key.error());
            auto instance = std::make_unique<Instance>(host, std::move(*key));
            auto *service = &instance->service;
            auto hook = MemberHooks::subscribe(
                host, [service](const std::string &id, bool alive) { service->member_changed(id, alive); });
            if (!hook) return prefixed(hook.error());
            instance->hook = *hook;
            instance->service.start();
            *state = instance.release();
            return {};
        });
    }

    static void fini(void *state) {
        auto *instance = static_cast<Instance *>(state);
        if (!instance) return;
        MemberHooks::unsubscribe(instance->hook);
        instance->service.stop();
        delete instance;
    }

    // Runs body(service) for a PACKED entry; a call before init succeeded is
    // refused instead of reaching a null service.
    template <class Body>
    static int call(harness_call_ctx *ctx, Body &&body) noexcept {
        return guarded_call(ctx, Component::label, [&]() -> Result<void> {
            auto *instance = state_of<Instance>(ctx);
            if (!instance)
                return make_error(HARNESS_ERR_INTERNAL,
                                  std::string(Component::label) + ": no plugin state (init not run?)");
            return body(instance->service);
        });
    }

    // The contract's `where`, the same in every service: no arguments, the
    // active instance's member id.
    static int where(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) {
        return call(ctx, [&](Service &service) -> Result<void> {
            if (args->len != 0) return bad_arguments("where", "no arguments");
            auto id = service.where();
            if (!id) return id.error();
            Packer p;
            p.str(*id);
            return reply_with(out, p);
        });
    }

    template <std::size_t N>
    static constexpr harness_plugin_descriptor descriptor(const harness_function (&functions)[N]) {
        return plugin_descriptor(
            {.package = "vm", .component = Component::component, .version = "1.0.0", .init = &init, .fini = &fini},
            functions);
    }

private:
    struct Instance {
        Instance(const harness_host_api *host, VmKey key)
            : store(host), members(host), forwarder(std::move(key), ComponentName{"vm", Component::component}),
              service(store, members, forwarder, host_logger(host, std::string(Component::label) + ": ")) {}
        DrdRecordStore store;
        HostMemberDirectory members;
        HlibForwarder forwarder;
        Service service;
        std::uint64_t hook = 0;
    };
};

}  // namespace harness::vmsvc
