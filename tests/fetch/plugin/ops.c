/* fetchtest/ops: an application-level plugin exporting the typed interface
 * "fetchtest.answer" v1 (fetchtest_answer.h) and no function, published by
 * the fetch tests so that a process gets it through its daemon. */
#include "fetchtest_answer.h"

#include <harness/common/plugin.h>

static int64_t answer(void) {
    return 42;
}

static const fetchtest_answer_ops ops = {sizeof(fetchtest_answer_ops), answer};

static const harness_interface interfaces[] = {
    {sizeof(harness_interface), "fetchtest.answer", 1, &ops},
};

static const harness_plugin_descriptor descriptor = {HARNESS_PLUGIN_ABI_MAJOR,
                                                     HARNESS_PLUGIN_ABI_MINOR,
                                                     sizeof(harness_plugin_descriptor),
                                                     "fetchtest",
                                                     "ops",
                                                     "1.0.0",
                                                     HARNESS_LEVEL_APPLICATION,
                                                     HARNESS_PER_DAEMON,
                                                     NULL,
                                                     NULL,
                                                     0,
                                                     NULL,
                                                     1,
                                                     interfaces};

__attribute__((visibility("default"))) const harness_plugin_descriptor *harness_plugin_entry(void) {
    return &descriptor;
}
