/* A tiny plugin for the fetch tests: one AUTO function "answer" returning
 * ANSWER. Built twice, as fetchtest/alpha (42) and fetchtest/beta (7), so a
 * test can serve one component under the other's name (mix-and-match). */
#include <harness/common/plugin.h>

/* The function, its table and the descriptor are spelled out like bench/plugin_fetch/plugin/big.c's
 * on purpose: each is a stand-alone C plugin against plugin.h alone. */
static int answer_auto(harness_call_ctx *ctx, const harness_value *args, size_t nargs, harness_value *result) {
    (void)ctx;
    (void)args;
    if (nargs != 0) return HARNESS_ERR_TYPE_MISMATCH;
    result->type = HARNESS_T_I64;
    result->v.i64 = ANSWER;
    return HARNESS_OK;
}

static const harness_function functions[] = {
    {sizeof(harness_function), "answer", HARNESS_CALL_AUTO, HARNESS_MODE_INLINE, "i64()", NULL, NULL, answer_auto,
     NULL},
};

static const harness_plugin_descriptor descriptor = {HARNESS_PLUGIN_ABI_MAJOR,
                                                     HARNESS_PLUGIN_ABI_MINOR,
                                                     sizeof(harness_plugin_descriptor),
                                                     "fetchtest",
                                                     COMPONENT,
                                                     "1.0.0",
                                                     HARNESS_LEVEL_DAEMON,
                                                     HARNESS_PER_DAEMON,
                                                     NULL,
                                                     NULL,
                                                     1,
                                                     functions};

__attribute__((visibility("default"))) const harness_plugin_descriptor *harness_plugin_entry(void) {
    return &descriptor;
}
