// examples/dependent — a component whose init loads examples/math into the
// same host first (the seed paper's load dependency tree). If that load fails,
// so does this one; a test checks both that math appears as loaded and that
// the failure propagates.
#include <harness/common/plugin.hpp>

#include <cstddef>
#include <cstdio>

namespace {

std::int64_t twice(std::int64_t x) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(x) * 2u);  // wraps, never UB
}

int init(const harness_host_api *host, void **state, char *err, size_t errlen) noexcept {
    *state = nullptr;
    if (!HARNESS_HOST_HAS(host, load)) {
        if (errlen > 0) std::snprintf(err, errlen, "examples/dependent needs a host that can load dependencies");
        return HARNESS_ERR_NOT_SUPPORTED;
    }
    char why[256] = "";
    int status = host->load(host->host, "examples", "math", why, sizeof why);
    if (status != HARNESS_OK) {
        if (errlen > 0)
            std::snprintf(err, errlen, "examples/dependent: loading examples/math failed: %s",
                          why[0] ? why : harness_status_string(status));
        return HARNESS_ERR_LOAD_FAILED;
    }
    return HARNESS_OK;
}

const harness_function kFunctions[] = {
    harness::auto_function<&twice>("twice"),
};

const harness_plugin_descriptor kDescriptor = harness::plugin_descriptor(
    {.package = "examples", .component = "dependent", .version = "1.0.0", .init = &init}, kFunctions);

}  // namespace

HARNESS_PLUGIN_EXPORT(kDescriptor)
