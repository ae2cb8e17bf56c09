// The raft port only talks to peers that hold the VM key: a peer with the
// wrong key, or one that sends garbage, is refused and logged, and the
// cluster keeps working.
#include "drd_vm.hpp"
#include "raft_auth.hpp"

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace harness;
using namespace harness::drd;
using namespace harness::drd::test;
using namespace std::chrono_literals;

namespace {

// A blocking loopback connection with a receive timeout.
struct Socket {
    int fd = -1;
    explicit Socket(const Endpoint &ep) {
        fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(ep.port);
        ::inet_pton(AF_INET, ep.host.c_str(), &a.sin_addr);
        REQUIRE(::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0);
        timeval tv{5, 0};
        ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    }
    ~Socket() { ::close(fd); }
    void send_all(const std::uint8_t *p, std::size_t n) {
        REQUIRE(::send(fd, p, n, MSG_NOSIGNAL) == static_cast<ssize_t>(n));
    }
    // Bytes read until n or EOF.
    std::size_t recv_some(std::uint8_t *p, std::size_t n) {
        std::size_t got = 0;
        while (got < n) {
            ssize_t r = ::recv(fd, p + got, n - got, 0);
            if (r <= 0) break;
            got += static_cast<std::size_t>(r);
        }
        return got;
    }
};

Endpoint raft_endpoint(DrdClient &c) {
    auto reply = c.call("raft_info", {});
    REQUIRE(reply.ok());
    Unpacker u(*reply);
    std::int64_t id = 0;
    std::string address;
    REQUIRE(u.i64(id));
    REQUIRE(u.str(address));
    auto ep = parse_endpoint(address);
    REQUIRE(ep.ok());
    return *ep;
}

// The handshake's first step as a raft client: a hello with a fresh nonce,
// and the server's hello back.
struct Hellos {
    auth::ClientHello client{};
    auth::ServerHello server{};
};
Hellos exchange_hellos(Socket &s) {
    Nonce n{};
    random_bytes(n);
    Hellos h{auth::make_client_hello(n)};
    s.send_all(h.client.data(), h.client.size());
    REQUIRE(s.recv_some(h.server.data(), h.server.size()) == h.server.size());
    return h;
}

// Plays a raft client holding `key` up to the server's verdict: true when the
// server accepted (sent its OK byte), false when it closed on us.
bool try_handshake(const Endpoint &ep, const VmKey &key) {
    Socket s(ep);
    const auto [hello, reply] = exchange_hellos(s);
    auto c2 = auth::make_client_auth(key, hello, reply, 999999, "127.0.0.1:1");
    REQUIRE(c2.ok());
    s.send_all(c2->data(), c2->size());
    std::uint8_t ok = 0;
    return s.recv_some(&ok, 1) == 1 && ok == 1;
}

}  // namespace

TEST_CASE("raft connections without the VM key are refused and logged") {
    DrdVm vm;
    vm.start_daemon();
    vm.start_daemon();
    REQUIRE_MESSAGE(vm.wait_formed(2, 0, 20s), vm.daemon(0).stderr_tail());
    auto c = vm.client(0);
    Endpoint ep = raft_endpoint(c);

    // The server proves itself with the VM key; a client without it cannot
    // verify that proof...
    {
        Socket s(ep);
        const auto [hello, reply] = exchange_hellos(s);
        VmKey wrong{Bytes(32, 0x5a)};
        CHECK(auth::answer_server_hello(wrong, hello, reply, 0, 1, "x").error().status == HARNESS_ERR_AUTH);
        CHECK(auth::answer_server_hello(vm.key(), hello, reply, 0, 1, "x").ok());
    }
    // ...and the server refuses a client that cannot prove it.
    CHECK_FALSE(try_handshake(ep, VmKey{Bytes(32, 0x5a)}));
    CHECK(harness::test::wait_until(
        [&] { return vm.daemon(0).stderr_text().find("refused raft connection") != std::string::npos; }, 5s));
    // Not our protocol at all.
    {
        Socket s(ep);
        std::string junk = "GET / HTTP/1.1\r\nHost: x\r\n\r\n0123456789abcdef";
        s.send_all(reinterpret_cast<const std::uint8_t *>(junk.data()), junk.size());
        std::uint8_t buf[128];
        CHECK(s.recv_some(buf, sizeof buf) == 0);  // closed without an answer
    }
    CHECK(harness::test::wait_until([&] { return vm.daemon(0).stderr_text().find("bad magic") != std::string::npos; },
                                    5s));
    // The control: the real key is accepted (then the connection closes,
    // since raft has no server 999999).
    CHECK(try_handshake(ep, vm.key()));

    // The cluster still works.
    auto other = vm.client(1);
    CHECK(other.put("a/after", "attack").ok());
    auto f = c.get("a/after", true);
    REQUIRE(f.ok());
    CHECK(f->value == "attack");
}
