// The bridge tag of the n-th spawn of a job: the parents' and the children's
// side derive it alike from the number ftmpirun gave the spawn.
#pragma once

namespace ftmpi::spawn {
constexpr int spawn_tag(int spawn_id) {
    return 0x10000000 + (spawn_id % 0x1000000) * 4;
}
}  // namespace ftmpi::spawn
