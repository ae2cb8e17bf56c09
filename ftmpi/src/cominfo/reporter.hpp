// The reporter thread (reporter.cpp): publishes this rank's record to the
// DRD key ftmpi/<job>/cominfo/<rank> whenever something changed, on its own
// daemon connection. The hooks of internal/cominfo.hpp wake it with poke().
#pragma once

namespace ftmpi::cominfo {

// A reporter runs (the hooks have something to do).
bool active();
// Something changed: publish a new record soon. Never blocks on the VM.
void poke();

}  // namespace ftmpi::cominfo
