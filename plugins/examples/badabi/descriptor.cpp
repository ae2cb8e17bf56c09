// examples/badabi — a descriptor claiming ABI major 99. The loader must refuse
// it from the descriptor's first fields alone; init aborts so that a loader
// calling anything in it is caught at once (the daemon dies, the test fails).
// Its manifest claims ABI 1 on purpose: only the descriptor check can catch it.
#include "../never_called.hpp"

#include <harness/common/plugin.hpp>

#include <cstdlib>

namespace {

int init(const harness_host_api *, void **, char *, size_t) noexcept {
    std::abort();
}

// Built like any descriptor, then given an ABI major that is not ours.
constexpr harness_plugin_descriptor kDescriptor = [] {
    harness_plugin_descriptor d = harness::plugin_descriptor(
        {.package = "examples", .component = "badabi", .version = "1.0.0", .init = &init}, examples::kNeverCalled);
    d.abi_major = 99;
    return d;
}();

}  // namespace

HARNESS_PLUGIN_EXPORT(kDescriptor)
