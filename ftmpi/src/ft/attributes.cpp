// The failure-detail attributes of mpi-ext.h (keys 8..15),
// answered by MPI_Comm_get_attr on every communicator (comm/attributes.cpp
// asks is_attribute_key first). Values are computed at the call from the
// failure list since comm->ft.recovered_at and handed out by pointer into
// comm->ft's storage, valid until the next call on that communicator.
#include "ft/failure_list.hpp"
#include "ft/settings.hpp"

#include <algorithm>

namespace ftmpi::ft {
namespace {
// Process-wide values: the same on every communicator.
int mpix_ft_value = 1;
int restarted_value = 0;
int incarnation_value = 0;
}  // namespace

bool is_attribute_key(int keyval) {
    return keyval >= FT_MPI_LIST_NUM_FAILED && keyval <= FTMPI_INCARNATION;
}

void *attribute_value(MPI_Comm comm, int keyval) {
    CommFt &ft = comm->ft;
    switch (keyval) {
    case MPIX_FT: mpix_ft_value = settings().comm_mode == FTMPI_COMM_MODE_ABORT ? 0 : 1; return &mpix_ft_value;
    case FTMPI_RESTARTED: restarted_value = settings().restarted ? 1 : 0; return &restarted_value;
    case FTMPI_INCARNATION: incarnation_value = settings().incarnation; return &incarnation_value;
    default: break;
    }
    sync_with_p2p();
    const CommFailures f = comm_failures(comm, ft.recovered_at);
    switch (keyval) {
    case FT_MPI_LIST_NUM_FAILED: ft.attr_ints[0] = static_cast<int>(f.ranks.size()); return &ft.attr_ints[0];
    case FT_MPI_LIST_FAILED:
        ft.attr_list = f.ranks;
        ft.attr_list.reserve(1);  // a valid pointer even with nothing failed
        return ft.attr_list.data();
    case FT_MPI_COM_NUM_FAILED:
        ft.attr_ints[1] =
            static_cast<int>(std::count_if(f.per_rank.begin(), f.per_rank.end(), [](int n) { return n > 0; }));
        return &ft.attr_ints[1];
    case FT_MPI_COM_FAILED:
        ft.attr_counts = f.per_rank;
        ft.attr_counts.reserve(1);
        return ft.attr_counts.data();
    case FT_MPI_ERROR_STRING:
        if (f.whys.empty()) {
            ft.attr_text = "no failure since the last recovery";
        } else {
            ft.attr_text.clear();
            for (const std::string &why : f.whys) ft.attr_text += (ft.attr_text.empty() ? "" : "; ") + why;
        }
        return ft.attr_text.data();
    default: return nullptr;
    }
}

}  // namespace ftmpi::ft
