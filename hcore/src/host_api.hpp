// The host API that daemon-level plugins receive (plugin.h's harness_host_api),
// implemented on top of the Daemon. Every callback catches everything: no
// exception crosses back into plugin code.
#pragma once

#include <harness/common/plugin.h>

namespace harness::hcore {

class Daemon;
harness_host_api make_daemon_host_api(Daemon *daemon);

}  // namespace harness::hcore
