#include "daemon_fixture.hpp"

#include <harness/common/crypto.hpp>
#include <harness/common/spawn.hpp>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char **environ;

namespace harness::test {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

std::string errno_text(const char *what) {
    return std::string(what) + ": " + std::strerror(errno);
}

bool keep_temp_dirs() {
    const char *v = std::getenv("HARNESS_TEST_KEEP");
    return v && *v && std::string(v) != "0";
}

// Binds a socket of the given type to host:port; returns the bound port or 0.
std::uint16_t bind_port(int type, const std::string &host, std::uint16_t port) {
    int fd = ::socket(AF_INET, type | SOCK_CLOEXEC, 0);
    if (fd < 0) return 0;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    if (::inet_pton(AF_INET, host.c_str(), &a.sin_addr) != 1) {
        ::close(fd);
        return 0;
    }
    std::uint16_t bound = 0;
    socklen_t len = sizeof a;
    if (::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) == 0)
        bound = ntohs(a.sin_port);
    ::close(fd);
    return bound;
}

std::string join_command(const std::vector<std::string> &argv) {
    std::string s;
    for (const auto &a : argv) s += (s.empty() ? "" : " ") + a;
    return s;
}

// Environment variables that would point the daemon at the developer's own
// HARNESS setup instead of the test's.
bool inherited_harness_setting(const char *entry) {
    for (const char *name : {"HARNESS_ROOT=", "HARNESS_KEY=", "HARNESS_HCORE=", "HARNESS_VM=", "HARNESS_PLUGIN_PATH=",
                             "HARNESS_SERVICES="})
        if (std::strncmp(entry, name, std::strlen(name)) == 0) return true;
    return false;
}

std::string read_file(const fs::path &file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

// ---------------------------------------------------------------- helpers

TempDir::TempDir(const std::string &prefix) {
    // /tmp directly rather than $TMPDIR: Unix socket paths must stay short.
    std::string tmpl = "/tmp/" + prefix + "-XXXXXX";
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error(errno_text("mkdtemp"));
    path_ = tmpl;
}

TempDir::~TempDir() {
    if (keep_temp_dirs()) return;
    std::error_code ec;
    fs::remove_all(path_, ec);
}

std::uint16_t free_port(const std::string &host) {
    for (int attempt = 0; attempt < 50; ++attempt) {
        std::uint16_t port = bind_port(SOCK_STREAM, host, 0);
        if (port != 0 && bind_port(SOCK_DGRAM, host, port) == port) return port;
    }
    throw std::runtime_error("no free TCP+UDP port on " + host);
}

fs::path write_vm_key(const fs::path &file) {
    if (file.has_parent_path()) fs::create_directories(file.parent_path());
    std::uint8_t raw[32];
    random_bytes(raw);
    std::string text = to_hex(raw) + "\n";
    fs::path tmp = file;
    tmp += ".tmp";
    ::unlink(tmp.c_str());
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) throw std::runtime_error(errno_text(("create " + tmp.string()).c_str()));
    bool ok = ::fchmod(fd, 0600) == 0 && ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    // rename: daemons reading the key never see a half-written file.
    if (!ok || ::rename(tmp.c_str(), file.c_str()) != 0)
        throw std::runtime_error(errno_text(("write " + file.string()).c_str()));
    return file;
}

fs::path built_plugins_dir() {
#ifdef HARNESS_PLUGINS_DIR
    return HARNESS_PLUGINS_DIR;
#else
    return {};
#endif
}

fs::path hcored_path() {
#ifdef HCORED_PATH
    return HCORED_PATH;
#else
    return {};
#endif
}

