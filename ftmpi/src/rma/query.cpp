// Local window queries and settings: group, name, info, attributes (the
// predefined MPI_WIN_* ones and user keyvals), Fortran handles come from
// the runtime's table (fortran_handles.cpp).
#include "window.hpp"

#include "../comm/keyval.hpp"
#include "../comm/objects.hpp"
#include "../internal/pmpi.hpp"

#include <cstring>

namespace ftmpi::rma {
namespace {

using comm::Keyval;

// The window keyval `keyval` names, freed or not (a freed keyval lives on
// while an attribute uses it, as for communicators), or null.
const Keyval *find_keyval(int keyval) {
    return comm::find_keyval(keyval, Keyval::Kind::win);
}

// Runs the delete callback of the attribute (keyval, value) just taken off
// win, and lets a freed keyval go once no attribute uses it.
int call_delete(MPI_Win win, int keyval, void *value) {
    MPI_Win_delete_attr_function *del = nullptr;
    void *extra = nullptr;
    {
        std::lock_guard lock(comm::attribute_mutex());
        if (const Keyval *k = find_keyval(keyval)) {
            del = k->win_delete;
            extra = k->extra_state;
        }
    }
    const int err = del != nullptr ? del(win, keyval, value, extra) : MPI_SUCCESS;
    comm::attribute_removed(keyval);
    return err;
}

// The memory model is always unified (the window is ordinary memory).
int unified_model = MPI_WIN_UNIFIED;

}  // namespace

void delete_all_attributes(MPI_Win win) {
    const auto attributes = std::move(win->attributes);
    win->attributes.clear();
    for (const auto &[keyval, value] : attributes) call_delete(win, keyval, value);
}

}  // namespace ftmpi::rma

using namespace ftmpi;

extern "C" int MPI_WIN_NULL_COPY_FN(MPI_Win, int, void *, void *, void *, int *flag) noexcept {
    *flag = 0;
    return MPI_SUCCESS;
}

extern "C" int MPI_WIN_DUP_FN(MPI_Win, int, void *, void *in, void *out, int *flag) noexcept {
    *static_cast<void **>(out) = in;
    *flag = 1;
    return MPI_SUCCESS;
}

extern "C" int MPI_WIN_NULL_DELETE_FN(MPI_Win, int, void *, void *) noexcept {
    return MPI_SUCCESS;
}

extern "C" int MPI_Win_get_group(MPI_Win win, MPI_Group *group) noexcept {
    if (!rma::valid(win)) return rma::raise(win, MPI_ERR_WIN, "MPI_Win_get_group");
    if (group == nullptr) return rma::raise(win, MPI_ERR_ARG, "MPI_Win_get_group");
    return rma::raise(win, PMPI_Comm_group(win->comm, group), "MPI_Win_get_group");
}
FTMPI_PMPI(Win_get_group)

extern "C" int MPI_Win_set_name(MPI_Win win, const char *win_name) noexcept {
    if (!rma::valid(win)) return rma::raise(win, MPI_ERR_WIN, "MPI_Win_set_name");
    if (win_name == nullptr) return rma::raise(win, MPI_ERR_ARG, "MPI_Win_set_name");
    win->name.assign(win_name, strnlen(win_name, MPI_MAX_OBJECT_NAME - 1));
    return MPI_SUCCESS;
}
FTMPI_PMPI(Win_set_name)

extern "C" int MPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen) noexcept {
    if (!rma::valid(win)) return rma::raise(win, MPI_ERR_WIN, "MPI_Win_get_name");
    if (win_name == nullptr || resultlen == nullptr) return rma::raise(win, MPI_ERR_ARG, "MPI_Win_get_name");
    std::memcpy(win_name, win->name.c_str(), win->name.size() + 1);
    *resultlen = static_cast<int>(win->name.size());
    return MPI_SUCCESS;
}
FTMPI_PMPI(Win_get_name)

