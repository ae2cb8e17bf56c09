// One test per threat of The Update Framework's list that applies here. Each
// refusal must say why (the message starts with the reason) and leave nothing
// in the cache.
#include "support/fetch_fixture.hpp"

#include <harness/fetch/repo_keys.hpp>

#include <doctest/doctest.h>

#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace fetchtest;

namespace {

const harness::ComponentName alpha{"fetchtest", "alpha"};

harness::Result<harness::ResolvedPlugin> fetch_with(FetchWorld &w, harness::FetchConfig config,
                                                    const harness::ComponentName &name = alpha) {
    auto fetcher = harness::make_http_fetcher(std::move(config));
    REQUIRE(fetcher.ok());
    return (*fetcher)->fetch(name, w.cache_lib());
}

// The refusal's message starts with `reason`, and the cache holds nothing.
void check_refused(FetchWorld &w, const harness::Result<harness::ResolvedPlugin> &r, const std::string &reason) {
    REQUIRE_FALSE(r.ok());
    INFO("error: " << r.error().describe());
    CHECK(r.error().message.rfind(reason, 0) == 0);
    CHECK(w.cache_is_empty());
}

void flip_byte(const fs::path &file, std::size_t offset) {
    auto bytes = read_text(file);
    REQUIRE(offset < bytes.size());
    bytes[offset] = static_cast<char>(bytes[offset] ^ 0x01);
    write_text(file, bytes);
}

// A hand-made HTTP server for what nginx will not do: a body that never ends,
// a redirect to a forbidden protocol, a connection that never answers.
class RawServer {
public:
    enum class Mode { endless, redirect_to_file, redirect_loop, silent };

    explicit RawServer(Mode mode) : mode_(mode) {
        fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        REQUIRE(::bind(fd_, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0);
        REQUIRE(::listen(fd_, 16) == 0);
        REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr *>(&a), &len) == 0);
        port_ = ntohs(a.sin_port);
        // silent: the kernel completes the handshake, nobody ever reads.
        if (mode_ != Mode::silent) thread_ = std::thread([this] { serve(); });
    }
    ~RawServer() {
        ::shutdown(fd_, SHUT_RDWR);
        ::close(fd_);
        if (thread_.joinable()) thread_.join();
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/"; }

private:
    void serve() {
        for (;;) {
            int c = ::accept(fd_, nullptr, nullptr);
            if (c < 0) return;
            char req[4096];
            (void)::recv(c, req, sizeof req, 0);
            std::string head;
            if (mode_ == Mode::endless)
                head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n";
            else if (mode_ == Mode::redirect_to_file)
                head = "HTTP/1.1 302 Found\r\nLocation: file:///etc/passwd\r\nContent-Length: 0\r\n\r\n";
            else
                head = "HTTP/1.1 302 Found\r\nLocation: " + url() +
                    "again\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
            (void)::send(c, head.data(), head.size(), MSG_NOSIGNAL);
            std::string chunk(64 * 1024, ' ');
            std::size_t sent = 0;
            while (mode_ == Mode::endless && sent < (std::size_t{1} << 30)) {  // a stop far past any bound
                ssize_t n = ::send(c, chunk.data(), chunk.size(), MSG_NOSIGNAL);
                if (n <= 0) break;
                sent += static_cast<std::size_t>(n);
            }
            ::close(c);
        }
    }

    Mode mode_;
    int fd_ = -1;
    int port_ = 0;
    std::thread thread_;
};

// Rewrites the published, signed index (as a publisher could) and re-signs it.
template <class Change>
void resign_index(FetchWorld &w, Change change) {
    auto index = harness::repo::parse_index(read_text(w.www() / "index.json"));
    REQUIRE(index.ok());
    change(*index);
    index->index_version += 1;
    REQUIRE(harness::publish::write_signed_index(w.www(), *index, w.publisher.path(), w.signer).ok());
    make_world_readable(w.www());
}

fs::path served(FetchWorld &w, const std::string &component, const std::string &ext) {
    return w.www() / "packages" / "fetchtest" / (component + "-1.0.0" + ext);
}

}  // namespace

TEST_CASE("arbitrary package: a tampered .so is refused (hash mismatch)") {
    FetchWorld w;
    w.publish({"alpha"});
    auto so = served(w, "alpha", ".so");
    flip_byte(so, read_text(so).size() / 2);  // same size, different bytes
    check_refused(w, fetch_with(w, w.config()), "hash mismatch");
}

