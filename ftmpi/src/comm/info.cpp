// MPI_Info objects: ordered key/value pairs (MPI-3.1 §9).
#include "../internal/errors.hpp"
#include "../internal/pmpi.hpp"
#include "objects.hpp"

#include <algorithm>
#include <cstring>

using namespace ftmpi::comm;

namespace {
using Entries = std::vector<std::pair<std::string, std::string>>;

Entries::iterator find_key(MPI_Info info, const std::string &key) {
    return std::find_if(info->entries.begin(), info->entries.end(), [&](const auto &e) { return e.first == key; });
}

// Key present and of a legal length; the error class otherwise.
int check_key(const char *key) {
    if (key == nullptr) return MPI_ERR_INFO_KEY;
    const size_t n = strnlen(key, MPI_MAX_INFO_KEY + 1);
    return n == 0 || n > MPI_MAX_INFO_KEY ? MPI_ERR_INFO_KEY : MPI_SUCCESS;
}

// Copies at most `room` characters and a terminating NUL.
void copy_out(const std::string &s, char *out, size_t room) {
    const size_t n = std::min(s.size(), room);
    std::memcpy(out, s.data(), n);
    out[n] = '\0';
}
}  // namespace

extern "C" int MPI_Info_create(MPI_Info *info) noexcept {
    if (info == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Info_create");
    auto *i = new (std::nothrow) ftmpi_info_s;
    if (i == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_NO_MEM, "MPI_Info_create");
    register_object(i);
    *info = i;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Info_create)

extern "C" int MPI_Info_set(MPI_Info info, const char *key, const char *value) noexcept {
    if (!valid(info) || info->predefined) return raise(MPI_COMM_NULL, MPI_ERR_INFO, "MPI_Info_set");
    if (int err = check_key(key)) return raise(MPI_COMM_NULL, err, "MPI_Info_set");
    if (value == nullptr || strnlen(value, MPI_MAX_INFO_VAL + 1) > MPI_MAX_INFO_VAL)
        return raise(MPI_COMM_NULL, MPI_ERR_INFO_VALUE, "MPI_Info_set");
    try {
        auto it = find_key(info, key);
        if (it != info->entries.end())
            it->second = value;
        else
            info->entries.emplace_back(key, value);
    } catch (...) {
        return raise(MPI_COMM_NULL, MPI_ERR_NO_MEM, "MPI_Info_set");
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Info_set)

extern "C" int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag) noexcept {
    if (!valid(info)) return raise(MPI_COMM_NULL, MPI_ERR_INFO, "MPI_Info_get");
    if (int err = check_key(key)) return raise(MPI_COMM_NULL, err, "MPI_Info_get");
    if (valuelen < 0 || value == nullptr || flag == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Info_get");
    auto it = find_key(info, key);
    *flag = it != info->entries.end();
    // valuelen excludes the NUL (the caller's buffer holds valuelen + 1).
    if (*flag) copy_out(it->second, value, static_cast<size_t>(valuelen));
    return MPI_SUCCESS;
}
FTMPI_PMPI(Info_get)

extern "C" int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag) noexcept {
    if (!valid(info)) return raise(MPI_COMM_NULL, MPI_ERR_INFO, "MPI_Info_get_valuelen");
    if (int err = check_key(key)) return raise(MPI_COMM_NULL, err, "MPI_Info_get_valuelen");
    if (valuelen == nullptr || flag == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Info_get_valuelen");
    auto it = find_key(info, key);
    *flag = it != info->entries.end();
    if (*flag) *valuelen = static_cast<int>(it->second.size());
    return MPI_SUCCESS;
}
FTMPI_PMPI(Info_get_valuelen)

extern "C" int MPI_Info_get_nkeys(MPI_Info info, int *nkeys) noexcept {
    if (!valid(info)) return raise(MPI_COMM_NULL, MPI_ERR_INFO, "MPI_Info_get_nkeys");
    if (nkeys == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Info_get_nkeys");
    *nkeys = static_cast<int>(info->entries.size());
    return MPI_SUCCESS;
}
FTMPI_PMPI(Info_get_nkeys)

extern "C" int MPI_Info_get_nthkey(MPI_Info info, int n, char *key) noexcept {
    if (!valid(info)) return raise(MPI_COMM_NULL, MPI_ERR_INFO, "MPI_Info_get_nthkey");
    if (key == nullptr || n < 0 || static_cast<size_t>(n) >= info->entries.size())
        return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Info_get_nthkey");
    copy_out(info->entries[static_cast<size_t>(n)].first, key, MPI_MAX_INFO_KEY);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Info_get_nthkey)

extern "C" int MPI_Info_delete(MPI_Info info, const char *key) noexcept {
    if (!valid(info) || info->predefined) return raise(MPI_COMM_NULL, MPI_ERR_INFO, "MPI_Info_delete");
    if (int err = check_key(key)) return raise(MPI_COMM_NULL, err, "MPI_Info_delete");
    auto it = find_key(info, key);
    if (it == info->entries.end()) return raise(MPI_COMM_NULL, MPI_ERR_INFO_NOKEY, "MPI_Info_delete");
    info->entries.erase(it);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Info_delete)

extern "C" int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo) noexcept {
    if (!valid(info)) return raise(MPI_COMM_NULL, MPI_ERR_INFO, "MPI_Info_dup");
    if (newinfo == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Info_dup");
    auto *i = new (std::nothrow) ftmpi_info_s;
    if (i == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_NO_MEM, "MPI_Info_dup");
    i->entries = info->entries;
    register_object(i);
    *newinfo = i;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Info_dup)

extern "C" int MPI_Info_free(MPI_Info *info) noexcept {
    if (info == nullptr || !valid(*info) || (*info)->predefined)
        return raise(MPI_COMM_NULL, MPI_ERR_INFO, "MPI_Info_free");
    unregister_object(*info);
    delete *info;
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Info_free)
