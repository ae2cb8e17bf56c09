/* fetchbench/big: a 1 MiB plugin for the fetch benchmark. The table is
 * initialized data, so the .so really carries the megabyte on disk and over
 * the wire; "first use" calls checksum(), which touches a few of its pages. */
#include <harness/common/plugin.h>

#define BIG_BYTES (1024 * 1024 - 16 * 1024) /* the ELF around it brings the file to about 1 MiB */

static const unsigned char table[BIG_BYTES] = {1, 2, 3, 4, 5, 6, 7, 8};

/* The function, its table and the descriptor are spelled out like tests/fetch/plugin/answer.c's
 * on purpose: each is a stand-alone C plugin against plugin.h alone. */
static int checksum_auto(harness_call_ctx *ctx, const harness_value *args, size_t nargs, harness_value *result) {
    (void)ctx;
    (void)args;
    if (nargs != 0) return HARNESS_ERR_TYPE_MISMATCH;
    int64_t sum = 0;
    for (size_t i = 0; i < BIG_BYTES; i += 65536) sum += table[i];
    result->type = HARNESS_T_I64;
    result->v.i64 = sum;
    return HARNESS_OK;
}

static const harness_function functions[] = {
    {sizeof(harness_function), "checksum", HARNESS_CALL_AUTO, HARNESS_MODE_INLINE, "i64()", NULL, NULL, checksum_auto,
     NULL},
};

static const harness_plugin_descriptor descriptor = {HARNESS_PLUGIN_ABI_MAJOR,
                                                     HARNESS_PLUGIN_ABI_MINOR,
                                                     sizeof(harness_plugin_descriptor),
                                                     "fetchbench",
                                                     "big",
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
