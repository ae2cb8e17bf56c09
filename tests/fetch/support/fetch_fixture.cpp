#include "fetch_fixture.hpp"

#include <harness/fetch/repo_keys.hpp>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace fetchtest {

namespace {

[[noreturn]] void die(const std::string &what) {
    throw std::runtime_error(what);
}

template <class T>
T must(harness::Result<T> r, const std::string &what) {
    if (!r) die(what + ": " + r.error().describe());
    return std::move(r).value();
}

int free_port() {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) != 0)
        die("free_port");
    int port = ntohs(a.sin_port);
    ::close(fd);
    return port;
}

bool can_connect(int port) {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = ::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0;
    ::close(fd);
    return ok;
}

std::string replace_all(std::string s, const std::string &from, const std::string &to) {
    for (auto pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
        s.replace(pos, from.size(), to);
    return s;
}

}  // namespace

fs::path plugin_dir() {
    return FETCHTEST_PLUGIN_DIR;
}
fs::path webrepo_dir() {
    return HARNESS_WEBREPO_DIR;
}

std::string read_text(const fs::path &file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) die("cannot read " + file.string());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_text(const fs::path &file, const std::string &text) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) die("cannot write " + file.string());
}

int run(const std::vector<std::string> &argv, const fs::path &gnupghome, std::string *stdout_text) {
    std::vector<std::string> env_store;
    for (char **e = environ; *e; ++e)
        if (std::strncmp(*e, "GNUPGHOME=", 10) != 0) env_store.emplace_back(*e);
    if (!gnupghome.empty()) env_store.push_back("GNUPGHOME=" + gnupghome.string());
    std::vector<char *> envp, args;
    for (auto &e : env_store) envp.push_back(e.data());
    envp.push_back(nullptr);
    std::vector<std::string> argv_store = argv;
    for (auto &a : argv_store) args.push_back(a.data());
    args.push_back(nullptr);

    int pipefd[2] = {-1, -1};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (stdout_text) {
        if (::pipe2(pipefd, O_CLOEXEC) != 0) die("pipe");
        posix_spawn_file_actions_adddup2(&actions, pipefd[1], 1);
    }
    pid_t pid = -1;
    int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (stdout_text) {
        ::close(pipefd[1]);
        char buf[4096];
        ssize_t n;
        while ((n = ::read(pipefd[0], buf, sizeof buf)) > 0) stdout_text->append(buf, static_cast<std::size_t>(n));
        ::close(pipefd[0]);
    }
    if (rc != 0) return 127;
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void make_world_readable(const fs::path &dir) {
    constexpr auto dir_perms = fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
        fs::perms::others_read | fs::perms::others_exec;
    constexpr auto file_perms =
        fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read;
    for (const auto &e : fs::recursive_directory_iterator(dir))
        fs::permissions(e.path(), e.is_directory() ? dir_perms : file_perms);
    fs::permissions(dir, dir_perms);
}

TempDir::TempDir() {
    char templ[] = "/tmp/hfetch-XXXXXX";
    if (!::mkdtemp(templ)) die("mkdtemp");
    path_ = templ;
    // Traversable (not listable) by nginx's worker user; the private parts
    // below stay 0700.
    fs::permissions(path_, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
}

TempDir::~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
}

GpgHome::GpgHome(fs::path dir) : dir_(std::move(dir)) {
    fs::create_directories(dir_);
    fs::permissions(dir_, fs::perms::owner_all);
}

bool GpgHome::agent_running() const {
    // gpg-agent runs as "gpg-agent --homedir <dir> …"; look for ours in /proc.
    std::error_code ec;
    for (const auto &e : fs::directory_iterator("/proc", ec)) {
        // Read with plain read(2): a process that exits mid-scan makes the
        // read fail with ESRCH, which a std::ifstream turns into an exception.
        std::string cmd;
        int fd = ::open((e.path() / "cmdline").c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        char buf[4096];
        for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) cmd.append(buf, static_cast<size_t>(n));
        ::close(fd);
        for (auto &c : cmd)
            if (c == '\0') c = ' ';
        if (cmd.find("gpg-agent") != std::string::npos && cmd.find(" " + dir_.string() + " ") != std::string::npos)
            return true;
    }
    return false;
}

GpgHome::~GpgHome() {
    run({"gpgconf", "--kill", "all"}, dir_);
}

std::string GpgHome::generate_key(const std::string &name) {
    return must(harness::repo::generate_signing_key(dir_, name + " <" + name + "@example.org>"), "keygen");
}

void GpgHome::import_from(const GpgHome &other, const std::string &fingerprint) {
    auto key = must(harness::repo::export_public_key(other.path(), fingerprint), "export");
    fs::path file = dir_.parent_path() / (fingerprint + ".asc");
    write_text(file, key);
    must(harness::import_daemon_key(dir_, file), "import");
}

Nginx::Nginx(fs::path www, fs::path state) : www_(std::move(www)), state_(std::move(state)) {}

void Nginx::start() {
    fs::create_directories(state_);
    fs::permissions(state_, fs::perms::owner_all);
    port_ = free_port();
    auto conf = read_text(webrepo_dir() / "nginx.conf.in");
    conf = replace_all(conf, "@PORT@", std::to_string(port_));
    conf = replace_all(conf, "@ROOT@", www_.string());
    conf = replace_all(conf, "@STATE@", state_.string());
    write_text(state_ / "nginx.conf", conf);
    std::vector<std::string> argv = {"/usr/sbin/nginx",
                                     "-p",
                                     state_.string(),
                                     "-c",
                                     (state_ / "nginx.conf").string(),
                                     "-e",
                                     (state_ / "error.log").string()};
    std::vector<char *> args;
    for (auto &a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    if (posix_spawn(&pid_, args[0], nullptr, nullptr, args.data(), environ) != 0) die("cannot start nginx");
    for (int i = 0; i < 500; ++i) {
        if (can_connect(port_)) return;
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            die("nginx exited at start: " + read_text(state_ / "error.log"));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    die("nginx did not start listening on port " + std::to_string(port_));
}

void Nginx::stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
}

std::size_t Nginx::requests(const std::string &needle) const {
    std::ifstream in(state_ / "access.log");
    std::size_t n = 0;
    for (std::string line; std::getline(in, line);)
        if (line.find(needle) != std::string::npos) ++n;
    return n;
}

FetchWorld::FetchWorld()
    : publisher(tmp.path() / "publisher"), daemon_gpg(tmp.path() / "root" / "gnupg"),
      nginx(tmp.path() / "www", tmp.path() / "nginx") {
    fs::permissions(root(), fs::perms::owner_all);
    fs::create_directories(www());
    signer = publisher.generate_key("publisher");
    daemon_gpg.import_from(publisher, signer);
    nginx.start();
}

harness::publish::PublishOptions FetchWorld::default_options() const {
    harness::publish::PublishOptions o;
    o.repo_dir = www();
    o.gnupghome = publisher.path();
    o.signer = signer;
    o.repository_name = "fetchtest";
    return o;
}

harness::repo::RepoIndex FetchWorld::publish(const std::vector<std::string> &components,
                                             harness::publish::PublishOptions options) {
    if (options.repo_dir.empty()) options = default_options();
    std::vector<harness::publish::PluginFiles> files;
    for (const auto &c : components)
        files.push_back({plugin_dir() / "fetchtest" / (c + ".so"), plugin_dir() / "fetchtest" / (c + ".json")});
    auto index = must(harness::publish::publish(options, files), "publish");
    make_world_readable(www());
    return index;
}

harness::FetchConfig FetchWorld::config() {
    harness::FetchConfig c;
    c.repositories = {nginx.url()};
    c.trusted_fingerprints = {signer};
    c.gnupghome = daemon_gpg.path();
    c.state_db = root() / "var" / "repositories.db";
    c.connect_timeout = std::chrono::milliseconds(2000);
    c.transfer_timeout = std::chrono::milliseconds(10000);
    c.log = &log;
    return c;
}

bool FetchWorld::cache_is_empty() const {
    std::error_code ec;
    if (!fs::exists(cache_lib(), ec)) return true;
    for (const auto &e : fs::recursive_directory_iterator(cache_lib()))
        if (!e.is_directory()) return false;
    return true;
}

}  // namespace fetchtest
