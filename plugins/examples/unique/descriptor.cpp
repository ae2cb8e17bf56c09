// examples/unique — a one-per-VM component: loading it on a second daemon of
// the same VM must fail with HARNESS_ERR_ALREADY_IN_VM. whoami tells which
// daemon holds it. Written against the C AUTO interface directly (not
// auto_function) because it needs the call context to reach its init state.
#include <harness/common/plugin.hpp>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

// The host API was handed to init and kept as the plugin state: the host
// outlives every call, so the pointer stays valid until fini.
int init(const harness_host_api *host, void **state, char *err, size_t errlen) noexcept {
    if (!HARNESS_HOST_HAS(host, member_id)) {
        if (errlen > 0) std::snprintf(err, errlen, "examples/unique needs a host offering member_id");
        return HARNESS_ERR_NOT_SUPPORTED;
    }
    *state = const_cast<harness_host_api *>(host);
    return HARNESS_OK;
}

int whoami(harness_call_ctx *ctx, const harness_value *, size_t nargs, harness_value *result) noexcept {
    if (nargs != 0) {
        harness::set_call_error(ctx, "whoami takes no arguments");
        return HARNESS_ERR_TYPE_MISMATCH;
    }
    auto host = static_cast<const harness_host_api *>(ctx->plugin_state);
    if (!host) {
        harness::set_call_error(ctx, "whoami: plugin state missing (init not run?)");
        return HARNESS_ERR_INTERNAL;
    }
    const char *id = host->member_id(host->host);
    if (!id) id = "";
    size_t len = std::strlen(id);
    void *copy = std::malloc(len ? len : 1);  // owned: the host frees it
    if (!copy) {
        harness::set_call_error(ctx, "whoami: out of memory");
        return HARNESS_ERR_INTERNAL;
    }
    std::memcpy(copy, id, len);
    result->type = HARNESS_T_STR;
    result->v.blob.data = copy;
    result->v.blob.len = len;
    result->v.blob.owned = 1;
    return HARNESS_OK;
}

constexpr harness_function kFunctions[] = {
    {sizeof(harness_function), "whoami", HARNESS_CALL_AUTO, HARNESS_MODE_INLINE, "str()", nullptr, nullptr, &whoami,
     nullptr},
};

constexpr harness_plugin_descriptor kDescriptor = harness::plugin_descriptor({.package = "examples",
                                                                              .component = "unique",
                                                                              .version = "1.0.0",
                                                                              .instance_policy = HARNESS_ONE_PER_VM,
                                                                              .init = &init},
                                                                             kFunctions);

}  // namespace

HARNESS_PLUGIN_EXPORT(kDescriptor)
