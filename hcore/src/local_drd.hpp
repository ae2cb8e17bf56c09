// Calls from the daemon itself to the vm/drd loaded in it (through the host
// API's call_local, as a plugin would): for the VM records the daemon keeps
// there (members, published plugins, one-per-VM claims). A write waits for
// consensus: never call from the I/O thread.
#pragma once

#include <harness/common/pack.hpp>
#include <harness/common/plugin.h>
#include <harness/common/result.hpp>

namespace harness::hcore {

Result<Bytes> call_local_drd(const harness_host_api *host, const char *function, const Packer &args);

}  // namespace harness::hcore
