// The MPI-4 event calls of MPI_T. libftmpi defines no events and no event
// sources (MPI-4.0 15.3.8 allows zero): the counts are 0, every index is
// out of range and no registration or event instance can exist, so the
// calls that take one answer MPI_T_ERR_INVALID_HANDLE.
#include "internal/pmpi.hpp"
#include "mpit/mpit.hpp"

namespace ftmpi::mpit {

namespace {

int none(int *num) {
    return call([&] {
        if (num == nullptr) return MPI_T_ERR_INVALID;
        *num = 0;
        return MPI_SUCCESS;
    });
}

int no_index() {
    return call([] { return MPI_T_ERR_INVALID_INDEX; });
}

int no_handle() {
    return call([] { return MPI_T_ERR_INVALID_HANDLE; });
}

}  // namespace

extern "C" {

int MPI_T_source_get_num(int *num_sources) noexcept {
    return none(num_sources);
}
FTMPI_PMPI(T_source_get_num)

int MPI_T_source_get_info(int, char *, int *, char *, int *, MPI_T_source_order *, MPI_Count *, MPI_Count *,
                          MPI_Info *) noexcept {
    return no_index();
}
FTMPI_PMPI(T_source_get_info)

int MPI_T_source_get_timestamp(int, MPI_Count *) noexcept {
    return no_index();
}
FTMPI_PMPI(T_source_get_timestamp)

int MPI_T_event_get_num(int *num_events) noexcept {
    return none(num_events);
}
FTMPI_PMPI(T_event_get_num)

int MPI_T_event_get_info(int, char *, int *, int *, MPI_Datatype[], MPI_Aint[], int *, MPI_T_enum *, MPI_Info *, char *,
                         int *, int *) noexcept {
    return no_index();
}
FTMPI_PMPI(T_event_get_info)

int MPI_T_event_get_index(const char *name, int *event_index) noexcept {
    return call([&] {
        if (name == nullptr || event_index == nullptr) return MPI_T_ERR_INVALID;
        return MPI_T_ERR_INVALID_NAME;
    });
}
FTMPI_PMPI(T_event_get_index)

int MPI_T_event_handle_alloc(int, void *, MPI_Info, MPI_T_event_registration *) noexcept {
    return no_index();
}
FTMPI_PMPI(T_event_handle_alloc)

int MPI_T_event_handle_set_info(MPI_T_event_registration, MPI_Info) noexcept {
    return no_handle();
}
FTMPI_PMPI(T_event_handle_set_info)

int MPI_T_event_handle_get_info(MPI_T_event_registration, MPI_Info *) noexcept {
    return no_handle();
}
FTMPI_PMPI(T_event_handle_get_info)

int MPI_T_event_register_callback(MPI_T_event_registration, MPI_T_cb_safety, MPI_Info, void *,
                                  MPI_T_event_cb_function) noexcept {
    return no_handle();
}
FTMPI_PMPI(T_event_register_callback)

int MPI_T_event_callback_set_info(MPI_T_event_registration, MPI_T_cb_safety, MPI_Info) noexcept {
    return no_handle();
}
FTMPI_PMPI(T_event_callback_set_info)

int MPI_T_event_callback_get_info(MPI_T_event_registration, MPI_T_cb_safety, MPI_Info *) noexcept {
    return no_handle();
}
FTMPI_PMPI(T_event_callback_get_info)

int MPI_T_event_handle_free(MPI_T_event_registration, void *, MPI_T_event_free_cb_function) noexcept {
    return no_handle();
}
FTMPI_PMPI(T_event_handle_free)

int MPI_T_event_set_dropped_handler(MPI_T_event_registration, MPI_T_event_dropped_cb_function) noexcept {
    return no_handle();
}
FTMPI_PMPI(T_event_set_dropped_handler)

int MPI_T_event_read(MPI_T_event_instance, int, void *) noexcept {
    return no_handle();
}
FTMPI_PMPI(T_event_read)

int MPI_T_event_copy(MPI_T_event_instance, void *) noexcept {
    return no_handle();
}
FTMPI_PMPI(T_event_copy)

int MPI_T_event_get_timestamp(MPI_T_event_instance, MPI_Count *) noexcept {
    return no_handle();
}
FTMPI_PMPI(T_event_get_timestamp)

int MPI_T_event_get_source(MPI_T_event_instance, int *) noexcept {
    return no_handle();
}
FTMPI_PMPI(T_event_get_source)

}  // extern "C"

}  // namespace ftmpi::mpit
