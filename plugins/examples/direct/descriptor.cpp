// examples/direct — an application-level component loaded straight into the
// caller's process by Hlib. add's native pointer is handed out for direct
// invocation; the direct-call benchmark compares it with indirect calls.
#include <harness/plugin.hpp>

namespace {

std::int64_t add(std::int64_t a, std::int64_t b)
{
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

const harness_function kFunctions[] = {
    harness::auto_function<&add>("add"),
};

const harness_plugin_descriptor kDescriptor = {
    HARNESS_PLUGIN_ABI_MAJOR,
    HARNESS_PLUGIN_ABI_MINOR,
    sizeof(harness_plugin_descriptor),
    "examples",
    "direct",
    "1.0.0",
    HARNESS_LEVEL_APPLICATION,
    HARNESS_PER_DAEMON,
    nullptr,
    nullptr,
    sizeof kFunctions / sizeof kFunctions[0],
    kFunctions,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const harness_plugin_descriptor *harness_plugin_entry(void)
{
    return &kDescriptor;
}
