// examples/failinit — init refuses to start. The host must report the load
// as failed with init's message, keep nothing loaded, and never call fini or
// a function of it.
#include "../never_called.hpp"

#include <harness/common/plugin.hpp>

#include <cstdio>
#include <cstdlib>

namespace {

int init(const harness_host_api *, void **state, char *err, size_t errlen) noexcept {
    *state = nullptr;
    if (errlen > 0) std::snprintf(err, errlen, "failinit refuses to start");
    return HARNESS_ERR_LOAD_FAILED;
}

// Must not run after a failed init (nor may never()): abort makes a host bug loud.
void fini(void *) noexcept {
    std::abort();
}

constexpr harness_plugin_descriptor kDescriptor = harness::plugin_descriptor(
    {.package = "examples", .component = "failinit", .version = "1.0.0", .init = &init, .fini = &fini},
    examples::kNeverCalled);

}  // namespace

HARNESS_PLUGIN_EXPORT(kDescriptor)
