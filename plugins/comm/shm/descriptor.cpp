// comm/shm — the shared-memory comm driver as an application-level plugin,
// loaded into each MPI process by Hlib. It has no RPC functions: libftmpi
// takes its ops table (ftmpi/transport.h).
#include <harness/plugin.h>

#include <ftmpi/comm_shm.h>

namespace {

// INTERFACE SLOT: once the plugin ABI carries typed interfaces, the
// descriptor lists {FTMPI_TRANSPORT_INTERFACE, FTMPI_TRANSPORT_VERSION,
// ftmpi_comm_shm_ops()} here. Until then a loader finds the table through
// the exported symbol ftmpi_comm_shm_ops.
const harness_plugin_descriptor kDescriptor = {
    HARNESS_PLUGIN_ABI_MAJOR,
    HARNESS_PLUGIN_ABI_MINOR,
    sizeof(harness_plugin_descriptor),
    "comm",
    "shm",
    "1.0.0",
    HARNESS_LEVEL_APPLICATION,
    HARNESS_PER_DAEMON,
    nullptr,
    nullptr,
    0,
    nullptr,
};

}  // namespace

extern "C" __attribute__((visibility("default"))) const harness_plugin_descriptor *harness_plugin_entry(void)
{
    return &kDescriptor;
}
