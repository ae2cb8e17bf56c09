#include "launch.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace {
// glibc 2.36's <sys/pidfd.h> lacks extern "C", so call the kernel directly.
int open_pidfd(pid_t pid) {
    return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
}
}  // namespace

namespace harness::vm::spawn {

namespace {

Error invalid(std::string message) {
    return make_error(HARNESS_ERR_INVALID_ARGUMENT, std::move(message));
}

bool has_nul(const std::string &s) {
    return s.find('\0') != std::string::npos;
}

// Closes its descriptors unless released.
struct Fds {
    std::vector<int> fds;
    ~Fds() {
        for (int fd : fds)
            if (fd >= 0) ::close(fd);
    }
};

// The child's environment: the daemon's, then the request's, then extra.
// Later entries replace earlier ones with the same name.
std::vector<std::string> merged_environment(const std::vector<std::string> &request_env,
                                            const std::vector<std::string> &extra_env) {
    std::map<std::string, std::string> by_name;
    std::vector<std::string> order;
    auto put = [&](const std::string &entry) {
        auto eq = entry.find('=');
        std::string name = entry.substr(0, eq);
        if (by_name.find(name) == by_name.end()) order.push_back(name);
        by_name[name] = entry;
    };
    for (char **e = environ; e && *e; ++e)
        if (std::strchr(*e, '=')) put(*e);
    for (const auto &entry : request_env) put(entry);
    for (const auto &entry : extra_env) put(entry);
    std::vector<std::string> out;
    out.reserve(order.size());
    for (const auto &name : order) out.push_back(by_name[name]);
    return out;
}

std::string env_value(const std::vector<std::string> &env, const std::string &name) {
    for (auto it = env.rbegin(); it != env.rend(); ++it)
        if (it->size() > name.size() && it->compare(0, name.size(), name) == 0 && (*it)[name.size()] == '=')
            return it->substr(name.size() + 1);
    return {};
}

bool is_executable_file(const std::string &path, std::string *why) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        *why = std::strerror(errno);
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        *why = "not a regular file";
        return false;
    }
    if ((st.st_mode & 0111) == 0 || ::access(path.c_str(), X_OK) != 0) {
        *why = "not executable";
        return false;
    }
    return true;
}

// The program to exec: argv[0] itself when it has a '/' (relative to the
// child's working directory), otherwise the first match on the child's PATH.
Result<std::string> resolve_program(const std::string &name, const std::string &cwd, const std::string &path_var) {
    std::string why;
    if (name.find('/') != std::string::npos) {
        std::string path = (name[0] == '/' || cwd.empty()) ? name : cwd + "/" + name;
        if (!is_executable_file(path, &why))
            return make_error(HARNESS_ERR_NOT_FOUND, "cannot execute \"" + name + "\": " + why);
        return path;
    }
    std::string search = path_var.empty() ? "/usr/local/bin:/usr/bin:/bin" : path_var;
    std::size_t start = 0;
    while (start <= search.size()) {
        std::size_t end = search.find(':', start);
        if (end == std::string::npos) end = search.size();
        std::string dir = search.substr(start, end - start);
        if (dir.empty()) dir = cwd.empty() ? "." : cwd;
        std::string candidate = dir + "/" + name;
        if (is_executable_file(candidate, &why)) return candidate;
        start = end + 1;
    }
    return make_error(HARNESS_ERR_NOT_FOUND, "no such program \"" + name + "\" on PATH " + search);
}

}  // namespace

Result<void> validate(const SpawnRequest &request, std::size_t max_args, std::size_t max_bytes) {
    if (request.argv.empty()) return invalid("spawn: argv is empty (argv[0] names the program)");
    if (request.argv[0].empty()) return invalid("spawn: argv[0] (the program) is empty");
    if (request.argv.size() > max_args || request.env.size() > max_args)
        return invalid("spawn: more than " + std::to_string(max_args) + " arguments or environment entries");
    std::size_t total = request.cwd.size() + request.tag.size() + request.notify_topic.size();
    for (const auto &a : request.argv) {
        if (has_nul(a)) return invalid("spawn: an argument contains a NUL byte");
        total += a.size();
    }
    for (const auto &e : request.env) {
        if (has_nul(e)) return invalid("spawn: an environment entry contains a NUL byte");
        auto eq = e.find('=');
        if (eq == std::string::npos || eq == 0)
            return invalid("spawn: environment entry \"" + e.substr(0, 80) + "\" is not NAME=value");
        total += e.size();
    }
    if (has_nul(request.cwd)) return invalid("spawn: cwd contains a NUL byte");
    if (total > max_bytes) return invalid("spawn: request over " + std::to_string(max_bytes) + " bytes");
    return {};
}