void install_example_plugins(const fs::path &root) {
    fs::path from = built_plugins_dir();
    if (from.empty() || !fs::is_directory(from))
        throw std::runtime_error("built plugins not found at \"" + from.string() + "\" (build examples_plugins)");
    fs::create_directories(root / "lib");
    fs::copy(from, root / "lib", fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

bool wait_until(const std::function<bool()> &predicate, std::chrono::milliseconds timeout) {
    auto deadline = Clock::now() + timeout;
    for (;;) {
        if (predicate()) return true;
        if (Clock::now() >= deadline) return false;
        std::this_thread::sleep_for(10ms);
    }
}

std::optional<ReadyInfo> parse_ready_line(const std::string &line) {
    static const std::string prefix = "hcored ready ";
    if (line.rfind(prefix, 0) != 0) return std::nullopt;
    ReadyInfo r;
    r.line = line;
    // unix= is the last field; its path runs to the end of the line.
    auto unix_at = line.find(" unix=");
    if (unix_at == std::string::npos || unix_at + 6 >= line.size()) return std::nullopt;
    r.unix_socket = line.substr(unix_at + 6);
    std::istringstream fields(line.substr(prefix.size(), unix_at - prefix.size()));
    bool have_tcp = false, have_udp = false;
    for (std::string token; fields >> token;) {
        auto eq = token.find('=');
        if (eq == std::string::npos) continue;
        std::string key = token.substr(0, eq), value = token.substr(eq + 1);
        if (key == "vm") {
            r.vm = value;
        } else if (key == "id") {
            r.id = value;
        } else if (key == "tcp" || key == "udp") {
            auto e = parse_endpoint(value);
            if (!e) return std::nullopt;
            (key == "tcp" ? r.tcp : r.udp) = e.value();
            (key == "tcp" ? have_tcp : have_udp) = true;
        }
    }
    if (r.vm.empty() || r.id.empty() || !have_tcp || !have_udp) return std::nullopt;
    return r;
}

// ----------------------------------------------------------------- Daemon

std::unique_ptr<Daemon> Daemon::start(DaemonOptions options) {
    fs::path binary = options.binary.empty() ? hcored_path() : options.binary;
    if (binary.empty()) throw std::runtime_error("hcored was not built (no HCORED_PATH); cannot start a daemon");
    options.binary = binary;
    if (options.netns.empty() && ::access(binary.c_str(), X_OK) != 0)
        throw std::runtime_error("cannot run " + binary.string() + ": " + std::strerror(errno) +
                                 (binary == hcored_path() ? " (did the hcored build fail?)" : ""));

    std::unique_ptr<TempDir> owned;
    if (options.root.empty()) {
        owned = std::make_unique<TempDir>("hcored");
        options.root = owned->path();
    }
    fs::create_directories(options.root);
    if (options.install_examples) install_example_plugins(options.root);

    // A port picked here can be taken by someone else before hcored binds it;
    // then try again with another one.
    const int attempts = options.port ? 1 : 3;
    for (int attempt = 1;; ++attempt) {
        std::uint16_t port = options.port ? *options.port : free_port(options.host);
        std::unique_ptr<Daemon> d(new Daemon());
        d->root_ = options.root;
        d->stop_timeout_ = options.stop_timeout;
        d->key_file_ = options.key_file.empty() ? options.root / "vm.key" : options.key_file;
        d->launch(options, port);

        // Wait for the ready line, the end of stdout, or the deadline.
        auto deadline = Clock::now() + options.ready_timeout;
        std::optional<ReadyInfo> ready;
        bool exited = false;
        {
            std::unique_lock lock(d->mutex_);
            std::size_t seen = 0;
            while (!ready) {
                for (; seen < d->lines_.size() && !ready; ++seen) ready = parse_ready_line(d->lines_[seen]);
                if (ready || d->stdout_closed_ || Clock::now() >= deadline) break;
                d->changed_.wait_for(lock, 50ms);
                lock.unlock();
                exited = !d->running();
                lock.lock();
                if (exited) {
                    // Take what it printed before exiting, then give up.
                    for (; seen < d->lines_.size() && !ready; ++seen) ready = parse_ready_line(d->lines_[seen]);
                    break;
                }
            }
        }
        if (ready) {
            d->ready_ = std::move(*ready);
            d->owned_root_ = std::move(owned);
            return d;
        }
        // Closed stdout usually means it is on its way out: give it a moment
        // so the error says "exited" with its status rather than "timed out".
        bool closed = [&] {
            std::lock_guard lock(d->mutex_);
            return d->stdout_closed_;
        }();
        if (closed && !exited) wait_until([&] { return !d->running(); }, 1000ms);
        bool timed_out = d->running();
        d->kill_hard();
        std::string tail = d->stderr_tail();
        if (!timed_out && attempt < attempts && tail.find("in use") != std::string::npos) continue;
        std::string why = timed_out
            ? "printed no ready line within " + std::to_string(options.ready_timeout.count()) + " ms"
            : "exited before it was ready (wait status " + std::to_string(d->status_.value_or(-1)) + ")";
        throw std::runtime_error("hcored " + why + "\n  command: " + join_command(d->argv_) + "\n  stderr (" +
                                 d->stderr_file().string() + "):\n" + tail);
    }
}

void Daemon::launch(const DaemonOptions &options, std::uint16_t port) {
    if (!options.netns.empty()) argv_ = {"ip", "netns", "exec", options.netns};
    argv_.insert(argv_.end(),
                 {options.binary.string(), "--root", options.root.string(), "--listen",
                  options.host + ":" + std::to_string(port), "--vm", options.vm, "--foreground",
                  "--services=" + options.services});
    if (!options.key_file.empty()) argv_.insert(argv_.end(), {"--key", options.key_file.string()});
    argv_.insert(argv_.end(), options.extra_args.begin(), options.extra_args.end());

    std::vector<std::string> env;
    for (char **e = environ; *e; ++e)
        if (!inherited_harness_setting(*e)) env.emplace_back(*e);
    env.insert(env.end(), options.env.begin(), options.env.end());

    int err_fd = ::open(stderr_file().c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (err_fd < 0) throw std::runtime_error(errno_text(("open " + stderr_file().string()).c_str()));
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(wake_fd_, O_CLOEXEC) != 0) {
        ::close(err_fd);
        throw std::runtime_error(errno_text("pipe2"));
    }
    // Its own process group, so stop() can also end handlers hcored forked;
    // it dies with the test process, so a crashed test leaves no daemons.
    try {
        pid_ = spawn_process(argv_, env, out[1], err_fd);
    } catch (...) {
        ::close(out[0]);
        throw;
    }
    stdout_fd_ = out[0];
    reader_ = std::thread([this] { read_stdout(); });
}

void Daemon::read_stdout() {
    std::string partial;
    char buf[4096];
    for (;;) {
        pollfd fds[2] = {{stdout_fd_, POLLIN, 0}, {wake_fd_[0], POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (fds[1].revents) break;
        ssize_t n = ::read(stdout_fd_, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        partial.append(buf, static_cast<std::size_t>(n));
        std::lock_guard lock(mutex_);
        for (std::size_t nl; (nl = partial.find('\n')) != std::string::npos; partial.erase(0, nl + 1))
            lines_.push_back(partial.substr(0, nl));
        changed_.notify_all();
    }
    std::lock_guard lock(mutex_);
    if (!partial.empty()) lines_.push_back(partial);
    stdout_closed_ = true;
    changed_.notify_all();
}

void Daemon::reap(bool block) {
    if (status_ || pid_ <= 0) return;
    int status = 0;
    pid_t r;
    do {
        r = ::waitpid(pid_, &status, block ? 0 : WNOHANG);
    } while (r < 0 && errno == EINTR);
    if (r == pid_) {
        status_ = status;
        // Whatever hcored forked and left behind goes with it.
        ::killpg(pid_, SIGKILL);
    } else if (r < 0) {
        status_ = -1;  // not our child any more
    }
}

bool Daemon::running() {
    reap(false);
    return !status_;
}

int Daemon::stop() {
    if (running()) {
        ::kill(pid_, SIGTERM);
        if (!wait_until([this] { return !running(); }, stop_timeout_)) {
            ::kill(pid_, SIGKILL);
            reap(true);
        }
    }
    return status_.value_or(-1);
}

void Daemon::kill_hard() {
    if (!running()) return;
    ::kill(pid_, SIGKILL);
    reap(true);
}

void Daemon::signal(int sig) {
    if (running()) ::kill(pid_, sig);
}

void Daemon::stop_reader() {
    if (reader_.joinable()) {
        char b = 1;
        ssize_t ignored = ::write(wake_fd_[1], &b, 1);
        (void)ignored;
        reader_.join();
    }
    for (int *fd : {&stdout_fd_, &wake_fd_[0], &wake_fd_[1]})
        if (*fd >= 0) {
            ::close(*fd);
            *fd = -1;
        }
}

Daemon::~Daemon() {
    // A stopped (SIGSTOP) daemon would ignore SIGTERM until continued.
    signal(SIGCONT);
    stop();
    stop_reader();
}

std::string Daemon::stderr_text() const {
    return read_file(stderr_file());
}

std::string Daemon::stderr_tail(std::size_t max_bytes) const {
    std::string text = stderr_text();
    if (text.size() <= max_bytes) return text;
    text.erase(0, text.size() - max_bytes);
    auto nl = text.find('\n');
    if (nl != std::string::npos && nl + 1 < text.size()) text.erase(0, nl + 1);
    return "…\n" + text;
}

std::vector<std::string> Daemon::stdout_lines() const {
    std::lock_guard lock(mutex_);
    return lines_;
}

bool Daemon::wait_for_stdout(const std::string &text, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    bool found = false;
    changed_.wait_for(lock, timeout, [&] {
        for (const auto &l : lines_)
            if (l.find(text) != std::string::npos) found = true;
        return found || stdout_closed_;
    });
    return found;
}

}  // namespace harness::test
