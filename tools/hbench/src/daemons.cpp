#include "daemons.hpp"

#include <harness/common/crypto.hpp>
#include <harness/common/spawn.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char **environ;

namespace hbench {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

std::string errno_text(const std::string &what) {
    return what + ": " + std::strerror(errno);
}

std::string tail_of(const fs::path &file, std::size_t max_bytes = 2000) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    std::string text = s.str();
    if (text.size() > max_bytes) text = "…" + text.substr(text.size() - max_bytes);
    return text;
}

void write_key(const fs::path &file) {
    std::uint8_t raw[32];
    harness::random_bytes(raw);
    std::string text = harness::to_hex(raw) + "\n";
    int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) throw std::runtime_error(errno_text("create " + file.string()));
    bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    if (!ok) throw std::runtime_error(errno_text("write " + file.string()));
}

// Settings inherited from the user's shell would point the daemons at their
// own HARNESS set-up instead of ours.
bool harness_setting(const char *entry) {
    for (const char *name : {"HARNESS_ROOT=", "HARNESS_KEY=", "HARNESS_HCORE=", "HARNESS_VM="})
        if (std::strncmp(entry, name, std::strlen(name)) == 0) return true;
    return false;
}

// Reaps pid if it has exited; true if it has.
bool exited(pid_t pid, int *status = nullptr) {
    int st = 0;
    pid_t r;
    do {
        r = ::waitpid(pid, &st, WNOHANG);
    } while (r < 0 && errno == EINTR);
    if (r == pid && status) *status = st;
    return r == pid || (r < 0 && errno == ECHILD);
}

}  // namespace

bool parse_ready_line(const std::string &line, StartedDaemon &out) {
    static const std::string prefix = "hcored ready ";
    if (line.rfind(prefix, 0) != 0) return false;
    auto unix_at = line.find(" unix=");
    if (unix_at == std::string::npos) return false;
    out.unix_socket = line.substr(unix_at + 6);
    std::istringstream fields(line.substr(prefix.size(), unix_at - prefix.size()));
    bool tcp = false, udp = false;
    for (std::string token; fields >> token;) {
        auto eq = token.find('=');
        if (eq == std::string::npos) continue;
        std::string key = token.substr(0, eq), value = token.substr(eq + 1);
        if (key == "id") out.id = value;
        if (key == "tcp" || key == "udp") {
            auto e = harness::parse_endpoint(value);
            if (!e) return false;
            (key == "tcp" ? out.tcp : out.udp) = e.value();
            (key == "tcp" ? tcp : udp) = true;
        }
    }
    out.ready_line = line;
    return tcp && udp && !out.id.empty();
}

LocalVm::LocalVm(const fs::path &hcored, const fs::path &plugins_dir, std::chrono::milliseconds ready_timeout)
    : hcored_(hcored), plugins_dir_(plugins_dir), ready_timeout_(ready_timeout) {
    if (!fs::exists(hcored_)) throw std::runtime_error("hcored not found at " + hcored_.string() + " (give --hcored)");
    if (!fs::is_directory(plugins_dir_ / "examples"))
        throw std::runtime_error("built example plugins not found in " + plugins_dir_.string());
    // /tmp itself, not $TMPDIR: Unix socket paths must stay short.
    std::string tmpl = "/tmp/hbench-XXXXXX";
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error(errno_text("mkdtemp"));
    base_ = tmpl;
    try {
        key_file_ = base_ / "vm.key";
        write_key(key_file_);
        daemons_.push_back(launch("a", {}));
        daemons_.push_back(launch("b", {"--join", daemons_[0].tcp.to_string()}));
    } catch (...) {
        stop();
        throw;
    }
}

StartedDaemon LocalVm::launch(const std::string &name, const std::vector<std::string> &extra) {
    StartedDaemon d;
    d.root = base_ / name;
    fs::create_directories(d.root / "lib");
    fs::copy(plugins_dir_, d.root / "lib", fs::copy_options::recursive | fs::copy_options::overwrite_existing);

    // No VM services: they would add consensus traffic to the timings.
    std::vector<std::string> args = {hcored_.string(), "--root",        d.root.string(), "--key",  key_file_.string(),
                                     "--listen",       "127.0.0.1:0",   "--vm",          "hbench", "--foreground",
                                     "--load",         "examples/math", "--services="};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<std::string> env;
    for (char **e = environ; *e; ++e)
        if (!harness_setting(*e)) env.emplace_back(*e);

    fs::path err_file = d.root / "hcored.stderr";
    int err_fd = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (err_fd < 0) throw std::runtime_error(errno_text("open " + err_file.string()));
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) {
        ::close(err_fd);
        throw std::runtime_error(errno_text("pipe2"));
    }
    // Its own process group (stop() ends what it forked too); dies with hbench.
    pid_t pid = -1;
    try {
        pid = harness::spawn_process(args, env, out[1], err_fd);
    } catch (...) {
        ::close(out[0]);
        throw;
    }
    d.pid = pid;
    stdout_fds_.push_back(out[0]);  // kept open: the daemon's later output goes to the pipe

    auto deadline = Clock::now() + ready_timeout_;
    std::string buffer;
    // A daemon that does not come up is killed here (it is not in daemons_ yet).
    auto fail = [&](const std::string &why) -> StartedDaemon {
        ::kill(pid, SIGKILL);
        int st;
        while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
        ::killpg(pid, SIGKILL);
        throw std::runtime_error("hcored (" + name + ") " + why + "\n  stderr:\n" + tail_of(err_file));
    };
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) return fail("printed no ready line in time");
        pollfd p{out[0], POLLIN, 0};
        int n = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 100)));
        if (n < 0 && errno != EINTR) return fail(errno_text("poll"));
        if (n > 0) {
            char buf[1024];
            ssize_t r = ::read(out[0], buf, sizeof buf);
            if (r <= 0) return fail("closed its stdout before it was ready");
            buffer.append(buf, static_cast<std::size_t>(r));
            for (std::size_t nl; (nl = buffer.find('\n')) != std::string::npos; buffer.erase(0, nl + 1))
                if (parse_ready_line(buffer.substr(0, nl), d)) return d;
        } else if (exited(pid)) {
            return fail("exited before it was ready");
        }
    }
}

void LocalVm::stop() {
    // The other way round from starting: the joiner first.
    for (auto it = daemons_.rbegin(); it != daemons_.rend(); ++it) {
        pid_t pid = it->pid;
        if (pid <= 0) continue;
        if (!exited(pid)) {
            ::kill(pid, SIGTERM);
            auto deadline = Clock::now() + 5s;
            while (!exited(pid) && Clock::now() < deadline) std::this_thread::sleep_for(5ms);
            if (!exited(pid)) {
                ::kill(pid, SIGKILL);
                int st;
                while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
            }
        }
        ::killpg(pid, SIGKILL);  // fork and service children it may have left
        it->pid = -1;
    }
    daemons_.clear();
    for (int fd : stdout_fds_) ::close(fd);
    stdout_fds_.clear();
    if (!base_.empty()) {
        const char *keep = std::getenv("HBENCH_KEEP");
        std::error_code ec;
        if (!keep || !*keep) fs::remove_all(base_, ec);
        base_.clear();
    }
}

LocalVm::~LocalVm() {
    stop();
}

}  // namespace hbench
