// Error classes and strings: MPI_Error_class, MPI_Error_string
// and the run-time additions MPI_Add_error_class/code/string (and their
// MPI-4.1 removals, MPI_Remove_error_class/code/string).
#include "../internal/errors.hpp"
#include "../internal/pmpi.hpp"
#include "mpi-ext.h"
#include "objects.hpp"

#include <cstring>
#include <map>
#include <mutex>
#include <string>

namespace ftmpi::comm {
namespace {

struct Predefined {
    int code;
    const char *name;
    const char *text;
};

// Every class of mpi.h and mpi-ext.h, with the words users search for.
constexpr Predefined predefined[] = {
    {MPI_SUCCESS, "MPI_SUCCESS", "no error"},
    {MPI_ERR_BUFFER, "MPI_ERR_BUFFER", "invalid buffer pointer"},
    {MPI_ERR_COUNT, "MPI_ERR_COUNT", "invalid count argument"},
    {MPI_ERR_TYPE, "MPI_ERR_TYPE", "invalid datatype"},
    {MPI_ERR_TAG, "MPI_ERR_TAG", "invalid tag"},
    {MPI_ERR_COMM, "MPI_ERR_COMM", "invalid communicator"},
    {MPI_ERR_RANK, "MPI_ERR_RANK", "invalid rank"},
    {MPI_ERR_REQUEST, "MPI_ERR_REQUEST", "invalid request"},
    {MPI_ERR_ROOT, "MPI_ERR_ROOT", "invalid root"},
    {MPI_ERR_GROUP, "MPI_ERR_GROUP", "invalid group"},
    {MPI_ERR_OP, "MPI_ERR_OP", "invalid reduction operation"},
    {MPI_ERR_TOPOLOGY, "MPI_ERR_TOPOLOGY", "invalid communicator topology"},
    {MPI_ERR_DIMS, "MPI_ERR_DIMS", "invalid dimension argument"},
    {MPI_ERR_ARG, "MPI_ERR_ARG", "invalid argument of some other kind"},
    {MPI_ERR_UNKNOWN, "MPI_ERR_UNKNOWN", "unknown error"},
    {MPI_ERR_TRUNCATE, "MPI_ERR_TRUNCATE", "message truncated on receive"},
    {MPI_ERR_OTHER, "MPI_ERR_OTHER", "known error not in this list"},
    {MPI_ERR_INTERN, "MPI_ERR_INTERN", "internal MPI (implementation) error"},
    {MPI_ERR_IN_STATUS, "MPI_ERR_IN_STATUS", "error code is in status"},
    {MPI_ERR_PENDING, "MPI_ERR_PENDING", "pending request"},
    {MPI_ERR_KEYVAL, "MPI_ERR_KEYVAL", "invalid keyval"},
    {MPI_ERR_NO_MEM, "MPI_ERR_NO_MEM", "out of memory (MPI_Alloc_mem)"},
    {MPI_ERR_BASE, "MPI_ERR_BASE", "invalid base address (MPI_Free_mem)"},
    {MPI_ERR_INFO_KEY, "MPI_ERR_INFO_KEY", "info key longer than MPI_MAX_INFO_KEY"},
    {MPI_ERR_INFO_VALUE, "MPI_ERR_INFO_VALUE", "info value longer than MPI_MAX_INFO_VAL"},
    {MPI_ERR_INFO_NOKEY, "MPI_ERR_INFO_NOKEY", "info key not defined (MPI_Info_delete)"},
    {MPI_ERR_SPAWN, "MPI_ERR_SPAWN", "error in spawning processes"},
    {MPI_ERR_PORT, "MPI_ERR_PORT", "invalid port name"},
    {MPI_ERR_SERVICE, "MPI_ERR_SERVICE", "invalid service name (MPI_Unpublish_name)"},
    {MPI_ERR_NAME, "MPI_ERR_NAME", "invalid service name (MPI_Lookup_name)"},
    {MPI_ERR_WIN, "MPI_ERR_WIN", "invalid window"},
    {MPI_ERR_SIZE, "MPI_ERR_SIZE", "invalid size argument"},
    {MPI_ERR_DISP, "MPI_ERR_DISP", "invalid displacement argument"},
    {MPI_ERR_INFO, "MPI_ERR_INFO", "invalid info argument"},
    {MPI_ERR_LOCKTYPE, "MPI_ERR_LOCKTYPE", "invalid lock type"},
    {MPI_ERR_ASSERT, "MPI_ERR_ASSERT", "invalid assertion argument"},
    {MPI_ERR_RMA_CONFLICT, "MPI_ERR_RMA_CONFLICT", "conflicting accesses to a window"},
    {MPI_ERR_RMA_SYNC, "MPI_ERR_RMA_SYNC", "wrong synchronization of RMA calls"},
    {MPI_ERR_RMA_RANGE, "MPI_ERR_RMA_RANGE", "target memory not part of the window"},
    {MPI_ERR_RMA_ATTACH, "MPI_ERR_RMA_ATTACH", "memory cannot be attached"},
    {MPI_ERR_RMA_SHARED, "MPI_ERR_RMA_SHARED", "memory cannot be shared"},
    {MPI_ERR_RMA_FLAVOR, "MPI_ERR_RMA_FLAVOR", "passed window has the wrong flavor"},
    {MPI_ERR_FILE, "MPI_ERR_FILE", "invalid file handle"},
    {MPI_ERR_NOT_SAME, "MPI_ERR_NOT_SAME", "collective argument not identical on all processes"},
    {MPI_ERR_AMODE, "MPI_ERR_AMODE", "error related to the amode passed to MPI_File_open"},
    {MPI_ERR_UNSUPPORTED_DATAREP, "MPI_ERR_UNSUPPORTED_DATAREP", "unsupported datarep"},
    {MPI_ERR_UNSUPPORTED_OPERATION, "MPI_ERR_UNSUPPORTED_OPERATION", "unsupported operation"},
    {MPI_ERR_NO_SUCH_FILE, "MPI_ERR_NO_SUCH_FILE", "file does not exist"},
    {MPI_ERR_FILE_EXISTS, "MPI_ERR_FILE_EXISTS", "file exists"},
    {MPI_ERR_BAD_FILE, "MPI_ERR_BAD_FILE", "invalid file name"},
    {MPI_ERR_ACCESS, "MPI_ERR_ACCESS", "permission denied"},
    {MPI_ERR_NO_SPACE, "MPI_ERR_NO_SPACE", "not enough space"},
    {MPI_ERR_QUOTA, "MPI_ERR_QUOTA", "quota exceeded"},
    {MPI_ERR_READ_ONLY, "MPI_ERR_READ_ONLY", "read-only file or file system"},
    {MPI_ERR_FILE_IN_USE, "MPI_ERR_FILE_IN_USE", "file operation could not be completed: file in use"},
    {MPI_ERR_DUP_DATAREP, "MPI_ERR_DUP_DATAREP", "datarep already defined"},
    {MPI_ERR_CONVERSION, "MPI_ERR_CONVERSION", "error in a user data conversion function"},
    {MPI_ERR_IO, "MPI_ERR_IO", "other I/O error"},
    {MPIX_ERR_PROC_FAILED, "MPIX_ERR_PROC_FAILED", "a process the operation needs has failed"},
    {MPIX_ERR_PROC_FAILED_PENDING, "MPIX_ERR_PROC_FAILED_PENDING",
     "an ANY_SOURCE receive was stopped by a failure not yet acknowledged"},
    {MPIX_ERR_REVOKED, "MPIX_ERR_REVOKED", "the communicator was revoked"},
    {MPI_T_ERR_MEMORY, "MPI_T_ERR_MEMORY", "out of memory (MPI_T)"},
    {MPI_T_ERR_NOT_INITIALIZED, "MPI_T_ERR_NOT_INITIALIZED", "the MPI_T interface is not initialized"},
    {MPI_T_ERR_CANNOT_INIT, "MPI_T_ERR_CANNOT_INIT", "the MPI_T interface cannot be initialized now"},
    {MPI_T_ERR_INVALID_INDEX, "MPI_T_ERR_INVALID_INDEX", "invalid MPI_T index"},
    {MPI_T_ERR_INVALID_ITEM, "MPI_T_ERR_INVALID_ITEM", "invalid MPI_T enumeration item"},
    {MPI_T_ERR_INVALID_HANDLE, "MPI_T_ERR_INVALID_HANDLE", "invalid MPI_T handle"},
    {MPI_T_ERR_OUT_OF_HANDLES, "MPI_T_ERR_OUT_OF_HANDLES", "no more MPI_T handles"},
    {MPI_T_ERR_OUT_OF_SESSIONS, "MPI_T_ERR_OUT_OF_SESSIONS", "no more MPI_T performance variable sessions"},
    {MPI_T_ERR_INVALID_SESSION, "MPI_T_ERR_INVALID_SESSION", "invalid MPI_T performance variable session"},
    {MPI_T_ERR_CVAR_SET_NOT_NOW, "MPI_T_ERR_CVAR_SET_NOT_NOW", "the control variable cannot be set now"},
    {MPI_T_ERR_CVAR_SET_NEVER, "MPI_T_ERR_CVAR_SET_NEVER", "the control variable cannot be set any more"},
    {MPI_T_ERR_PVAR_NO_STARTSTOP, "MPI_T_ERR_PVAR_NO_STARTSTOP",
     "the performance variable cannot be started or stopped"},
    {MPI_T_ERR_PVAR_NO_WRITE, "MPI_T_ERR_PVAR_NO_WRITE", "the performance variable cannot be written or reset"},
    {MPI_T_ERR_PVAR_NO_ATOMIC, "MPI_T_ERR_PVAR_NO_ATOMIC",
     "the performance variable cannot be read and reset atomically"},
    {MPI_T_ERR_INVALID_NAME, "MPI_T_ERR_INVALID_NAME", "no MPI_T variable or category of that name"},
    {MPI_T_ERR_INVALID, "MPI_T_ERR_INVALID", "invalid use of the MPI_T interface or invalid argument"},
    {MPI_T_ERR_NOT_ACCESSIBLE, "MPI_T_ERR_NOT_ACCESSIBLE", "the MPI_T variable cannot be accessed"},
    {MPI_T_ERR_NOT_SUPPORTED, "MPI_T_ERR_NOT_SUPPORTED", "the MPI_T functionality is not supported"},
    {MPI_ERR_SESSION, "MPI_ERR_SESSION", "invalid session"},
    // A return code of MPI_Init, not a failure: MPI is initialized.
    {MPI_INIT_RESTARTED_NODE, "MPI_INIT_RESTARTED_NODE",
     "not an error: this process is a replacement started by REBUILD recovery (load checkpoint data)"},
};

const Predefined *find_predefined(int code) {
    for (const auto &p : predefined)
        if (p.code == code) return &p;
    return nullptr;
}

// Classes and codes added at run time live above MPI_ERR_LASTCODE.
std::mutex added_mutex;
int last_code = MPI_ERR_LASTCODE;
std::map<int, int> added_class_of;        // code -> class (a class maps to itself)
std::map<int, std::string> added_string;  // code -> MPI_Add_error_string text

int add_code(int error_class) {
    std::lock_guard lock(added_mutex);
    ++last_code;
    added_class_of[last_code] = error_class < 0 ? last_code : error_class;
    return last_code;
}
}  // namespace

int last_used_code() {
    std::lock_guard lock(added_mutex);
    return last_code;
}

int error_class_of(int code) {
    if (code >= 0 && code <= MPI_ERR_LASTCODE) return find_predefined(code) ? code : MPI_ERR_UNKNOWN;
    std::lock_guard lock(added_mutex);
    auto it = added_class_of.find(code);
    return it == added_class_of.end() ? MPI_ERR_UNKNOWN : it->second;
}

// "MPI_ERR_RANK: invalid rank" for predefined classes; the added string (or
// a generic text) for run-time codes; empty when nobody defined the code.
std::string error_string_of(int code) {
    if (const Predefined *p = find_predefined(code)) return std::string(p->name) + ": " + p->text;
    std::lock_guard lock(added_mutex);
    if (!added_class_of.count(code)) return {};
    auto it = added_string.find(code);
    if (it != added_string.end()) return it->second;
    return "user-defined error code " + std::to_string(code);
}

}  // namespace ftmpi::comm

