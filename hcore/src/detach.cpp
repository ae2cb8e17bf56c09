#include "detach.hpp"

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace harness::hcore {

ReadyReporter ReadyReporter::start(bool foreground, const std::string &log_file) {
    ReadyReporter r;
    if (foreground) return r;
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        std::perror("hcored: pipe");
        std::exit(1);
    }
    pid_t pid = ::fork();
    if (pid < 0) {
        std::perror("hcored: fork");
        std::exit(1);
    }
    if (pid > 0) {
        ::close(fds[1]);
        std::string text;
        char buf[512];
        ssize_t n;
        while ((n = ::read(fds[0], buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
        if (text.rfind("hcored ready ", 0) == 0) {
            std::fputs(text.c_str(), stdout);
            std::exit(0);
        }
        std::fputs(text.empty() ? "hcored: the daemon exited before it was ready\n" : text.c_str(), stderr);
        std::exit(1);
    }
    ::close(fds[0]);
    ::setsid();
    int devnull = ::open("/dev/null", O_RDWR);
    int log = ::open(log_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (devnull >= 0) {
        ::dup2(devnull, 0);
        ::dup2(devnull, 1);
    }
    if (log >= 0) ::dup2(log, 2);
    r.pipe_fd_ = fds[1];
    return r;
}

void ReadyReporter::ready(const std::string &line) {
    std::string text = line + "\n";
    if (pipe_fd_ < 0) {
        std::fputs(text.c_str(), stdout);
        std::fflush(stdout);
        return;
    }
    if (::write(pipe_fd_, text.data(), text.size()) < 0) {
        // The parent is gone; nobody is waiting for the line.
    }
    ::close(pipe_fd_);
    pipe_fd_ = -1;
}

void ReadyReporter::failed(const std::string &why) {
    std::string text = "hcored: " + why + "\n";
    std::fputs(text.c_str(), stderr);
    if (pipe_fd_ >= 0) {
        if (::write(pipe_fd_, text.data(), text.size()) < 0) {}
        ::close(pipe_fd_);
        pipe_fd_ = -1;
    }
}

}  // namespace harness::hcore
