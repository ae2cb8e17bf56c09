// ft_options.hpp — the fault-tolerance options of a job (ftmpi/FT_CONTRACTS.md,
// "Launch options and environment"): the communicator and message modes, the
// strict collectives and the ordered notifier, checked here once and handed to
// every rank (replacements included) as FTMPI_* environment variables.
// Pure, so tests check the parsing and the environment without a VM.
#pragma once

#include <harness/common/result.hpp>

#include <string>
#include <vector>

namespace harness::ftmpirun {

enum class CommMode { ulfm, abort, blank, shrink, rebuild, rebuild_append };
enum class MsgMode { cont, nop };

// The spelling on the command line and in FTMPI_COMM_MODE / FTMPI_MSG_MODE.
std::string to_string(CommMode mode);
std::string to_string(MsgMode mode);

// "ulfm", "abort", … → the mode; anything else is an error that lists the
// accepted values.
Result<CommMode> parse_comm_mode(const std::string &text);
Result<MsgMode> parse_msg_mode(const std::string &text);

struct FtOptions {
    CommMode comm_mode = CommMode::ulfm;
    MsgMode msg_mode = MsgMode::cont;
    bool strict_collectives = false;
    bool ordered_notifier = false;
};

// K=V lines for every rank's environment: FTMPI_COMM_MODE, FTMPI_MSG_MODE,
// and FTMPI_COLL_STRICT=1 / FTMPI_NOTIFIER=ordered when asked for.
std::vector<std::string> ft_environment(const FtOptions &options);

// The environment a replacement gets on top of the job's
// (FTMPI_RESTARTED=1, FTMPI_INCARNATION=k, FTMPI_ROUND=r).
std::vector<std::string> replacement_environment(int incarnation, int round);

}  // namespace harness::ftmpirun