using namespace ftmpi::comm;

extern "C" int MPI_Error_class(int errorcode, int *errorclass) noexcept {
    if (errorclass == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Error_class");
    if (errorcode >= 0 && errorcode <= MPI_ERR_LASTCODE && find_predefined(errorcode) != nullptr) {
        *errorclass = errorcode;
        return MPI_SUCCESS;
    }
    {
        std::lock_guard lock(added_mutex);
        auto it = added_class_of.find(errorcode);
        if (it != added_class_of.end()) {
            *errorclass = it->second;
            return MPI_SUCCESS;
        }
    }
    return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Error_class");
}
FTMPI_PMPI(Error_class)

extern "C" int MPI_Error_string(int errorcode, char *string, int *resultlen) noexcept {
    if (string == nullptr || resultlen == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Error_string");
    std::string text = error_string_of(errorcode);
    {
        // A code added at run time with no MPI_Add_error_string has the
        // empty string (MPI-3.1 §8.5); the generic text is for messages.
        std::lock_guard lock(added_mutex);
        if (added_class_of.count(errorcode) && !added_string.count(errorcode)) {
            string[0] = '\0';
            *resultlen = 0;
            return MPI_SUCCESS;
        }
    }
    if (text.empty()) {
        string[0] = '\0';
        *resultlen = 0;
        return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Error_string");
    }
    if (text.size() > MPI_MAX_ERROR_STRING - 1) text.resize(MPI_MAX_ERROR_STRING - 1);
    std::memcpy(string, text.c_str(), text.size() + 1);
    *resultlen = static_cast<int>(text.size());
    return MPI_SUCCESS;
}
FTMPI_PMPI(Error_string)

extern "C" int MPI_Add_error_class(int *errorclass) noexcept {
    if (errorclass == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Add_error_class");
    *errorclass = add_code(-1);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Add_error_class)

extern "C" int MPI_Add_error_code(int errorclass, int *errorcode) noexcept {
    if (errorcode == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Add_error_code");
    // The class must be a class: predefined, or added and mapping to itself.
    bool is_class = errorclass >= 0 && errorclass <= MPI_ERR_LASTCODE && find_predefined(errorclass) != nullptr;
    if (!is_class) {
        std::lock_guard lock(added_mutex);
        auto it = added_class_of.find(errorclass);
        is_class = it != added_class_of.end() && it->second == errorclass;
    }
    if (!is_class) return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Add_error_code");
    *errorcode = add_code(errorclass);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Add_error_code)

extern "C" int MPI_Add_error_string(int errorcode, const char *string) noexcept {
    if (string == nullptr || std::strlen(string) >= MPI_MAX_ERROR_STRING)
        return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Add_error_string");
    // Predefined codes keep their strings (MPI-3.1 §8.5).
    bool known = false;
    try {
        std::lock_guard lock(added_mutex);
        known = added_class_of.count(errorcode) != 0;
        if (known) added_string[errorcode] = string;
    } catch (...) {
        return raise(MPI_COMM_NULL, MPI_ERR_NO_MEM, "MPI_Add_error_string");
    }
    return known ? MPI_SUCCESS : raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Add_error_string");
}
FTMPI_PMPI(Add_error_string)

// MPI-4.1 removals. Only what MPI_Add_error_class/code/string made can be
// removed; a class goes only once no added code is in it. Removing a class
// or code takes its string with it. Numbers are not handed out again, so
// MPI_LASTUSEDCODE stays as it was.
extern "C" int MPI_Remove_error_class(int errorclass) noexcept {
    std::unique_lock lock(added_mutex);
    auto it = added_class_of.find(errorclass);
    bool removable = it != added_class_of.end() && it->second == errorclass;
    for (const auto &[code, cls] : added_class_of)
        if (cls == errorclass && code != errorclass) removable = false;  // a code is still in it
    if (!removable) {
        lock.unlock();
        return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Remove_error_class");
    }
    added_class_of.erase(it);
    added_string.erase(errorclass);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Remove_error_class)

extern "C" int MPI_Remove_error_code(int errorcode) noexcept {
    std::unique_lock lock(added_mutex);
    auto it = added_class_of.find(errorcode);
    if (it == added_class_of.end() || it->second == errorcode) {  // unknown, predefined, or a class
        lock.unlock();
        return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Remove_error_code");
    }
    added_class_of.erase(it);
    added_string.erase(errorcode);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Remove_error_code)

// An added class or code with no string has nothing to remove: MPI_ERR_ARG,
// as for a predefined code (whose strings are fixed).
extern "C" int MPI_Remove_error_string(int errorcode) noexcept {
    std::unique_lock lock(added_mutex);
    if (added_string.erase(errorcode) == 0) {
        lock.unlock();
        return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Remove_error_string");
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Remove_error_string)
