// The performance variables: values the engine has anyway, read only when a
// tool asks, so the send and receive paths pay nothing for them.
//
//   ftmpi_posted_queue_length      LEVEL, continuous, read-only: receives posted, not matched yet
//   ftmpi_unexpected_queue_length  LEVEL, continuous, read-only: messages that arrived before their receive
//   ftmpi_failures_declared        COUNTER, started and stopped per handle, resettable: processes declared failed
#include "internal/p2p.hpp"
#include "internal/pmpi.hpp"
#include "mpit/mpit.hpp"

#include <array>
#include <cstring>

namespace ftmpi::mpit {
namespace {

unsigned long long posted() {
    return p2p::queue_lengths().posted;
}
unsigned long long unexpected() {
    return p2p::queue_lengths().unexpected;
}
unsigned long long failures() {
    return p2p::failure_epoch();
}

const std::array<Pvar, 3> pvars{{
    {"ftmpi_posted_queue_length", MPI_T_PVAR_CLASS_LEVEL, false, Category::p2p, true, true,
     "receives posted and not matched yet (all communicators)", posted},
    {"ftmpi_unexpected_queue_length", MPI_T_PVAR_CLASS_LEVEL, false, Category::p2p, true, true,
     "messages that arrived before a matching receive was posted and were not received yet (all communicators)",
     unexpected},
    {"ftmpi_failures_declared", MPI_T_PVAR_CLASS_COUNTER, true, Category::fault_tolerance, false, false,
     "processes this process declared failed while the handle was started", failures},
}};

}  // namespace

int pvar_count() {
    return static_cast<int>(pvars.size());
}

const Pvar &pvar(int index) {
    return pvars[static_cast<std::size_t>(index)];
}

MPI_Datatype pvar_datatype(const Pvar &p) {
    return p.counter ? MPI_UNSIGNED_LONG_LONG : MPI_UNSIGNED_LONG;
}

extern "C" {

int MPI_T_pvar_get_num(int *num_pvar) noexcept {
    return call([&] {
        if (num_pvar == nullptr) return MPI_T_ERR_INVALID;
        *num_pvar = pvar_count();
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_pvar_get_num)

// Every variable is bound to no object, has no enumeration and is read and
// reset atomically (under the interface's lock and the engine's).
int MPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity, int *var_class,
                        MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind,
                        int *readonly, int *continuous, int *atomic) noexcept {
    return call([&] {
        if (!valid_index(pvar_index, pvar_count())) return MPI_T_ERR_INVALID_INDEX;
        const Pvar &p = pvar(pvar_index);
        copy_string(p.name, name, name_len);
        copy_string(p.desc, desc, desc_len);
        if (verbosity) *verbosity = MPI_T_VERBOSITY_USER_DETAIL;
        if (var_class) *var_class = p.var_class;
        if (datatype) *datatype = pvar_datatype(p);
        if (enumtype) *enumtype = MPI_T_ENUM_NULL;
        if (bind) *bind = MPI_T_BIND_NO_OBJECT;
        if (readonly) *readonly = p.readonly;
        if (continuous) *continuous = p.continuous;
        if (atomic) *atomic = 1;
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_pvar_get_info)

int MPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index) noexcept {
    return call([&] {
        if (name == nullptr || pvar_index == nullptr) return MPI_T_ERR_INVALID;
        for (int i = 0; i < pvar_count(); ++i)
            if (std::strcmp(pvar(i).name, name) == 0 && pvar(i).var_class == var_class) {
                *pvar_index = i;
                return MPI_SUCCESS;
            }
        return MPI_T_ERR_INVALID_NAME;
    });
}
FTMPI_PMPI(T_pvar_get_index)

}  // extern "C"

}  // namespace ftmpi::mpit
