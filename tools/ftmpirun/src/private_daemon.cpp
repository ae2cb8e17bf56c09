#include "private_daemon.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <sstream>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace harness::ftmpirun {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

bool executable(const fs::path &p) {
    return !p.empty() && ::access(p.c_str(), X_OK) == 0 && fs::is_regular_file(p);
}

std::string tail_of(const fs::path &file) {
    std::ifstream in(file);
    std::stringstream s;
    s << in.rdbuf();
    std::string text = s.str();
    return text.size() > 2000 ? text.substr(text.size() - 2000) : text;
}

}  // namespace

fs::path find_hcored() {
    if (const char *env = std::getenv("HARNESS_HCORED"); env && *env) return env;
#ifdef FTMPIRUN_HCORED_PATH
    if (executable(FTMPIRUN_HCORED_PATH)) return FTMPIRUN_HCORED_PATH;
#endif
    std::error_code ec;
    fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec && executable(self.parent_path() / "hcored")) return self.parent_path() / "hcored";
    if (const char *path = std::getenv("PATH")) {
        std::stringstream in(path);
        for (std::string dir; std::getline(in, dir, ':');)
            if (!dir.empty() && executable(fs::path(dir) / "hcored")) return fs::path(dir) / "hcored";
    }
    return {};
}

Result<std::unique_ptr<PrivateDaemon>> PrivateDaemon::start(std::chrono::milliseconds ready_timeout) {
    fs::path hcored = find_hcored();
    if (hcored.empty())
        return make_error(HARNESS_ERR_NOT_FOUND,
                          "no VM is reachable and no hcored was found to start a private one "
                          "(set HARNESS_HCORED or put hcored on PATH)");
    char tmpl[] = "/tmp/ftmpirun-XXXXXX";
    if (!::mkdtemp(tmpl)) return make_error(HARNESS_ERR_INTERNAL, std::string("mkdtemp: ") + std::strerror(errno));
    std::unique_ptr<PrivateDaemon> d(new PrivateDaemon());
    d->root_ = tmpl;

    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0)
        return make_error(HARNESS_ERR_INTERNAL, std::string("pipe: ") + std::strerror(errno));
    std::string vm = "ftmpirun-" + std::to_string(::getpid());
    std::vector<std::string> args{hcored.string(), "--root", d->root_.string(), "--listen", "127.0.0.1:0",
                                  "--vm",          vm,       "--foreground"};
    std::vector<char *> argv;
    for (auto &a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    fs::path err_file = d->root_ / "hcored.stderr";
    pid_t parent = ::getpid();

    pid_t pid = ::fork();
    if (pid < 0) {
        ::close(out[0]);
        ::close(out[1]);
        return make_error(HARNESS_ERR_INTERNAL, std::string("fork: ") + std::strerror(errno));
    }
    if (pid == 0) {
        // Only async-signal-safe calls until exec.
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent) ::_exit(1);
        int null = ::open("/dev/null", O_RDONLY);
        int err = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (null < 0 || err < 0) ::_exit(1);
        ::dup2(null, 0);
        ::dup2(out[1], 1);
        ::dup2(err, 2);
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    d->pid_ = pid;
    ::close(out[1]);

    // Read its ready line: "hcored ready vm=… id=… tcp=HOST:PORT udp=… unix=…".
    std::string buffered;
    auto deadline = Clock::now() + ready_timeout;
    std::string why;
    for (;;) {
        auto nl = buffered.find('\n');
        if (nl != std::string::npos) {
            std::string line = buffered.substr(0, nl);
            buffered.erase(0, nl + 1);
            if (line.rfind("hcored ready ", 0) != 0) continue;
            auto at = line.find(" tcp=");
            if (at == std::string::npos) continue;
            auto end = line.find(' ', at + 5);
            auto ep = parse_endpoint(line.substr(at + 5, end - at - 5));
            if (ep) {
                d->tcp_ = *ep;
                break;
            }
            continue;
        }
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) {
            why = "it did not become ready in " + std::to_string(ready_timeout.count()) + " ms";
            break;
        }
        pollfd p{out[0], POLLIN, 0};
        int r = ::poll(&p, 1, static_cast<int>(left));
        if (r < 0 && errno == EINTR) continue;
        char buf[4096];
        ssize_t n = r > 0 ? ::read(out[0], buf, sizeof buf) : 0;
        if (r > 0 && n <= 0) {
            why = "it exited before it was ready";
            break;
        }
        if (n > 0) buffered.append(buf, static_cast<std::size_t>(n));
    }
    ::close(out[0]);
    if (!why.empty()) {
        std::string tail = tail_of(err_file);
        d->stop();
        return make_error(HARNESS_ERR_UNREACHABLE,
                          "the private hcored (" + hcored.string() + ") failed: " + why +
                              (tail.empty() ? "" : "; its stderr:\n" + tail));
    }
    return d;
}

void PrivateDaemon::stop() {
    if (pid_ > 0) {
        // SIGTERM: plugins' fini run, so spawn_notify kills and reaps the ranks.
        ::kill(pid_, SIGTERM);
        // Wait for its exit on a pidfd (readable once it has exited), 10 s at most.
        int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
        if (pidfd >= 0) {
            pollfd p{pidfd, POLLIN, 0};
            while (::poll(&p, 1, 10000) < 0 && errno == EINTR) {}
            ::close(pidfd);
        }
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) != pid_) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, &status, 0);
        }
        pid_ = -1;
    }
    if (!root_.empty()) {
        std::error_code ec;
        fs::remove_all(root_, ec);
        root_.clear();
    }
}

PrivateDaemon::~PrivateDaemon() {
    stop();
}

}  // namespace harness::ftmpirun
