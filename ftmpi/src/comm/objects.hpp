// The comm part's own objects and the helpers its files share:
// error handler and info structs, group/communicator construction and
// reference counting, and the registry of live handles that lets every
// binding reject a freed or made-up handle with an error instead of a crash.
#pragma once

#include "../internal/comm.hpp"

#include <string>
#include <utility>
#include <vector>

struct ftmpi_errhandler_s {
    enum class Kind { fatal, return_codes, user };
    Kind kind = Kind::fatal;
    MPI_Comm_errhandler_function *function = nullptr;  // user handlers only
    std::atomic<int> refs{1};
    bool predefined = false;
};

struct ftmpi_info_s {
    // Insertion order, because MPI_Info_get_nthkey numbers keys in it.
    std::vector<std::pair<std::string, std::string>> entries;
    bool predefined = false;
};

// The fixed-size storage of the predefined error handlers and MPI_INFO_ENV
// (internal/predefined_storage.hpp).
FTMPI_PREDEFINED_STORAGE(ftmpi_predefined_errhandler_u, ftmpi_errhandler_s, 128);
FTMPI_PREDEFINED_STORAGE(ftmpi_predefined_info_u, ftmpi_info_s, 256);

namespace ftmpi::comm {

// This process's world rank in the job (set by init_world; its rank in
// MPI_COMM_WORLD unless MPI_Comm_spawn started it), and MPI_COMM_WORLD's size.
int my_world_rank();
int my_world_size();

// True between init_world and finalize_world (MPI_COMM_WORLD and
// MPI_COMM_SELF are usable).
bool predefined_comms_live();
// MPI_INFO_ENV's entries (also MPI_Info_create_env's, before MPI_Init too).
std::vector<std::pair<std::string, std::string>> environment_info();

// Live-handle registry. Predefined objects are registered by init_world.
// Each handle is registered with its kind, so a handle of one kind passed
// where another is expected (a communicator cast to MPI_Group) is refused
// like a made-up one.
void register_object(MPI_Comm);
void register_object(MPI_Group);
void register_object(MPI_Errhandler);
void register_object(MPI_Info);
// A registered user error handler calling `function` (any kind's function,
// kept as the communicator kind's); nullptr when out of memory.
MPI_Errhandler make_user_errhandler(MPI_Comm_errhandler_function *function);
void unregister_object(const void *);

bool valid(MPI_Errhandler);
bool valid(MPI_Info);

// A new group over these world ranks (this process's rank found in it).
// Returns MPI_GROUP_EMPTY for an empty list (with a reference taken).
MPI_Group make_group(std::vector<int> world);
void retain(MPI_Group);
void release(MPI_Group);  // frees on the last reference; predefined never

// A new communicator with a reference on `local` (and `remote`) taken over
// from the caller, MPI_ERRORS_ARE_FATAL unless `errhandler_from` is given.
// `errhandler_from` is the parent: the new communicator also inherits its
// fault-tolerance modes (comm_mode, msg_mode, strict) and recovery round.
// Returns MPI_COMM_NULL when this process is not in `local`.
MPI_Comm make_comm(MPI_Group local, MPI_Group remote, uint32_t context, MPI_Comm errhandler_from);
// The same, not registered yet: its context is agreed later (MPI_Comm_idup),
// and register_comm follows once it is set.
MPI_Comm make_unregistered_comm(MPI_Group local, MPI_Group remote, uint32_t context, MPI_Comm errhandler_from);
// MPI_Comm_idup(_with_info) after its argument checks: starts the context
// agreement and returns at once; *request completes when it ends, and only
// then is *newcomm set (MPI_COMM_NULL if the agreement failed). `info`
// replaces the parent's hints unless MPI_INFO_NULL.
int start_idup(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request);
// Copies the fault-tolerance modes and round of `parent` to `child`.
void inherit_ft(MPI_Comm child, MPI_Comm parent);
// The registry of live communicators behind find_by_context/for_each_comm
// (make_comm and init_world register, release and finalize_world unregister).
void register_comm(MPI_Comm);
void unregister_comm(MPI_Comm);
void retain(MPI_Comm);
void release(MPI_Comm);  // frees on the last reference; predefined never

void retain(MPI_Errhandler);
void release(MPI_Errhandler);

// Calls every attribute's delete callback and empties the map (Comm_free,
// finalize). Returns the first callback's error, MPI_SUCCESS otherwise.
int delete_all_attributes(MPI_Comm);
// Copies attributes from `from` to `to` through their copy callbacks (Comm_dup).
int copy_all_attributes(MPI_Comm from, MPI_Comm to);
// Sets the predefined attributes on MPI_COMM_WORLD (init_world).
void set_predefined_attributes(MPI_Comm world, int world_size);

// MPI_Comm_split without the error handler (comm_split.cpp).
int split_comm(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);

// Error class registry (error_strings.cpp): the last code in use, kept in
// MPI_COMM_WORLD's MPI_LASTUSEDCODE attribute.
int last_used_code();
// "MPI_ERR_RANK: invalid rank"; empty for a code nobody defined.
std::string error_string_of(int code);

// Names of this host for MPI_COMM_TYPE_SHARED and MPI_HOST.
std::string host_name();

}  // namespace ftmpi::comm
