// The control-variable and enumeration calls of MPI_T (cvars.cpp has the
// variables themselves).
#include "internal/pmpi.hpp"
#include "mpit/mpit.hpp"

#include <cstring>

namespace ftmpi::mpit {

namespace {

bool live(MPI_T_cvar_handle handle) {
    return handle != MPI_T_CVAR_HANDLE_NULL && state().cvar_handles.count(handle) != 0;
}

}  // namespace

extern "C" {

int MPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len) noexcept {
    return call([&] {
        if (!is_enum(enumtype)) return MPI_T_ERR_INVALID_HANDLE;
        if (num) *num = static_cast<int>(enumtype->items.size());
        copy_string(enumtype->name, name, name_len);
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_enum_get_info)

int MPI_T_enum_get_item(MPI_T_enum enumtype, int indx, int *value, char *name, int *name_len) noexcept {
    return call([&] {
        if (!is_enum(enumtype)) return MPI_T_ERR_INVALID_HANDLE;
        if (!valid_index(indx, static_cast<int>(enumtype->items.size()))) return MPI_T_ERR_INVALID_INDEX;
        if (value) *value = indx;
        copy_string(enumtype->items[static_cast<std::size_t>(indx)], name, name_len);
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_enum_get_item)

int MPI_T_cvar_get_num(int *num_cvar) noexcept {
    return call([&] {
        if (num_cvar == nullptr) return MPI_T_ERR_INVALID;
        *num_cvar = cvar_count();
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_cvar_get_num)

// The name is the environment variable, the description the settings
// table's line of help.
int MPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype,
                        MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *scope) noexcept {
    return call([&] {
        if (!valid_index(cvar_index, cvar_count())) return MPI_T_ERR_INVALID_INDEX;
        const CvarInfo info = cvar_info(cvar_index);
        copy_string(info.setting->env, name, name_len);
        std::string help = info.setting->help;
        if (info.setting->fallback == nullptr && info.setting->type != ftmpi::settings::Type::string)
            help += " (MPI_T reads -1 while it is unset)";
        copy_string(help, desc, desc_len);
        if (verbosity) *verbosity = info.verbosity;
        if (datatype) *datatype = cvar_datatype(*info.setting);
        if (enumtype) *enumtype = cvar_enum(*info.setting);
        if (bind) *bind = MPI_T_BIND_NO_OBJECT;
        if (scope) *scope = info.scope;
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_cvar_get_info)

int MPI_T_cvar_get_index(const char *name, int *cvar_index) noexcept {
    return call([&] {
        if (name == nullptr || cvar_index == nullptr) return MPI_T_ERR_INVALID;
        for (int i = 0; i < cvar_count(); ++i)
            if (std::strcmp(cvar_info(i).setting->env, name) == 0) {
                *cvar_index = i;
                return MPI_SUCCESS;
            }
        return MPI_T_ERR_INVALID_NAME;
    });
}
FTMPI_PMPI(T_cvar_get_index)

// Every variable is bound to no object: obj_handle is not looked at.
int MPI_T_cvar_handle_alloc(int cvar_index, void *, MPI_T_cvar_handle *handle, int *count) noexcept {
    return call([&] {
        if (!valid_index(cvar_index, cvar_count())) return MPI_T_ERR_INVALID_INDEX;
        if (handle == nullptr || count == nullptr) return MPI_T_ERR_INVALID;
        auto made = std::make_unique<ftmpi_t_cvar_handle_s>(ftmpi_t_cvar_handle_s{cvar_index});
        state().cvar_handles.insert(made.get());
        *count = cvar_elements(*cvar_info(cvar_index).setting);
        *handle = made.release();
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_cvar_handle_alloc)

int MPI_T_cvar_handle_free(MPI_T_cvar_handle *handle) noexcept {
    return call([&] {
        if (handle == nullptr || !live(*handle)) return MPI_T_ERR_INVALID_HANDLE;
        state().cvar_handles.erase(*handle);
        delete *handle;
        *handle = MPI_T_CVAR_HANDLE_NULL;
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_cvar_handle_free)

int MPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf) noexcept {
    return call([&] {
        if (!live(handle)) return MPI_T_ERR_INVALID_HANDLE;
        if (buf == nullptr) return MPI_T_ERR_INVALID;
        return cvar_read(handle->index, buf);
    });
}
FTMPI_PMPI(T_cvar_read)

int MPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf) noexcept {
    return call([&] {
        if (!live(handle)) return MPI_T_ERR_INVALID_HANDLE;
        if (buf == nullptr) return MPI_T_ERR_INVALID;
        return cvar_write(handle->index, buf);
    });
}
FTMPI_PMPI(T_cvar_write)

}  // extern "C"

}  // namespace ftmpi::mpit
