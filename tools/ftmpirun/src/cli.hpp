// cli.hpp — ftmpirun's command line, also under the names mpirun and mpiexec.
//
// Every option is declared once (declare_options, CLI11), with the spellings
// users of Open MPI 5 type: one-dash long forms (-np, -host, -x, -map-by …)
// are accepted for every long option, `--with-ft ulfm|mpi|no` maps to the
// comm modes, and `prog1 args : -n 2 prog2 args` runs several programs in one
// job (MPMD: the ranks of each context follow the previous context's). An
// option we do not support is refused with one line naming it.
#pragma once

#include <string>
#include <variant>
#include <vector>

namespace harness::ftmpirun {

// One program of the job and its ranks (an MPMD "application context").
struct AppContext {
    int np = 0;
    std::vector<std::string> exports;  // -x VAR or VAR=value, for this context's ranks
    std::string wdir;                  // empty: the job's
    std::vector<std::string> program;  // program and its arguments
};

struct Options {
    std::string host_list;
    std::string hostfile;
    std::string rankfile;
    std::string map_by = "slot";
    std::string bind_to = "auto";
    bool tag_output = false;
    bool timestamp_output = false;
    std::string output_buffering = "line";
    double timeout_s = 0;
    bool oversubscribe = false;
    int universe_size = 0;  // --universe-size / -usize; 0: the slots of the job's hosts
    std::string wdir;
    std::string hcore;
    std::string root;
    std::string key;
    std::string comm_mode;  // empty: ulfm, or what --with-ft says
    std::string with_ft;
    std::string msg_mode = "cont";
    std::string initial_errhandler;
    bool strict_collectives = false;
    bool ordered_notifier = false;
    std::string grid;       // --grid AxB
    std::string spares;     // --spares qD(r,s)
    std::string ft_policy;  // --ft-policy FILE
    int standby = 0;        // --standby N
    std::vector<AppContext> apps;
};

// The parsed command line, or the status to exit with (0 after --help, 1
// after an error, which has been printed).
std::variant<Options, int> parse_command_line(int argc, char **argv);

// --with-ft's value as a comm mode: ulfm → ulfm, mpi/no → abort; empty for an
// unknown value.
std::string comm_mode_for_with_ft(const std::string &with_ft);

}  // namespace harness::ftmpirun
