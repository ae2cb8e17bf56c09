// MPI_COMM_SPAWN and MPI_COMM_SPAWN_MULTIPLE from Fortran: their argument
// lists are arrays of CHARACTER*(*) ended by a blank entry (or MPI_ARGV_NULL
// / MPI_ARGVS_NULL, recognised by address), which bindings.txt's kinds
// cannot say. ARRAY_OF_ARGV(COUNT, *) is column-major: command i's j-th
// argument is element i + j * COUNT.
#include "support.hpp"

#include <string>
#include <vector>

namespace {

// One command's arguments: `at(j)` is the j-th entry, each `len` characters;
// the list ends at the first blank entry.
template <typename At>
std::vector<std::string> arguments(At at, size_t len) {
    std::vector<std::string> out;
    for (size_t j = 0;; ++j) {
        std::string a = ftmpi::fortran::from_fortran(at(j), len);
        if (a.empty()) return out;
        out.push_back(std::move(a));
    }
}

// C's argv: pointers into `storage`, ended by a null pointer.
std::vector<char *> c_argv(std::vector<std::string> &storage) {
    std::vector<char *> out;
    for (auto &s : storage) out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

int *errcodes_of(MPI_Fint *f) {
    return f == mpi_fortran_errcodes_ignore_ ? MPI_ERRCODES_IGNORE : reinterpret_cast<int *>(f);
}

}  // namespace

extern "C" {

void mpi_comm_spawn_(const char *command, const char *argv, const MPI_Fint *maxprocs, const MPI_Fint *info,
                     const MPI_Fint *root, const MPI_Fint *comm, MPI_Fint *intercomm, MPI_Fint *errcodes,
                     MPI_Fint *ierror, size_t command_len, size_t argv_len) noexcept {
    static_assert(sizeof(MPI_Fint) == sizeof(int), "error codes are written in place");
    try {
        std::string cmd = ftmpi::fortran::from_fortran(command, command_len);
        std::vector<std::string> args;
        if (argv != mpi_fortran_argv_null_) args = arguments([&](size_t j) { return argv + j * argv_len; }, argv_len);
        std::vector<char *> c_args = c_argv(args);
        MPI_Comm out = MPI_COMM_NULL;
        *ierror = MPI_Comm_spawn(cmd.c_str(), c_args.data(), *maxprocs, MPI_Info_f2c(*info), *root, MPI_Comm_f2c(*comm),
                                 &out, errcodes_of(errcodes));
        *intercomm = MPI_Comm_c2f(out);
    } catch (...) {
        *ierror = MPI_ERR_INTERN;
    }
}
FTMPI_F_PMPI(mpi_comm_spawn)

void mpi_comm_spawn_multiple_(const MPI_Fint *count, const char *commands, const char *argvs, const MPI_Fint *maxprocs,
                              const MPI_Fint *infos, const MPI_Fint *root, const MPI_Fint *comm, MPI_Fint *intercomm,
                              MPI_Fint *errcodes, MPI_Fint *ierror, size_t command_len, size_t argv_len) noexcept {
    try {
        const size_t n = *count > 0 ? static_cast<size_t>(*count) : 0;
        std::vector<std::string> cmds;
        std::vector<std::vector<std::string>> args(n);
        std::vector<std::vector<char *>> c_args(n);
        std::vector<char *> c_cmds;
        std::vector<char **> c_argvs;
        std::vector<MPI_Info> c_infos;
        for (size_t i = 0; i < n; ++i)
            cmds.push_back(ftmpi::fortran::from_fortran(commands + i * command_len, command_len));
        for (size_t i = 0; i < n; ++i) {
            if (argvs != mpi_fortran_argvs_null_)
                args[i] = arguments([&](size_t j) { return argvs + (i + j * n) * argv_len; }, argv_len);
            c_args[i] = c_argv(args[i]);
            c_cmds.push_back(cmds[i].data());
            c_argvs.push_back(c_args[i].data());
            c_infos.push_back(MPI_Info_f2c(infos[i]));
        }
        std::vector<int> counts(maxprocs, maxprocs + n);
        MPI_Comm out = MPI_COMM_NULL;
        *ierror = MPI_Comm_spawn_multiple(*count, c_cmds.data(), c_argvs.data(), counts.data(), c_infos.data(), *root,
                                          MPI_Comm_f2c(*comm), &out, errcodes_of(errcodes));
        *intercomm = MPI_Comm_c2f(out);
    } catch (...) {
        *ierror = MPI_ERR_INTERN;
    }
}
FTMPI_F_PMPI(mpi_comm_spawn_multiple)

}  // extern "C"
