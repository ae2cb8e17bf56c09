// examples/badabi — a descriptor claiming ABI major 99. The loader must refuse
// it from the descriptor's first fields alone; init aborts so that a loader
// calling anything in it is caught at once (the daemon dies, the test fails).
// Its manifest claims ABI 1 on purpose: only the descriptor check can catch it.
#include <harness/common/plugin.hpp>

#include <cstdlib>

namespace {

int init(const harness_host_api *, void **, char *, size_t) noexcept {
    std::abort();
}

int never(harness_call_ctx *, const harness_value *, size_t, harness_value *) noexcept {
    std::abort();
}

constexpr harness_function kFunctions[] = {
    {sizeof(harness_function), "never", HARNESS_CALL_AUTO, HARNESS_MODE_INLINE, "i64()", nullptr, nullptr, &never,
     nullptr},
};

// Built like any descriptor, then given an ABI major that is not ours.
constexpr harness_plugin_descriptor kDescriptor = [] {
    harness_plugin_descriptor d = harness::plugin_descriptor(
        {.package = "examples", .component = "badabi", .version = "1.0.0", .init = &init}, kFunctions);
    d.abi_major = 99;
    return d;
}();

}  // namespace

HARNESS_PLUGIN_EXPORT(kDescriptor)
