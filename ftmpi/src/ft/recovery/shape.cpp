// The new shape of a recovered communicator (BLANK keeps
// the extent with gaps, SHRINK renumbers the survivors) and its install in
// place.
#include "recovery.hpp"

#include "../../comm/objects.hpp"

#include <algorithm>
#include <mutex>

namespace ftmpi::ft::recovery {

bool recovering_mode(int m) {
    return m == FTMPI_COMM_MODE_BLANK || m == FTMPI_COMM_MODE_SHRINK || m == FTMPI_COMM_MODE_REBUILD ||
        m == FTMPI_COMM_MODE_REBUILD_APPEND;
}

namespace {
bool contains(const std::vector<int> &v, int x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}
}  // namespace

std::vector<int> shape_after(MPI_Comm comm, const std::vector<int> &failed, int mode) {
    const std::vector<int> &old = comm->group->world;
    const bool keep_extent = mode == FTMPI_COMM_MODE_BLANK || mode == FTMPI_COMM_MODE_REBUILD;
    std::vector<int> world;
    for (size_t r = 0; r < old.size(); ++r) {
        const bool gone = old[r] < 0 || contains(failed, static_cast<int>(r));
        if (!gone)
            world.push_back(old[r]);
        else if (keep_extent)
            world.push_back(-1);
    }
    return world;
}

std::vector<int> gap_slots(MPI_Comm world) {
    const std::vector<int> &w = world->group->world;
    std::vector<int> slots;
    for (size_t r = 0; r < w.size(); ++r)
        if (w[r] < 0 && !contains(w, static_cast<int>(r))) slots.push_back(static_cast<int>(r));
    return slots;
}

std::vector<int> live_worlds(MPI_Comm comm, const std::vector<int> &failed) {
    std::vector<int> live;
    const std::vector<int> &w = comm->group->world;
    for (size_t r = 0; r < w.size(); ++r)
        if (w[r] >= 0 && !contains(failed, static_cast<int>(r))) live.push_back(w[r]);
    return live;
}

void install_group(MPI_Comm comm, std::vector<int> world) {
    MPI_Group g = comm::make_group(std::move(world));
    // The old group is not released: the progress thread may be reading it
    // (rank translation of an arriving message) while we swap. It stays
    // registered, so it is neither freed under a reader nor a leak; one
    // group per recovery.
    comm->group = g;
    comm->rank = g->rank;
    comm->size = static_cast<int>(g->world.size());
}

namespace {
std::mutex pass_mu;
bool joined_world_pass = false;
}  // namespace

bool take_joined_world_pass() {
    std::lock_guard lock(pass_mu);
    const bool had = joined_world_pass;
    joined_world_pass = false;
    return had;
}

void grant_joined_world_pass() {
    std::lock_guard lock(pass_mu);
    joined_world_pass = true;
}

}  // namespace ftmpi::ft::recovery
