// The predefined objects (MPI_COMM_WORLD, MPI_COMM_SELF,
// MPI_GROUP_EMPTY, the predefined error handlers, MPI_INFO_ENV) and the
// runtime's init/finalize hooks that give them their members.
#include "objects.hpp"
#include "settings/values.hpp"

#include <cstring>
#include <unistd.h>

#include <atomic>
#include <cstdlib>

extern "C" {
ftmpi_predefined_comm_u ftmpi_comm_world;
ftmpi_predefined_comm_u ftmpi_comm_self;
ftmpi_predefined_group_u ftmpi_group_empty;
// What the predefined error handlers do is known before MPI_Init: a
// session (MPI_Session_init) or an MPI_T/MPI_Info call may use them first.
ftmpi_predefined_errhandler_u ftmpi_errhandler_fatal{std::in_place, ftmpi_errhandler_s::Kind::fatal, nullptr, 1, true};
ftmpi_predefined_errhandler_u ftmpi_errhandler_return{std::in_place, ftmpi_errhandler_s::Kind::return_codes, nullptr, 1,
                                                      true};
ftmpi_predefined_info_u ftmpi_info_env;
}

namespace ftmpi::comm {
namespace {
int world_rank_ = 0;
int world_size_ = 1;
std::atomic<bool> comms_live{false};

// MPI-4 §9.3: the error handler MPI_COMM_WORLD and MPI_COMM_SELF start with,
// as the launcher was told (mpiexec --initial-errhandler, passed as
// FTMPI_INITIAL_ERRHANDLER; MPI_Init has refused any other name).
// mpi_errors_abort ends the job like MPI_ERRORS_ARE_FATAL does here (there
// is one job to abort).
const char *initial_errhandler_name() {
    return settings::current().text(settings::Id::initial_errhandler).c_str();
}

MPI_Errhandler initial_errhandler() {
    return std::strcmp(initial_errhandler_name(), "mpi_errors_return") == 0 ? MPI_ERRORS_RETURN : MPI_ERRORS_ARE_FATAL;
}

// A predefined communicator over `world` with its own group.
void setup_predefined(ftmpi_comm_s &c, std::vector<int> world, uint32_t context, const char *name) {
    auto *g = new ftmpi_group_s;
    g->world = std::move(world);
    g->rank = 0;
    for (size_t i = 0; i < g->world.size(); ++i)
        if (g->world[i] == world_rank_) g->rank = static_cast<int>(i);
    register_object(g);
    c.context = context;
    c.group = g;
    c.remote = nullptr;
    c.rank = g->rank;
    c.size = static_cast<int>(g->world.size());
    c.inter = false;
    c.errhandler = initial_errhandler();
    c.name = name;
    c.topology.reset();
    c.attributes.clear();
    c.attribute_order.clear();
    register_object(&c);
    register_comm(&c);
}

void teardown_predefined(ftmpi_comm_s &c) {
    delete_all_attributes(&c);
    unregister_object(&c);
    unregister_comm(&c);
    // The group stays: the progress thread may still translate the source
    // of a late frame (a receive an agreement left posted) until the
    // transport is down. It is reachable from the predefined comm, so it is
    // neither freed under that reader nor a leak.
    release(c.errhandler);
    c.errhandler = nullptr;
    delete c.info;
    c.info = nullptr;
}

void set_info_env() {
    ftmpi_info_env.object.entries = environment_info();
    ftmpi_info_env.object.predefined = true;
}
}  // namespace

// The keys the standard reserves for MPI_INFO_ENV that we know. Read from
// the launcher's settings, not from MPI_Init's state, so that
// MPI_Info_create_env gives the same before MPI_Init and after.
std::vector<std::pair<std::string, std::string>> environment_info() {
    std::vector<std::pair<std::string, std::string>> entries;
    entries.emplace_back("maxprocs", std::to_string(settings::current().number(settings::Id::size)));
    entries.emplace_back("host", host_name());
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd) != nullptr) entries.emplace_back("wdir", cwd);
    entries.emplace_back("thread_level", "MPI_THREAD_MULTIPLE");
    entries.emplace_back("mpi_initial_errhandler", initial_errhandler_name());
    return entries;
}

bool predefined_comms_live() {
    return comms_live.load(std::memory_order_acquire);
}
int my_world_rank() {
    return world_rank_;
}
int my_world_size() {
    return world_size_;
}

std::string host_name() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) return "localhost";
    return name;
}

void init_world(int world_rank, int world_base, int world_size) {
    world_rank_ = world_rank;
    world_size_ = world_size;

    register_object(&ftmpi_errhandler_fatal.object);
    register_object(&ftmpi_errhandler_return.object);

    ftmpi_group_empty.object.world.clear();
    ftmpi_group_empty.object.rank = MPI_UNDEFINED;
    register_object(&ftmpi_group_empty.object);

    set_info_env();
    register_object(&ftmpi_info_env.object);

    std::vector<int> all(static_cast<size_t>(world_size));
    for (int i = 0; i < world_size; ++i) all[static_cast<size_t>(i)] = world_base + i;
    setup_predefined(ftmpi_comm_world.object, std::move(all), 0, "MPI_COMM_WORLD");
    setup_predefined(ftmpi_comm_self.object, {world_rank}, 2, "MPI_COMM_SELF");
    set_predefined_attributes(&ftmpi_comm_world.object, world_size);
    comms_live.store(true, std::memory_order_release);
}

void finalize_world() {
    // MPI-2.2 §8.7.1: COMM_SELF's attributes are deleted first, so
    // libraries can hook finalization on them.
    teardown_predefined(ftmpi_comm_self.object);
    teardown_predefined(ftmpi_comm_world.object);
    comms_live.store(false, std::memory_order_release);
}

}  // namespace ftmpi::comm
