// A daemon started as a child process (harness/common/spawn.hpp).
#include <harness/common/spawn.hpp>

#include <cerrno>
#include <cstring>
#include <initializer_list>
#include <stdexcept>

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace harness {
namespace {

void close_all(std::initializer_list<int> fds) {
    for (int fd : fds)
        if (fd >= 0) ::close(fd);
}

}  // namespace

pid_t spawn_process(const std::vector<std::string> &argv, const std::vector<std::string> &env, int out_fd, int err_fd) {
    if (argv.empty()) {
        close_all({out_fd, err_fd});
        throw std::invalid_argument("spawn_process: no program");
    }
    // After fork in a threaded process only async-signal-safe calls are
    // allowed: the argument vectors are made here.
    std::vector<std::string> args = argv, vars = env;
    std::vector<char *> cargv, cenv;
    for (auto &a : args) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    for (auto &e : vars) cenv.push_back(e.data());
    cenv.push_back(nullptr);
    const std::size_t name_len = std::strlen(cargv[0]);
    const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);

    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int err = errno;
        close_all({null_fd, out_fd, err_fd});
        throw std::runtime_error(std::string("fork: ") + std::strerror(err));
    }
    if (pid == 0) {
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(127);  // the parent is already gone
        ::signal(SIGPIPE, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        if (null_fd >= 0) ::dup2(null_fd, 0);
        ::dup2(out_fd, 1);
        ::dup2(err_fd, 2);
        ::execvpe(cargv[0], cargv.data(), cenv.data());
        const char msg[] = "spawn_process: exec failed: ";
        ssize_t ignored = ::write(2, msg, sizeof msg - 1);
        ignored = ::write(2, cargv[0], name_len);
        ignored = ::write(2, "\n", 1);
        (void)ignored;
        ::_exit(127);
    }
    ::setpgid(pid, pid);  // also from the parent: no race with a killpg right after
    close_all({null_fd, out_fd, err_fd});
    return pid;
}

}  // namespace harness
