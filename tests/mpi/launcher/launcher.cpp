// ftmpi_test_launcher — runs an MPI job of N ranks on this host, for tests.
//
//   ftmpi_test_launcher -np N [--timeout S] [--wireup dir|drd] program [args…]
//
// Each rank is a child process with FTMPI_JOB, FTMPI_RANK, FTMPI_SIZE and
// FTMPI_WIREUP=dir:<fresh temporary directory> (or drd:, which reaches the
// DRD through the daemon named by the inherited HARNESS_* environment);
// ranks inherit stdout and stderr. The first rank that fails (non-zero exit, a signal, or MPI_Abort,
// which exits non-zero) ends the job: the others are killed with SIGKILL.
// Exit status as mpirun's: 0 when every rank exits 0; else the first failing
// rank's exit status, 128+signal if it was killed; 124 on --timeout;
// 128+signal when the launcher itself gets SIGINT/SIGTERM (forwarded first).
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace {

struct Options {
    int np = 0;
    double timeout_s = 0;         // 0: none
    bool drd = false;             // --wireup drd
    std::vector<char *> program;  // argv of the rank program
};

[[noreturn]] void usage(const char *why) {
    std::fprintf(stderr,
                 "ftmpi_test_launcher: %s\nusage: ftmpi_test_launcher -np N [--timeout S] [--wireup dir|drd] program "
                 "[args...]\n",
                 why);
    std::exit(2);
}

Options parse(int argc, char **argv) {
    Options o;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; ++i) {
        std::string a = argv[i];
        if ((a == "-np" || a == "-n") && i + 1 < argc) {
            o.np = std::atoi(argv[++i]);
        } else if (a == "--timeout" && i + 1 < argc) {
            o.timeout_s = std::atof(argv[++i]);
        } else if (a == "--wireup" && i + 1 < argc) {
            std::string w = argv[++i];
            if (w != "dir" && w != "drd") usage("--wireup takes dir or drd");
            o.drd = w == "drd";
        } else {
            usage(("unknown option " + a).c_str());
        }
    }
    if (o.np < 1) usage("-np must be at least 1");
    if (i >= argc) usage("no program given");
    for (; i < argc; ++i) o.program.push_back(argv[i]);
    o.program.push_back(nullptr);
    return o;
}

struct Rank {
    pid_t pid = -1;
    bool running = false;
};

// Each rank leads its own process group, so whatever it started dies with it.
void kill_all(std::vector<Rank> &ranks, int sig) {
    for (auto &r : ranks)
        if (r.running) kill(-r.pid, sig);
}

// Reaps every rank still running after they were killed.
void reap_all(std::vector<Rank> &ranks) {
    for (auto &r : ranks) {
        if (!r.running) continue;
        int st;
        while (waitpid(r.pid, &st, 0) < 0 && errno == EINTR) {}
        r.running = false;
    }
}

int status_code(int st) {
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

}  // namespace

int main(int argc, char **argv) {
    Options o = parse(argc, argv);

    char tmpl[] = "/tmp/ftmpi-job-XXXXXX";
    const char *dir = mkdtemp(tmpl);
    if (!dir) {
        std::perror("ftmpi_test_launcher: mkdtemp");
        return 2;
    }
    const std::string job = std::to_string(getpid());
    const std::string wireup = o.drd ? std::string("drd:") : std::string("dir:") + dir;

    // SIGCHLD, SIGINT and SIGTERM are taken with sigtimedwait, so the launcher
    // sleeps until something happens or the deadline passes.
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigprocmask(SIG_BLOCK, &set, nullptr);

    std::vector<Rank> ranks(o.np);
    for (int r = 0; r < o.np; ++r) {
        pid_t pid = fork();
        if (pid < 0) {
            std::perror("ftmpi_test_launcher: fork");
            kill_all(ranks, SIGKILL);
            reap_all(ranks);
            return 2;
        }
        if (pid == 0) {
            setpgid(0, 0);
            sigprocmask(SIG_UNBLOCK, &set, nullptr);
            setenv("FTMPI_JOB", job.c_str(), 1);
            setenv("FTMPI_RANK", std::to_string(r).c_str(), 1);
            setenv("FTMPI_SIZE", std::to_string(o.np).c_str(), 1);
            setenv("FTMPI_WIREUP", wireup.c_str(), 1);
            execvp(o.program[0], o.program.data());
            std::fprintf(stderr, "ftmpi_test_launcher: cannot run %s: %s\n", o.program[0], std::strerror(errno));
            _exit(127);
        }
        setpgid(pid, pid);  // also here: no kill may come before the child's own setpgid
        ranks[r] = {pid, true};
    }

    using clock = std::chrono::steady_clock;
    const auto deadline = clock::now() + std::chrono::duration<double>(o.timeout_s);
    int running = o.np;
    int result = 0;
    while (running > 0) {
        int sig;
        if (o.timeout_s > 0) {
            auto left = deadline - clock::now();
            if (left <= clock::duration::zero()) {
                std::fprintf(stderr, "ftmpi_test_launcher: job timed out after %g s; killing %d rank(s)\n", o.timeout_s,
                             running);
                kill_all(ranks, SIGKILL);
                result = 124;
                break;
            }
            auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
            timespec ts{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
            sig = sigtimedwait(&set, nullptr, &ts);
        } else {
            sig = sigwaitinfo(&set, nullptr);
        }
        if (sig == SIGINT || sig == SIGTERM) {
            kill_all(ranks, sig);
            result = 128 + sig;
            break;
        }
        // Reap whatever ended (several children may share one SIGCHLD).
        bool failed = false;
        for (int r = 0; r < o.np; ++r) {
            if (!ranks[r].running) continue;
            int st;
            if (waitpid(ranks[r].pid, &st, WNOHANG) != ranks[r].pid) continue;
            ranks[r].running = false;
            --running;
            if (status_code(st) != 0 && !failed) {
                failed = true;
                result = status_code(st);
                if (WIFSIGNALED(st))
                    std::fprintf(stderr, "ftmpi_test_launcher: rank %d killed by signal %d; ending the job\n", r,
                                 WTERMSIG(st));
                else
                    std::fprintf(stderr, "ftmpi_test_launcher: rank %d exited with status %d; ending the job\n", r,
                                 WEXITSTATUS(st));
            }
        }
        if (failed) {
            kill_all(ranks, SIGKILL);
            break;
        }
    }
    reap_all(ranks);
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    return result;
}
