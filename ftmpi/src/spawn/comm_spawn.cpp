// MPI_Comm_spawn, MPI_Comm_spawn_multiple and MPI_Comm_disconnect.
//
// The root asks the launcher for the processes (launcher_request.hpp) and
// tells the other parents what it answered; the new processes get world
// ranks after every one the job has used and connect to every process of the
// job in their MPI_Init. The parents wait for those connections (or the
// processes' failure, or FTMPI_SPAWN_MS), then both sides build the
// intercommunicator through their leaders (comm::connect_groups): the
// parents' root and the children's rank 0.
#include "internal/comm.hpp"
#include "internal/errors.hpp"
#include "internal/p2p.hpp"
#include "internal/pmpi.hpp"
#include "internal/runtime.hpp"
#include "mpi-ext.h"
#include "runtime/log.hpp"
#include "settings/values.hpp"
#include "spawn/launcher_request.hpp"
#include "spawn/tags.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

namespace ftmpi::spawn {
namespace {

std::string info_value(MPI_Info info, const char *key) {
    if (info == MPI_INFO_NULL) return {};
    char value[MPI_MAX_INFO_VAL + 1] = {};
    int flag = 0;
    if (PMPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag) != MPI_SUCCESS || !flag) return {};
    return value;
}

// The reserved info key "path" (MPI-3.1 §10.3.4): directories, separated
// by ':', where the program is looked for before the launching daemon's
// PATH. A command without '/' found there as an executable file is given
// to the launcher by its full name (relative directories count from this
// process's working directory); the directories are read here, on the
// root's host, so on another host the name must mean the same file (a
// shared file system, as for any path the program names).
std::string command_in_path(const std::string &command, MPI_Info info) {
    const std::string path = info_value(info, "path");
    if (path.empty() || command.find('/') != std::string::npos) return command;
    size_t start = 0;
    while (start <= path.size()) {
        const size_t end = std::min(path.find(':', start), path.size());
        std::string dir = path.substr(start, end - start);
        start = end + 1;
        if (dir.empty()) continue;
        if (dir.front() != '/') {
            char cwd[4096];
            if (getcwd(cwd, sizeof cwd) == nullptr) continue;
            dir = std::string(cwd) + "/" + dir;
        }
        const std::string candidate = dir + "/" + command;
        struct stat st {};
        if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    return command;
}

std::vector<std::string> arguments(char **argv) {
    std::vector<std::string> out;
    for (; argv != nullptr && *argv != nullptr; ++argv) out.emplace_back(*argv);
    return out;
}

// The parents' side: `apps` matter at the root only. MPI_ERR_SPAWN when
// the launcher did not start them all; a child that started and died is a
// process failure (its error code MPIX_ERR_PROC_FAILED), and the call fails
// only if the new intercommunicator could not be made (its leader died).
int spawn(const std::vector<App> &apps, int root, MPI_Comm comm, MPI_Comm *intercomm, int *errcodes, const char *fn) {
    if (!comm::valid(comm) || comm->inter) return comm::raise(comm, MPI_ERR_COMM, fn);
    if (intercomm == nullptr) return comm::raise(comm, MPI_ERR_ARG, fn);
    if (root < 0 || root >= comm->size) return comm::raise(comm, MPI_ERR_ROOT, fn);
    *intercomm = MPI_COMM_NULL;
    // [code, spawn id, first world rank, count], from the root.
    std::vector<int> outcome{MPI_SUCCESS, 0, 0, 0};
    if (comm->rank == root) {
        int total = 0;
        for (const App &a : apps) {
            if (a.command.empty() || a.count < 1) outcome[0] = MPI_ERR_ARG;
            total += a.count;
        }
        Started started;
        if (outcome[0] == MPI_SUCCESS) {
            const auto timeout = std::chrono::milliseconds(settings::current().number(settings::Id::spawn_timeout));
            // After the numbers this process gave another job's processes
            // (MPI_Comm_connect/accept), which the launcher then skips.
            const int lowest_base = p2p::has_foreign() ? p2p::known_world_ranks() : 0;
            const std::string why = request_spawn(apps, runtime::world_rank(), lowest_base, timeout, &started);
            if (!why.empty()) {
                log::error("%s: %s", fn, why.c_str());
                outcome[0] = MPI_ERR_SPAWN;
            } else if (started.count != total) {
                outcome[0] = MPI_ERR_SPAWN;
            }
        }
        // The count is the one asked for when nothing started: every
        // parent fills that many error codes.
        outcome = {outcome[0], started.spawn_id, started.base, outcome[0] == MPI_SUCCESS ? started.count : total};
    }
    int err = comm::share_from_root(comm, root, outcome);
    if (err == MPI_SUCCESS && outcome.size() != 4) err = MPI_ERR_INTERN;
    if (err == MPI_SUCCESS) err = outcome[0];
    const int count = outcome.size() == 4 ? std::max(outcome[3], 0) : 0;
    if (err != MPI_SUCCESS) {
        if (errcodes != MPI_ERRCODES_IGNORE)
            for (int i = 0; i < count; ++i) errcodes[i] = err;
        return comm::raise(comm, err, fn);
    }
    const int base = outcome[2];
    std::vector<int> children;
    for (int i = 0; i < count; ++i) children.push_back(base + i);
    // Children that died before they connected are failed processes of the
    // new intercommunicator (their error codes say so), as any later failure.
    p2p::wait_connected(children, static_cast<int>(settings::current().number(settings::Id::spawn_timeout)));
    err = comm::connect_groups(comm, root, base, spawn_tag(outcome[1]), intercomm);
    if (errcodes != MPI_ERRCODES_IGNORE)
        for (int i = 0; i < count; ++i)
            errcodes[i] = p2p::is_failed(children[static_cast<size_t>(i)]) ? MPIX_ERR_PROC_FAILED : MPI_SUCCESS;
    return err == MPI_SUCCESS ? MPI_SUCCESS : comm::raise(comm, err, fn);
}

}  // namespace
}  // namespace ftmpi::spawn

