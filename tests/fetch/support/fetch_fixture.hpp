// Test support for the fetch tests: a private temp tree, a real nginx on a
// free loopback port serving a repository, fresh GnuPG homes with real keys,
// and publishing through the same code hpublish uses.
//
// One FetchWorld per test:
//   tmp/www          the repository nginx serves (world-readable: public data)
//   tmp/nginx        nginx's pid, logs, temp files
//   tmp/publisher    the publisher's GNUPGHOME (secret key)
//   tmp/root         the daemon's HARNESS root: gnupg/, cache/lib/, var/
#pragma once

#include <harness/common/log.hpp>
#include <harness/fetch/http_fetcher.hpp>
#include <harness/publish/publish.hpp>

#include <filesystem>
#include <string>
#include <sys/types.h>
#include <vector>

namespace fetchtest {

namespace fs = std::filesystem;

// Built test plugins: <dir>/fetchtest/{alpha,beta}.{so,json}.
fs::path plugin_dir();
fs::path webrepo_dir();

std::string read_text(const fs::path &file);
void write_text(const fs::path &file, const std::string &text);
// Public repository data must be readable by nginx's worker user.
void make_world_readable(const fs::path &dir);
// Runs argv with GNUPGHOME set (if not empty); returns the exit status.
int run(const std::vector<std::string> &argv, const fs::path &gnupghome = {}, std::string *stdout_text = nullptr);

class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    const fs::path &path() const { return path_; }

private:
    fs::path path_;
};

// A GNUPGHOME (mode 0700); its gpg-agent is killed on destruction.
class GpgHome {
public:
    explicit GpgHome(fs::path dir);
    ~GpgHome();
    GpgHome(const GpgHome &) = delete;
    GpgHome &operator=(const GpgHome &) = delete;
    const fs::path &path() const { return dir_; }
    std::string generate_key(const std::string &name);  // fingerprint
    // Imports other's public key the way hcored --import-key does.
    void import_from(const GpgHome &other, const std::string &fingerprint);
    // A gpg-agent serving this home is running (a daemon must leave none).
    bool agent_running() const;

private:
    fs::path dir_;
};

class Nginx {
public:
    Nginx(fs::path www, fs::path state);
    ~Nginx() { stop(); }
    Nginx(const Nginx &) = delete;
    Nginx &operator=(const Nginx &) = delete;
    void start();
    void stop();
    int port() const { return port_; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/"; }
    // Requests in the access log whose line contains `needle`.
    std::size_t requests(const std::string &needle) const;

private:
    fs::path www_, state_;
    int port_ = 0;
    pid_t pid_ = -1;
};

class FetchWorld {
public:
    FetchWorld();
    fs::path www() const { return tmp.path() / "www"; }
    fs::path root() const { return tmp.path() / "root"; }
    fs::path cache_lib() const { return root() / "cache" / "lib"; }

    // Publishes the named test components (alpha, beta) with the world's key.
    harness::repo::RepoIndex publish(const std::vector<std::string> &components,
                                     harness::publish::PublishOptions options = {});
    harness::publish::PublishOptions default_options() const;
    harness::FetchConfig config();
    // True when no file at all is under cache/lib (refused fetches leave none).
    bool cache_is_empty() const;

    TempDir tmp;
    harness::Logger log{"fetch-test", harness::LogLevel::debug};
    GpgHome publisher;
    GpgHome daemon_gpg;
    std::string signer;
    Nginx nginx;
};

}  // namespace fetchtest
