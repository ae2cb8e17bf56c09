// How a p2p binding ends: exceptions never cross the
// C boundary, and a failing code goes through the communicator's error
// handler exactly once (ftmpi::comm::raise).
#pragma once

#include "internal/errors.hpp"
#include "internal/pmpi.hpp"

namespace ftmpi::p2p {

using comm::guarded;  // internal/errors.hpp

}  // namespace ftmpi::p2p
