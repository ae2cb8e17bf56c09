// The examples/math descriptor: the one exported symbol of this plugin.
#include "math.hpp"

#include <harness/common/plugin.hpp>

namespace {

using namespace harness::examples::math;

// Dynamically initialized (auto_function is not constexpr); the loader calls
// the entry point only after dlopen has run the initializers.
const harness_function kFunctions[] = {
    harness::auto_function<&add>("add"),
    harness::auto_function<&noop>("noop"),
    harness::auto_function<&echo>("echo"),
    harness::auto_function<&scale>("scale"),
    harness::auto_function<&pid>("pid"),
    // Sleeping on the daemon's I/O thread would stall every other caller.
    harness::auto_function<&sleep_ms>("sleep_ms", HARNESS_MODE_THREAD),
    harness::auto_function<&fail>("fail"),
    harness::packed_function("sum", &sum),
    // RAW reads the socket blocking; keep it off the I/O thread by default.
    harness::raw_function("raw_echo", &raw_echo, HARNESS_MODE_THREAD),
};

const harness_plugin_descriptor kDescriptor =
    harness::plugin_descriptor({.package = "examples", .component = "math", .version = "1.0.0"}, kFunctions);

}  // namespace

HARNESS_PLUGIN_EXPORT(kDescriptor)