using ftmpi::spawn::App;

extern "C" int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm,
                              MPI_Comm *intercomm, int array_of_errcodes[]) noexcept {
    std::vector<App> apps;
    if (ftmpi::comm::valid(comm) && !comm->inter && comm->rank == root) {
        App a;
        a.command = ftmpi::spawn::command_in_path(command != nullptr ? command : "", info);
        a.argv = ftmpi::spawn::arguments(argv);
        a.count = maxprocs;
        a.host = ftmpi::spawn::info_value(info, "host");
        a.wdir = ftmpi::spawn::info_value(info, "wdir");
        apps.push_back(std::move(a));
    }
    return ftmpi::spawn::spawn(apps, root, comm, intercomm, array_of_errcodes, "MPI_Comm_spawn");
}
FTMPI_PMPI(Comm_spawn)

extern "C" int MPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                                       const int array_of_maxprocs[], const MPI_Info array_of_info[], int root,
                                       MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]) noexcept {
    std::vector<App> apps;
    if (ftmpi::comm::valid(comm) && !comm->inter && comm->rank == root) {
        if (count < 1 || array_of_commands == nullptr || array_of_maxprocs == nullptr)
            return ftmpi::comm::raise(comm, MPI_ERR_ARG, "MPI_Comm_spawn_multiple");
        for (int i = 0; i < count; ++i) {
            App a;
            MPI_Info info = array_of_info != nullptr ? array_of_info[i] : MPI_INFO_NULL;
            a.command =
                ftmpi::spawn::command_in_path(array_of_commands[i] != nullptr ? array_of_commands[i] : "", info);
            a.argv = array_of_argv != MPI_ARGVS_NULL ? ftmpi::spawn::arguments(array_of_argv[i])
                                                     : std::vector<std::string>{};
            a.count = array_of_maxprocs[i];
            a.host = ftmpi::spawn::info_value(info, "host");
            a.wdir = ftmpi::spawn::info_value(info, "wdir");
            apps.push_back(std::move(a));
        }
    }
    return ftmpi::spawn::spawn(apps, root, comm, intercomm, array_of_errcodes, "MPI_Comm_spawn_multiple");
}
FTMPI_PMPI(Comm_spawn_multiple)

// MPI-3.1 §10.5.4: waits for the communicator's pending communication (a
// barrier over it, whose failure is returned), then frees it.
extern "C" int MPI_Comm_disconnect(MPI_Comm *comm) noexcept {
    if (comm == nullptr || !ftmpi::comm::valid(*comm) || *comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
        return ftmpi::comm::raise(comm ? *comm : MPI_COMM_NULL, MPI_ERR_COMM, "MPI_Comm_disconnect");
    MPI_Errhandler saved = MPI_ERRHANDLER_NULL;
    PMPI_Comm_get_errhandler(*comm, &saved);
    PMPI_Comm_set_errhandler(*comm, MPI_ERRORS_RETURN);
    int err = PMPI_Barrier(*comm);
    PMPI_Comm_set_errhandler(*comm, saved);
    PMPI_Errhandler_free(&saved);
    if (err != MPI_SUCCESS) err = ftmpi::comm::raise(*comm, err, "MPI_Comm_disconnect");
    PMPI_Comm_free(comm);
    return err;
}
FTMPI_PMPI(Comm_disconnect)
