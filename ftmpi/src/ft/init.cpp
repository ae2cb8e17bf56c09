// ft::init / ft::finalize: the launch settings into the
// predefined communicators, the failure list, and the notifier's lifetime.
#include "ft/failure_list.hpp"
#include "ft/notifier.hpp"
#include "ft/settings.hpp"

#include "internal/comm.hpp"
#include "internal/runtime.hpp"

namespace ftmpi::ft {
namespace {
void apply_launch_modes(MPI_Comm comm, const Settings &s) {
    comm->ft.comm_mode = s.comm_mode;
    comm->ft.msg_mode = s.msg_mode;
    comm->ft.strict = s.strict;
    comm->ft.round = s.round;
}
}  // namespace

void init() {
    load_settings();
    const Settings &s = settings();
    reset_failure_list(runtime::world_size(), s.incarnation, s.round);
    if (s.incarnation > 0) set_incarnation(runtime::world_rank(), s.incarnation, s.round);
    apply_launch_modes(MPI_COMM_WORLD, s);
    apply_launch_modes(MPI_COMM_SELF, s);
    start_notifier();
}

void finalize() {
    stop_notifier();
}

}  // namespace ftmpi::ft
