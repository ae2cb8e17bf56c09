// comm/shm — the shared-memory comm driver as an application-level plugin,
// loaded into each MPI process by Hlib. It has no RPC functions: libftmpi
// takes its ops table (ftmpi/transport.h).
#include <harness/common/plugin.h>

#include <ftmpi/comm_shm.h>

namespace {

#if HARNESS_PLUGIN_ABI_MINOR >= 2
// The typed interface slot (plugin ABI 1.2): libftmpi asks the loaded plugin
// for FTMPI_TRANSPORT_INTERFACE and calls through the table. The table is
// also exported as the symbol ftmpi_comm_shm_ops, for hosts of ABI 1.1.
const harness_interface kInterfaces[] = {
    {sizeof(harness_interface), FTMPI_TRANSPORT_INTERFACE, FTMPI_TRANSPORT_VERSION, ftmpi_comm_shm_ops()},
};
#endif

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
#if HARNESS_PLUGIN_ABI_MINOR >= 2
    sizeof kInterfaces / sizeof kInterfaces[0],
    kInterfaces,
#endif
};

}  // namespace

extern "C" __attribute__((visibility("default"))) const harness_plugin_descriptor *harness_plugin_entry(void) {
    return &kDescriptor;
}