TEST_CASE("a tampered manifest is refused (hash mismatch)") {
    FetchWorld w;
    w.publish({"alpha"});
    auto text = read_text(served(w, "alpha", ".json"));
    auto pos = text.find("3600");
    REQUIRE(pos != std::string::npos);
    text.replace(pos, 4, "9999");
    write_text(served(w, "alpha", ".json"), text);
    check_refused(w, fetch_with(w, w.config()), "hash mismatch");
}

TEST_CASE("a tampered index is refused (bad signature)") {
    FetchWorld w;
    w.publish({"alpha"});
    auto index = read_text(w.www() / "index.json");
    auto pos = index.find("\"cache_ttl_seconds\": 3600");
    REQUIRE(pos != std::string::npos);
    index.replace(pos, 25, "\"cache_ttl_seconds\": 9999");
    write_text(w.www() / "index.json", index);
    check_refused(w, fetch_with(w, w.config()), "bad signature");
}

TEST_CASE("a signature by a key not on the allowlist is refused (unknown key)") {
    FetchWorld w;
    GpgHome mallory_home(w.tmp.path() / "mallory");
    auto mallory = mallory_home.generate_key("mallory");
    auto options = w.default_options();
    options.gnupghome = mallory_home.path();
    options.signer = mallory;
    w.publish({"alpha"}, options);

    SUBCASE("key unknown to the daemon's GNUPGHOME") {
        auto r = fetch_with(w, w.config());
        check_refused(w, r, "unknown key");
        CHECK(r.error().message.find("not in the daemon's GNUPGHOME") != std::string::npos);
    }
    SUBCASE("key imported but not trusted") {
        w.daemon_gpg.import_from(mallory_home, mallory);
        auto r = fetch_with(w, w.config());
        check_refused(w, r, "unknown key");
        CHECK(r.error().message.find(mallory) != std::string::npos);
        CHECK(r.error().message.find("not among the trusted fingerprints") != std::string::npos);
    }
}

TEST_CASE("an index without signature is refused (missing signature)") {
    FetchWorld w;
    w.publish({"alpha"});
    fs::remove(w.www() / "index.json.sig");
    check_refused(w, fetch_with(w, w.config()), "missing signature");
}

TEST_CASE("rollback: an older signed index replayed is refused") {
    FetchWorld w;
    w.publish({"alpha"});
    auto old_index = read_text(w.www() / "index.json");
    auto old_sig = read_text(w.www() / "index.json.sig");
    auto index = w.publish({"alpha"});  // version 2
    REQUIRE(index.index_version == 2);
    {
        auto r = fetch_with(w, w.config());
        REQUIRE(r.ok());
    }
    fs::remove_all(w.cache_lib());

    write_text(w.www() / "index.json", old_index);  // the attacker replays version 1
    write_text(w.www() / "index.json.sig", old_sig);
    auto r = fetch_with(w, w.config());  // a new fetcher: the state is in SQLite
    check_refused(w, r, "rollback");
    CHECK(r.error().message.find("index_version 1") != std::string::npos);
}

TEST_CASE("freeze: an expired index is refused") {
    FetchWorld w;
    auto options = w.default_options();
    options.expires_in = -std::chrono::seconds(3600);
    w.publish({"alpha"}, options);
    check_refused(w, fetch_with(w, w.config()), "expired");
}

TEST_CASE("endless data: a package larger than the index says is cut off") {
    FetchWorld w;
    w.publish({"alpha"});
    SUBCASE("the served .so grew") {
        auto so = served(w, "alpha", ".so");
        write_text(so, read_text(so) + std::string(std::size_t{4} << 20, 'x'));
        check_refused(w, fetch_with(w, w.config()), "too large");
    }
    SUBCASE("the index states more than the daemon accepts") {
        auto config = w.config();
        config.max_package_bytes = 1024;
        check_refused(w, fetch_with(w, config), "too large");
    }
    SUBCASE("a server streaming an index without end") {
        RawServer endless(RawServer::Mode::endless);
        auto config = w.config();
        config.repositories = {endless.url()};
        config.max_index_bytes = 1 << 20;
        check_refused(w, fetch_with(w, config), "too large");
    }
    SUBCASE("the index itself is over max_index_bytes") {
        auto config = w.config();
        config.max_index_bytes = 256;
        check_refused(w, fetch_with(w, config), "too large");
    }
}

