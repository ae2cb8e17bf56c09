// examples/direct — an application-level component loaded straight into the
// caller's process by Hlib. add's native pointer is handed out for direct
// invocation; the direct-call benchmark compares it with indirect calls. It
// also exports the typed interface "examples.adder" (examples_adder.h), the
// sample of ABI 1.2's interface slot.
#include "examples_adder.h"

#include <harness/common/plugin.hpp>

namespace {

std::int64_t add(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

std::int64_t sum(const std::int64_t *values, std::size_t count) {
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < count; ++i) total += static_cast<std::uint64_t>(values[i]);
    return static_cast<std::int64_t>(total);
}

const harness_function kFunctions[] = {
    harness::auto_function<&add>("add"),
};

const examples_adder_ops kAdderOps = {sizeof(examples_adder_ops), add, sum};

const harness_interface kInterfaces[] = {
    {sizeof(harness_interface), EXAMPLES_ADDER_INTERFACE, EXAMPLES_ADDER_VERSION, &kAdderOps},
};

const harness_plugin_descriptor kDescriptor = harness::plugin_descriptor(
    {.package = "examples", .component = "direct", .version = "1.0.0", .level = HARNESS_LEVEL_APPLICATION}, kFunctions,
    kInterfaces);

}  // namespace

HARNESS_PLUGIN_EXPORT(kDescriptor)
