// harness/common/spawn.hpp — starting a daemon as a child process, for the
// programs that run their own hcored (the test fixture, hbench).
#pragma once

#include <string>
#include <vector>

#include <sys/types.h>

namespace harness {

// Starts argv (argv[0] looked up in PATH) with environment env in a child
// that leads a process group of its own (so killpg also ends what it forks)
// and is killed when the calling thread ends: stdin from /dev/null, stdout
// to out_fd, stderr to err_fd, an empty signal mask and SIGPIPE at its
// default. Everything is built before fork, so a threaded caller is safe.
// out_fd and err_fd are the child's: this closes them in the caller, also
// when it fails. Returns the child's pid; throws std::runtime_error when fork
// fails. When exec fails, the child writes why to err_fd and exits 127.
pid_t spawn_process(const std::vector<std::string> &argv, const std::vector<std::string> &env, int out_fd, int err_fd);

}  // namespace harness