TEST_CASE("mix-and-match: another component's package served under this name is refused") {
    FetchWorld w;
    w.publish({"alpha", "beta"});
    // A validly signed index whose alpha entry points at beta's (intact) files.
    resign_index(w, [](harness::repo::RepoIndex &index) {
        auto *a = const_cast<harness::repo::IndexEntry *>(index.find(alpha));
        const auto *b = index.find({"fetchtest", "beta"});
        REQUIRE(a);
        REQUIRE(b);
        a->shared_object = b->shared_object;
        a->manifest = b->manifest;
    });
    auto r = fetch_with(w, w.config());
    check_refused(w, r, "mix-and-match");
    CHECK(r.error().message.find("fetchtest/beta") != std::string::npos);
}

TEST_CASE("server down: the fetch fails as unreachable") {
    FetchWorld w;
    w.publish({"alpha"});
    SUBCASE("nothing listening") {
        w.nginx.stop();
        check_refused(w, fetch_with(w, w.config()), "unreachable");
    }
    SUBCASE("a server that never answers hits the transfer timeout") {
        RawServer silent(RawServer::Mode::silent);
        auto config = w.config();
        config.repositories = {silent.url()};
        config.transfer_timeout = std::chrono::milliseconds(500);
        auto r = fetch_with(w, config);
        check_refused(w, r, "unreachable");
        CHECK(r.error().status == HARNESS_ERR_TIMEOUT);
    }
}

TEST_CASE("transport limits: only http and https, redirects bounded") {
    FetchWorld w;
    SUBCASE("a redirect to file:// is not followed") {
        RawServer server(RawServer::Mode::redirect_to_file);
        auto config = w.config();
        config.repositories = {server.url()};
        check_refused(w, fetch_with(w, config), "refused protocol");
    }
    SUBCASE("a redirect loop stops after max_redirects") {
        RawServer server(RawServer::Mode::redirect_loop);
        auto config = w.config();
        config.repositories = {server.url()};
        auto r = fetch_with(w, config);
        check_refused(w, r, "unreachable");
        CHECK(r.error().message.find("redirects") != std::string::npos);
    }
}

TEST_CASE("wrong software: another architecture or plugin ABI is refused") {
    FetchWorld w;
    w.publish({"alpha"});
    SUBCASE("architecture") {
        resign_index(w, [](harness::repo::RepoIndex &i) { i.components.at(0).arch = "s390x"; });
        check_refused(w, fetch_with(w, w.config()), "wrong architecture");
    }
    SUBCASE("ABI") {
        resign_index(w,
                     [](harness::repo::RepoIndex &i) { i.components.at(0).abi_major = HARNESS_PLUGIN_ABI_MAJOR + 1; });
        auto r = fetch_with(w, w.config());
        check_refused(w, r, "ABI mismatch");
        CHECK(r.error().status == HARNESS_ERR_ABI_MISMATCH);
    }
}

TEST_CASE("a component the index does not list is refused (not in index)") {
    FetchWorld w;
    w.publish({"alpha"});
    auto r = fetch_with(w, w.config(), {"fetchtest", "gamma"});
    check_refused(w, r, "not in index");
    CHECK(r.error().status == HARNESS_ERR_NOT_FOUND);
}

TEST_CASE("the configuration refuses short key ids and non-HTTP repositories") {
    FetchWorld w;
    auto config = w.config();
    config.trusted_fingerprints = {w.signer.substr(24)};
    CHECK_FALSE(harness::make_http_fetcher(config).ok());
    config = w.config();
    config.repositories = {"file:///etc/"};
    CHECK_FALSE(harness::make_http_fetcher(config).ok());
}

TEST_CASE("a cache directory that others can write is refused, and nothing is written into it") {
    FetchWorld w;
    w.publish({"alpha"});
    fs::create_directories(w.cache_lib() / "fetchtest");
    fs::permissions(w.cache_lib() / "fetchtest", fs::perms::owner_all | fs::perms::group_all | fs::perms::others_all);
    auto r = fetch_with(w, w.config());
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("writable by group or others") != std::string::npos);
    CHECK(w.cache_is_empty());
}