Result<Launched> launch(const SpawnRequest &request, const std::vector<std::string> &extra_env) {
    if (!request.cwd.empty()) {
        struct stat st {};
        if (::stat(request.cwd.c_str(), &st) != 0)
            return invalid("spawn: working directory \"" + request.cwd + "\": " + std::strerror(errno));
        if (!S_ISDIR(st.st_mode)) return invalid("spawn: working directory \"" + request.cwd + "\" is not a directory");
        if (::access(request.cwd.c_str(), X_OK) != 0)
            return invalid("spawn: working directory \"" + request.cwd + "\": " + std::strerror(errno));
    }
    std::vector<std::string> env = merged_environment(request.env, extra_env);
    auto program = resolve_program(request.argv[0], request.cwd, env_value(env, "PATH"));
    if (!program) return program.error();

    // [0]/[1] stdin, [2]/[3] stdout, [4]/[5] stderr, [6]/[7] lifecycle
    // (read end, write end). The lifecycle channel is a socket pair, so a
    // writer whose daemon is gone gets EPIPE from send(MSG_NOSIGNAL), not a
    // SIGPIPE that would kill it.
    int p[8];
    Fds fds;
    for (int i = 0; i < 4; ++i) {
        int rc =
            i < 3 ? ::pipe2(p + 2 * i, O_CLOEXEC) : ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p + 2 * i);
        if (rc != 0) return make_error(HARNESS_ERR_BUSY, std::string("spawn: pipe: ") + std::strerror(errno));
        fds.fds.push_back(p[2 * i]);
        fds.fds.push_back(p[2 * i + 1]);
    }
    // "3:<inode>": the inode lets the library check that its descriptor 3 is
    // this socket and not something a parent left there under the same number.
    struct stat lifecycle_st {};
    ::fstat(p[7], &lifecycle_st);
    const std::string lifecycle_name = std::string(kLifecycleEnv) + "=";
    std::erase_if(env, [&](const std::string &e) { return e.compare(0, lifecycle_name.size(), lifecycle_name) == 0; });
    env.push_back(lifecycle_name + std::to_string(kLifecycleFd) + ":" + std::to_string(lifecycle_st.st_ino));

    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_adddup2(&actions, p[0], 0);
    posix_spawn_file_actions_adddup2(&actions, p[3], 1);
    posix_spawn_file_actions_adddup2(&actions, p[5], 2);
    posix_spawn_file_actions_adddup2(&actions, p[7], kLifecycleFd);
    if (!request.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, request.cwd.c_str());
    // The daemon's sockets and files are not the child's business.
    posix_spawn_file_actions_addclosefrom_np(&actions, kLifecycleFd + 1);
    sigset_t empty, defaults;
    sigemptyset(&empty);
    sigemptyset(&defaults);
    for (int sig = 1; sig < NSIG; ++sig)
        if (sig != SIGKILL && sig != SIGSTOP) sigaddset(&defaults, sig);
    posix_spawnattr_setsigmask(&attr, &empty);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setpgroup(&attr, 0);  // its own process group, led by itself
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);

    std::vector<char *> argv, envp;
    for (const auto &a : request.argv) argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    for (const auto &e : env) envp.push_back(const_cast<char *>(e.c_str()));
    envp.push_back(nullptr);

    pid_t pid = -1;
    int rc = ::posix_spawn(&pid, program->c_str(), &actions, &attr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0)
        return make_error(rc == ENOENT || rc == EACCES || rc == ENOEXEC ? HARNESS_ERR_NOT_FOUND : HARNESS_ERR_BUSY,
                          "spawn: cannot execute \"" + *program + "\": " + std::strerror(rc));

    Launched out;
    out.pid = pid;
    out.pidfd = open_pidfd(pid);
    if (out.pidfd < 0) {
        // Without a pidfd we could not see it exit; do not leave it behind.
        int err = errno;
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
        return make_error(HARNESS_ERR_NOT_SUPPORTED, std::string("spawn: pidfd_open: ") + std::strerror(err));
    }
    ::fcntl(out.pidfd, F_SETFD, FD_CLOEXEC);
    out.stdin_fd = p[1];
    out.stdout_fd = p[2];
    out.stderr_fd = p[4];
    out.lifecycle_fd = p[6];
    for (int fd : {out.stdin_fd, out.stdout_fd, out.stderr_fd, out.lifecycle_fd})
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    fds.fds = {p[0], p[3], p[5], p[7]};  // the child's ends: closed here, kept by the child
    return out;
}

}  // namespace harness::vm::spawn
