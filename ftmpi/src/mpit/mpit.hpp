// The MPI tool information interface (MPI_T) inside libftmpi: the tables of
// variables and categories and the interface's own state, shared by the
// binding files of this folder (README.md).
//
// Every MPI_T binding runs through call(): one lock for the whole interface
// (MPI_T calls are rare and short; a tool may call them from any thread),
// MPI_T_ERR_NOT_INITIALIZED outside MPI_T_init_thread/MPI_T_finalize, and no
// exception out. MPI_T calls return their codes; no error handler is called.
#pragma once

#include "mpi.h"
#include "settings/table.hpp"

#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <string_view>
#include <vector>

struct ftmpi_t_enum_s {
    std::string name;
    std::vector<std::string> items;  // item i has the value i
};

struct ftmpi_t_cvar_handle_s {
    int index;
};

struct ftmpi_t_pvar_handle_s {
    int index;
    bool started;
    unsigned long long kept;  // non-continuous: the value gathered while started before
    unsigned long long base;  // the source's value when last started (or reset, written)
};

struct ftmpi_t_pvar_session_s {
    std::vector<std::unique_ptr<ftmpi_t_pvar_handle_s>> handles;
};

namespace ftmpi::mpit {

// ---- The interface's state (state.cpp) ----
struct State {
    int nesting = 0;  // MPI_T_init_thread calls not finalized yet
    std::set<MPI_T_cvar_handle> cvar_handles;
    std::set<MPI_T_pvar_session> sessions;
};
std::mutex &lock();
State &state();  // under lock()

template <typename Body>
int call(Body &&body) noexcept {
    try {
        std::lock_guard guard(lock());
        if (state().nesting == 0) return MPI_T_ERR_NOT_INITIALIZED;
        return body();
    } catch (const std::bad_alloc &) {
        return MPI_T_ERR_MEMORY;
    } catch (...) {
        return MPI_T_ERR_INVALID;
    }
}

// A string out as MPI_T returns names and descriptions: with len null,
// nothing; with out null or *len 0, *len = the length needed (with the
// terminating null); else as much as fits, terminated, and *len = what
// was stored (with the null).
void copy_string(std::string_view text, char *out, int *len);

// ---- Categories (categories.cpp) ----
enum class Category : int { root, logging, job, placement, p2p, shared_memory, fault_tolerance, collectives, count };

// ---- Control variables: the settings table (cvars.cpp) ----
struct CvarInfo {
    const settings::Setting *setting;
    Category category;
    int verbosity;
    int scope;
};
int cvar_count();
CvarInfo cvar_info(int index);  // 0 <= index < cvar_count()
MPI_Datatype cvar_datatype(const settings::Setting &s);
MPI_T_enum cvar_enum(const settings::Setting &s);  // choice settings; else MPI_T_ENUM_NULL
bool is_enum(MPI_T_enum e);
int cvar_elements(const settings::Setting &s);  // the count of a handle
int cvar_read(int index, void *buf);
int cvar_write(int index, const void *buf);

// ---- Performance variables (pvars.cpp) ----
struct Pvar {
    const char *name;
    int var_class;
    bool counter;  // MPI_UNSIGNED_LONG_LONG, else MPI_UNSIGNED_LONG
    Category category;
    bool readonly;
    bool continuous;
    const char *desc;
    unsigned long long (*source)();
};
int pvar_count();
const Pvar &pvar(int index);  // 0 <= index < pvar_count()
MPI_Datatype pvar_datatype(const Pvar &p);

// Whether index is one of `count` entries.
inline bool valid_index(int index, int count) {
    return index >= 0 && index < count;
}

}  // namespace ftmpi::mpit
