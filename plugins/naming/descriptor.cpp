// vm/naming — the plugin's C surface: init/fini, the contract's `allocate`,
// `where` (the active instance's member id) and the forwarding entry
// `allocate_active`. The service itself is NamingService.
#include "naming_service.hpp"
#include "shared/drd_record_store.hpp"
#include "shared/hlib_forwarder.hpp"
#include "shared/host_plumbing.hpp"
#include "shared/packed_entry.hpp"

#include <cstdio>
#include <memory>

namespace {

using namespace harness;
using namespace harness::vmsvc;

struct Instance {
    Instance(const harness_host_api *host, VmKey key)
        : store(host), members(host), forwarder(std::move(key), ComponentName{"vm", "naming"}),
          service(store, members, forwarder, host_logger(host, "vm/naming: "))
    {
    }
    DrdRecordStore store;
    HostMemberDirectory members;
    HlibForwarder forwarder;
    NamingService service;
    std::uint64_t hook = 0;
};

int init(const harness_host_api *host, void **state, char *err, size_t errlen) noexcept
{
    auto fail = [&](const Error &e) {
        if (errlen > 0) std::snprintf(err, errlen, "vm/naming: %s", e.message.c_str());
        return e.status;
    };
    try {
        if (auto ok = check_host(host, "vm/naming"); !ok) return fail(ok.error());
        auto key = vm_key_of(host);
        if (!key) return fail(key.error());
        auto instance = std::make_unique<Instance>(host, std::move(*key));
        auto *service = &instance->service;
        auto hook = MemberHooks::subscribe(host, [service](const std::string &id, bool alive) { service->member_changed(id, alive); });
        if (!hook) return fail(hook.error());
        instance->hook = *hook;
        instance->service.start();
        *state = instance.release();
        return HARNESS_OK;
    } catch (const std::exception &e) {
        return fail(make_error(HARNESS_ERR_INTERNAL, e.what()));
    } catch (...) {
        return fail(make_error(HARNESS_ERR_INTERNAL, "unknown exception"));
    }
}

void fini(void *state)
{
    auto *instance = static_cast<Instance *>(state);
    if (!instance) return;
    MemberHooks::unsubscribe(instance->hook);
    instance->service.stop();
    delete instance;
}

Result<void> no_state() { return make_error(HARNESS_ERR_INTERNAL, "vm/naming: no plugin state (init not run?)"); }

template <bool Active>
int allocate_entry(harness_call_ctx *ctx, harness_reader *args, harness_buf *out)
{
    return guarded(ctx, [&]() -> Result<void> {
        auto *in = state_of<Instance>(ctx);
        if (!in) return no_state();
        std::string space;
        std::int64_t count = 0;
        Unpacker u({args->data, args->len});
        if (!u.str(space) || !u.i64(count) || !u.done())
            return bad_arguments(Active ? "allocate_active" : "allocate", "str space, i64 count");
        auto first = Active ? in->service.allocate_active(space, count) : in->service.allocate(space, count);
        if (!first) return first.error();
        Packer p;
        p.i64(*first);
        return reply_with(out, p);
    });
}

int where(harness_call_ctx *ctx, harness_reader *args, harness_buf *out)
{
    return guarded(ctx, [&]() -> Result<void> {
        auto *in = state_of<Instance>(ctx);
        if (!in) return no_state();
        if (args->len != 0) return bad_arguments("where", "no arguments");
        auto id = in->service.where();
        if (!id) return id.error();
        Packer p;
        p.str(*id);
        return reply_with(out, p);
    });
}

// Allocation may wait on consensus: thread mode keeps the I/O thread free.
const harness_function kFunctions[] = {
    packed_function("allocate", &allocate_entry<false>, HARNESS_MODE_THREAD),
    packed_function("where", &where, HARNESS_MODE_THREAD),
    packed_function("allocate_active", &allocate_entry<true>, HARNESS_MODE_THREAD),
};

const harness_plugin_descriptor kDescriptor = {
    HARNESS_PLUGIN_ABI_MAJOR,
    HARNESS_PLUGIN_ABI_MINOR,
    sizeof(harness_plugin_descriptor),
    "vm",
    "naming",
    "1.0.0",
    HARNESS_LEVEL_DAEMON,
    HARNESS_PER_DAEMON,
    &init,
    &fini,
    sizeof kFunctions / sizeof kFunctions[0],
    kFunctions,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const harness_plugin_descriptor *harness_plugin_entry(void)
{
    return &kDescriptor;
}
