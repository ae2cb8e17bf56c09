// MPI-4's Info calls: MPI_Info_get_string (the value and its length in one
// call) and MPI_Info_create_env (what MPI_INFO_ENV holds, callable before
// MPI_Init).
#include "../internal/errors.hpp"
#include "../internal/pmpi.hpp"
#include "objects.hpp"

#include <algorithm>
#include <cstring>
#include <string>

using namespace ftmpi::comm;

// *buflen in: the size of value (NUL included); out: the value's length + 1.
// At most *buflen - 1 characters and a NUL are copied (MPI-4.0 §10).
extern "C" int MPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag) noexcept {
    constexpr const char *fn = "MPI_Info_get_string";
    if (!valid(info)) return raise(MPI_COMM_NULL, MPI_ERR_INFO, fn);
    if (key == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_INFO_KEY, fn);
    const size_t key_len = strnlen(key, MPI_MAX_INFO_KEY + 1);
    if (key_len == 0 || key_len > MPI_MAX_INFO_KEY) return raise(MPI_COMM_NULL, MPI_ERR_INFO_KEY, fn);
    if (buflen == nullptr || flag == nullptr || *buflen < 0 || (*buflen > 0 && value == nullptr))
        return raise(MPI_COMM_NULL, MPI_ERR_ARG, fn);
    auto it = std::find_if(info->entries.begin(), info->entries.end(), [&](const auto &e) { return e.first == key; });
    *flag = it != info->entries.end();
    if (!*flag) return MPI_SUCCESS;
    const std::string &v = it->second;
    if (*buflen > 0) {
        const size_t n = std::min(v.size(), static_cast<size_t>(*buflen - 1));
        std::memcpy(value, v.data(), n);
        value[n] = '\0';
    }
    *buflen = static_cast<int>(v.size()) + 1;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Info_get_string)

// A new Info with MPI_INFO_ENV's keys (once MPI is initialized) and, from
// argv, "command" and "argv" (the arguments after the command, joined by
// spaces), as the standard reserves them.
extern "C" int MPI_Info_create_env(int argc, char *argv[], MPI_Info *info) noexcept {
    constexpr const char *fn = "MPI_Info_create_env";
    if (info == nullptr || argc < 0 || (argc > 0 && argv == nullptr)) return raise(MPI_COMM_NULL, MPI_ERR_ARG, fn);
    auto *i = new (std::nothrow) ftmpi_info_s;
    if (i == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_NO_MEM, fn);
    try {
        i->entries = environment_info();
        auto set = [&](const char *key, const std::string &value) {
            auto it = std::find_if(i->entries.begin(), i->entries.end(), [&](const auto &e) { return e.first == key; });
            if (it != i->entries.end())
                it->second = value;
            else
                i->entries.emplace_back(key, value);
        };
        if (argc > 0 && argv[0] != nullptr) {
            set("command", argv[0]);
            std::string args;
            for (int a = 1; a < argc && argv[a] != nullptr; ++a) {
                if (a > 1) args += ' ';
                args += argv[a];
            }
            if (argc > 1) set("argv", args);
        }
    } catch (...) {
        delete i;
        return raise(MPI_COMM_NULL, MPI_ERR_NO_MEM, fn);
    }
    register_object(i);
    *info = i;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Info_create_env)
