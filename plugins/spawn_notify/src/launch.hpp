// launch.hpp — start one child process: checks, pipes, posix_spawn, pidfd.
//
// Everything a caller can get wrong is checked here first and named in the
// error (missing or non-executable program, bad working directory, malformed
// environment entry), so "spawn failed" is never the whole story. The child
// gets its own process group (so a whole job step can be signalled), default
// signal dispositions, an empty signal mask, pipes for stdin/stdout/stderr, a
// lifecycle socket on descriptor 3 (kLifecycleFd, named by
// HARNESS_LIFECYCLE_FD="3:<inode>") and no other descriptor of the daemon.
//
// The lifecycle socket: an MPI library writes one word per line to it as the
// process goes through MPI_Init ("initialized"), MPI_Finalize ("finalized")
// or MPI_Abort ("aborted"), so the daemon that sees the process end also
// knows whether it ended as an MPI process should (README.md, "Exits").
#pragma once

#include <harness/common/result.hpp>

#include <string>
#include <sys/types.h>
#include <vector>

namespace harness::vm::spawn {

struct SpawnRequest {
    std::vector<std::string> argv;
    std::vector<std::string> env;  // "K=V", on top of the daemon's environment
    std::string cwd;               // empty: the daemon's working directory
    std::string tag;
    std::string notify_topic;
};

// A started child. The parent's ends of its pipes (non-blocking, close-on-exec)
// and a pidfd that becomes readable when it exits.
struct Launched {
    pid_t pid = -1;
    int pidfd = -1;
    int stdin_fd = -1;
    int stdout_fd = -1;
    int stderr_fd = -1;
    int lifecycle_fd = -1;  // the daemon's end of the lifecycle socket
};

// The child's descriptor for the lifecycle socket, and the variable naming it.
constexpr int kLifecycleFd = 3;
constexpr const char *kLifecycleEnv = "HARNESS_LIFECYCLE_FD";

// Checks the request (argument count and sizes, no NUL bytes, K=V entries).
Result<void> validate(const SpawnRequest &request, std::size_t max_args, std::size_t max_bytes);

// Starts the child. extra_env ("K=V") is applied last and wins.
Result<Launched> launch(const SpawnRequest &request, const std::vector<std::string> &extra_env);

}  // namespace harness::vm::spawn