extern "C" int MPI_Win_set_info(MPI_Win win, MPI_Info info) noexcept {
    if (!rma::valid(win)) return rma::raise(win, MPI_ERR_WIN, "MPI_Win_set_info");
    if (info == MPI_INFO_NULL || !comm::valid(info)) return rma::raise(win, MPI_ERR_INFO, "MPI_Win_set_info");
    // No hint changes what this implementation does; the keys are kept so
    // MPI_Win_get_info returns them.
    for (const auto &[key, value] : info->entries) {
        bool found = false;
        for (auto &entry : win->info)
            if (entry.first == key) {
                entry.second = value;
                found = true;
            }
        if (!found) win->info.emplace_back(key, value);
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Win_set_info)

extern "C" int MPI_Win_get_info(MPI_Win win, MPI_Info *info_used) noexcept {
    if (!rma::valid(win)) return rma::raise(win, MPI_ERR_WIN, "MPI_Win_get_info");
    if (info_used == nullptr) return rma::raise(win, MPI_ERR_ARG, "MPI_Win_get_info");
    if (int e = PMPI_Info_create(info_used)) return rma::raise(win, e, "MPI_Win_get_info");
    for (const auto &[key, value] : win->info) PMPI_Info_set(*info_used, key.c_str(), value.c_str());
    return MPI_SUCCESS;
}
FTMPI_PMPI(Win_get_info)

extern "C" int MPI_Win_create_keyval(MPI_Win_copy_attr_function *copy_fn, MPI_Win_delete_attr_function *delete_fn,
                                     int *win_keyval, void *extra_state) noexcept {
    if (win_keyval == nullptr) return comm::raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Win_create_keyval");
    comm::Keyval k;
    k.kind = comm::Keyval::Kind::win;
    k.win_copy = copy_fn;
    k.win_delete = delete_fn;
    k.extra_state = extra_state;
    return comm::create_keyval(k, win_keyval);
}
FTMPI_PMPI(Win_create_keyval)

extern "C" int MPI_Win_free_keyval(int *win_keyval) noexcept {
    if (win_keyval == nullptr) return comm::raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Win_free_keyval");
    // Attributes already set keep their callbacks until deleted; the key
    // itself can no longer be used for new ones.
    if (rma::find_keyval(*win_keyval) == nullptr)
        return comm::raise(MPI_COMM_NULL, MPI_ERR_KEYVAL, "MPI_Win_free_keyval");
    comm::free_keyval(*win_keyval);
    *win_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Win_free_keyval)

extern "C" int MPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val) noexcept {
    constexpr const char *fn = "MPI_Win_set_attr";
    if (!rma::valid(win)) return rma::raise(win, MPI_ERR_WIN, fn);
    {
        std::lock_guard lock(comm::attribute_mutex());
        const comm::Keyval *k = rma::find_keyval(win_keyval);
        if (k == nullptr || k->freed) return rma::raise(win, MPI_ERR_KEYVAL, fn);
    }
    auto it = win->attributes.find(win_keyval);
    if (it != win->attributes.end()) {
        void *old = it->second;
        win->attributes.erase(it);
        if (int e = rma::call_delete(win, win_keyval, old)) return rma::raise(win, e, fn);
    }
    win->attributes[win_keyval] = attribute_val;
    comm::attribute_added(win_keyval);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Win_set_attr)

extern "C" int MPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag) noexcept {
    constexpr const char *fn = "MPI_Win_get_attr";
    if (!rma::valid(win)) return rma::raise(win, MPI_ERR_WIN, fn);
    if (attribute_val == nullptr || flag == nullptr) return rma::raise(win, MPI_ERR_ARG, fn);
    void **out = static_cast<void **>(attribute_val);
    *flag = 1;
    switch (win_keyval) {
    case MPI_WIN_BASE: *out = win->base; return MPI_SUCCESS;
    case MPI_WIN_SIZE: *out = &win->bytes; return MPI_SUCCESS;
    case MPI_WIN_DISP_UNIT: *out = &win->disp_unit; return MPI_SUCCESS;
    case MPI_WIN_CREATE_FLAVOR: *out = &win->flavor; return MPI_SUCCESS;
    case MPI_WIN_MODEL: *out = &rma::unified_model; return MPI_SUCCESS;
    default: break;
    }
    if (rma::find_keyval(win_keyval) == nullptr) return rma::raise(win, MPI_ERR_KEYVAL, fn);
    auto it = win->attributes.find(win_keyval);
    *flag = it != win->attributes.end() ? 1 : 0;
    if (*flag != 0) *out = it->second;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Win_get_attr)

extern "C" int MPI_Win_delete_attr(MPI_Win win, int win_keyval) noexcept {
    constexpr const char *fn = "MPI_Win_delete_attr";
    if (!rma::valid(win)) return rma::raise(win, MPI_ERR_WIN, fn);
    auto it = win->attributes.find(win_keyval);
    if (it == win->attributes.end()) return rma::raise(win, MPI_ERR_KEYVAL, fn);
    void *value = it->second;
    win->attributes.erase(it);
    return rma::raise(win, rma::call_delete(win, win_keyval, value), fn);
}
FTMPI_PMPI(Win_delete_attr)
