// vm/naming — the plugin's C surface: the contract's `allocate` and the
// forwarding entry `allocate_active`. init/fini and `where` (the active
// instance's member id) come from the kit's ServicePlugin; the service itself
// is NamingService.
#include "naming_service.hpp"
#include "vm_service_kit/service_plugin.hpp"

namespace {

using namespace harness;
using namespace harness::vmsvc;

struct Naming {
    using Service = NamingService;
    static constexpr const char *component = "naming";
    static constexpr const char *label = "vm/naming";
};
using Plugin = ServicePlugin<Naming>;

template <bool Active>
int allocate_entry(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) {
    return Plugin::call(ctx, [&](NamingService &service) -> Result<void> {
        std::string space;
        std::int64_t count = 0;
        Unpacker u({args->data, args->len});
        if (!u.str(space) || !u.i64(count) || !u.done())
            return bad_arguments(Active ? "allocate_active" : "allocate", "str space, i64 count");
        auto first = Active ? service.allocate_active(space, count) : service.allocate(space, count);
        if (!first) return first.error();
        Packer p;
        p.i64(*first);
        return reply_with(out, p);
    });
}

// Allocation may wait on consensus: thread mode keeps the I/O thread free.
constexpr harness_function kFunctions[] = {
    packed_function("allocate", &allocate_entry<false>, HARNESS_MODE_THREAD),
    packed_function("where", &Plugin::where, HARNESS_MODE_THREAD),
    packed_function("allocate_active", &allocate_entry<true>, HARNESS_MODE_THREAD),
};

constexpr harness_plugin_descriptor kDescriptor = Plugin::descriptor(kFunctions);

}  // namespace

HARNESS_PLUGIN_EXPORT(kDescriptor)
