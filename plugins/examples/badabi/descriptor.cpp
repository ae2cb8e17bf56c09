// examples/badabi — a descriptor claiming ABI major 99. The loader must refuse
// it from the descriptor's first fields alone; init aborts so that a loader
// calling anything in it is caught at once (the daemon dies, the test fails).
// Its manifest claims ABI 1 on purpose: only the descriptor check can catch it.
#include <harness/plugin.h>

#include <cstdlib>

namespace {

int init(const harness_host_api *, void **, char *, size_t) noexcept { std::abort(); }

int never(harness_call_ctx *, const harness_value *, size_t, harness_value *) noexcept { std::abort(); }

constexpr harness_function kFunctions[] = {
    {sizeof(harness_function), "never", HARNESS_CALL_AUTO, HARNESS_MODE_INLINE, "i64()", nullptr, nullptr, &never,
     nullptr},
};

constexpr harness_plugin_descriptor kDescriptor = {
    99, // abi_major: not ours
    0,
    sizeof(harness_plugin_descriptor),
    "examples",
    "badabi",
    "1.0.0",
    HARNESS_LEVEL_DAEMON,
    HARNESS_PER_DAEMON,
    &init,
    nullptr,
    sizeof kFunctions / sizeof kFunctions[0],
    kFunctions,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const harness_plugin_descriptor *harness_plugin_entry(void)
{
    return &kDescriptor;
}
