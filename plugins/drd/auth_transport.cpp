#include "auth_transport.hpp"

#include "raft_auth.hpp"

#include <harness/common/endpoint.hpp>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <set>
#include <thread>

#include <sys/socket.h>
#include <unistd.h>

namespace harness::drd {

namespace {

struct Handshake;

struct Transport {
    uv_loop_t *loop = nullptr;
    raft_uv_transport *t = nullptr;
    AuthTransportOptions options;
    raft_id id = 0;
    std::string address;
    uv_tcp_t listener{};
    bool bound = false;
    raft_uv_accept_cb accept_cb = nullptr;
    std::set<Handshake *> handshakes;
    bool closing = false;
    int open_handles = 0;  // listener + handshake handles not yet closed
    raft_uv_transport_close_cb close_cb = nullptr;

    void log(int level, const std::string &m) const {
        if (options.log) options.log(level, m);
    }
    void handle_closed() {
        if (--open_handles == 0 && closing && close_cb) {
            auto cb = close_cb;
            close_cb = nullptr;
            cb(t);
        }
    }
};

using Step = void (*)(Handshake *);

// One connection being authenticated, either side.
struct Handshake {
    Transport *tr = nullptr;
    bool client = false;
    raft_uv_connect *req = nullptr;
    raft_uv_connect_cb connect_cb = nullptr;
    raft_id peer_id = 0;
    std::string peer;          // for log lines
    uv_tcp_t *sock = nullptr;  // raft_malloc'd: raft frees it after closing
    uv_timer_t timer{};
    uv_connect_t connect_req{};
    uv_write_t write_req{};
    Nonce nonce{};
    auth::ClientHello c1{};
    auth::ServerHello s1{};
    auth::ClientAuth c2{};
    std::uint8_t s2 = 0;
    std::uint8_t out[auth::kClientAuthSize]{};
    std::uint8_t *want_buf = nullptr;
    std::size_t want = 0;
    std::size_t got = 0;
    Step next = nullptr;
    bool finished = false;
    int handles = 0;
    std::string deferred_failure;
};

void handshake_handle_closed(uv_handle_t *h) {
    auto *hs = static_cast<Handshake *>(h->data);
    Transport *tr = hs->tr;
    if (h == reinterpret_cast<uv_handle_t *>(hs->sock)) {
        raft_free(hs->sock);
        hs->sock = nullptr;
    }
    if (--hs->handles == 0) delete hs;
    tr->handle_closed();
}

void finish_handles(Handshake *hs, bool close_socket) {
    hs->tr->handshakes.erase(hs);
    uv_timer_stop(&hs->timer);
    uv_close(reinterpret_cast<uv_handle_t *>(&hs->timer), handshake_handle_closed);
    if (close_socket) {
        uv_close(reinterpret_cast<uv_handle_t *>(hs->sock), handshake_handle_closed);
    } else {
        // The socket now belongs to raft: it closes and frees it.
        hs->sock->data = nullptr;
        hs->sock = nullptr;
        --hs->handles;
        hs->tr->handle_closed();
    }
}

void fail(Handshake *hs, const std::string &reason, int status = RAFT_NOCONNECTION) {
    if (hs->finished) return;
    hs->finished = true;
    if (hs->client) {
        hs->tr->log(0, "drd: raft connection to " + hs->peer + " failed: " + reason);
        hs->connect_cb(hs->req, nullptr, status);
    } else {
        hs->tr->log(2, "drd: refused raft connection from " + hs->peer + ": " + reason);
    }
    uv_read_stop(reinterpret_cast<uv_stream_t *>(hs->sock));
    finish_handles(hs, true);
}

void succeed(Handshake *hs, const auth::Peer &peer) {
    if (hs->finished) return;
    hs->finished = true;
    uv_read_stop(reinterpret_cast<uv_stream_t *>(hs->sock));
    auto *stream = reinterpret_cast<uv_stream_t *>(hs->sock);
    Transport *tr = hs->tr;
    bool client = hs->client;
    raft_uv_connect *req = hs->req;
    raft_uv_connect_cb cb = hs->connect_cb;
    finish_handles(hs, false);  // hs may be gone once its timer closes; use copies
    if (client)
        cb(req, stream, 0);
    else if (tr->accept_cb)
        tr->accept_cb(tr->t, peer.id, peer.address.c_str(), stream);
    else
        uv_close(reinterpret_cast<uv_handle_t *>(stream), [](uv_handle_t *h) { raft_free(h); });
}

void on_alloc(uv_handle_t *h, std::size_t, uv_buf_t *buf) {
    auto *hs = static_cast<Handshake *>(h->data);
    // Exactly what the current message still needs: never read past it into
    // the raft traffic that follows.
    buf->base = reinterpret_cast<char *>(hs->want_buf + hs->got);
    buf->len = hs->want - hs->got;
}

void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *) {
    auto *hs = static_cast<Handshake *>(s->data);
    if (hs->finished) return;
    if (n < 0)
        return fail(hs, n == UV_EOF ? "closed by the peer during authentication" : uv_strerror(static_cast<int>(n)));
    hs->got += static_cast<std::size_t>(n);
    if (hs->got < hs->want) return;
    uv_read_stop(s);
    hs->next(hs);
}

void read_exact(Handshake *hs, std::uint8_t *buf, std::size_t n, Step next) {
    hs->want_buf = buf;
    hs->want = n;
    hs->got = 0;
    hs->next = next;
    int rv = uv_read_start(reinterpret_cast<uv_stream_t *>(hs->sock), on_alloc, on_read);
    if (rv != 0) fail(hs, std::string("read: ") + uv_strerror(rv));
}

void on_written(uv_write_t *w, int status) {
    auto *hs = static_cast<Handshake *>(w->data);
    if (hs->finished) return;
    if (status < 0) return fail(hs, std::string("write: ") + uv_strerror(status));
    hs->next(hs);
}

void write_then(Handshake *hs, const std::uint8_t *data, std::size_t n, Step next) {
    std::memcpy(hs->out, data, n);
    hs->next = next;
    hs->write_req.data = hs;
    uv_buf_t b = uv_buf_init(reinterpret_cast<char *>(hs->out), static_cast<unsigned>(n));
    int rv = uv_write(&hs->write_req, reinterpret_cast<uv_stream_t *>(hs->sock), &b, 1, on_written);
    if (rv != 0) fail(hs, std::string("write: ") + uv_strerror(rv));
}

// ---- client side: C1 → S1 → C2 → S2
void client_got_ok(Handshake *hs) {
    if (hs->s2 != 1) return fail(hs, "the raft peer refused us");
    succeed(hs, {});
}
void client_sent_auth(Handshake *hs) {
    read_exact(hs, &hs->s2, 1, client_got_ok);
}
void client_got_server_hello(Handshake *hs) {
    auto a = auth::answer_server_hello(hs->tr->options.key, hs->c1, hs->s1, hs->peer_id, hs->tr->id, hs->tr->address);
    if (!a) return fail(hs, a.error().message);
    hs->c2 = *a;
    write_then(hs, hs->c2.data(), hs->c2.size(), client_sent_auth);
}
void client_sent_hello(Handshake *hs) {
    read_exact(hs, hs->s1.data(), hs->s1.size(), client_got_server_hello);
}
void on_connected(uv_connect_t *c, int status) {
    auto *hs = static_cast<Handshake *>(c->data);
    if (hs->finished) return;
    if (status < 0) return fail(hs, uv_strerror(status));
    uv_tcp_nodelay(hs->sock, 1);
    random_bytes(hs->nonce);
    hs->c1 = auth::make_client_hello(hs->nonce);
    write_then(hs, hs->c1.data(), hs->c1.size(), client_sent_hello);
}

// ---- server side
void server_sent_ok(Handshake *hs) {
    auth::Peer peer;
    peer.id = harness_get_le(hs->c2.data(), 8);
    const char *text = reinterpret_cast<const char *>(hs->c2.data() + 8);
    peer.address.assign(text, strnlen(text, auth::kAddressField));
    succeed(hs, peer);
}
void server_got_auth(Handshake *hs) {
    auto peer = auth::check_client_auth(hs->tr->options.key, hs->c1, hs->s1, hs->c2);
    if (!peer) return fail(hs, peer.error().message);
    std::uint8_t ok = 1;
    write_then(hs, &ok, 1, server_sent_ok);
}
void server_sent_hello(Handshake *hs) {
    read_exact(hs, hs->c2.data(), hs->c2.size(), server_got_auth);
}
void server_got_hello(Handshake *hs) {
    random_bytes(hs->nonce);
    auto s1 = auth::answer_client_hello(hs->tr->options.key, hs->c1, hs->tr->id, hs->nonce);
    if (!s1) return fail(hs, s1.error().message);
    hs->s1 = *s1;
    write_then(hs, hs->s1.data(), hs->s1.size(), server_sent_hello);
}

void on_timeout(uv_timer_t *timer) {
    auto *hs = static_cast<Handshake *>(timer->data);
    fail(hs, hs->deferred_failure.empty() ? "authentication timed out" : hs->deferred_failure);
}

Handshake *new_handshake(Transport *tr, bool client) {
    auto *hs = new Handshake();
    hs->tr = tr;
    hs->client = client;
    hs->sock = static_cast<uv_tcp_t *>(raft_malloc(sizeof(uv_tcp_t)));
    if (!hs->sock) {
        delete hs;
        return nullptr;
    }
    uv_tcp_init(tr->loop, hs->sock);
    uv_timer_init(tr->loop, &hs->timer);
    hs->sock->data = hs;
    hs->timer.data = hs;
    hs->connect_req.data = hs;
    hs->handles = 2;
    tr->open_handles += 2;
    tr->handshakes.insert(hs);
    uv_timer_start(&hs->timer, on_timeout, static_cast<std::uint64_t>(tr->options.handshake_timeout.count()), 0);
    return hs;
}

std::string peer_name(uv_tcp_t *sock) {
    sockaddr_storage ss{};
    int len = sizeof ss;
    char host[64] = "?";
    int port = 0;
    if (uv_tcp_getpeername(sock, reinterpret_cast<sockaddr *>(&ss), &len) == 0) {
        if (ss.ss_family == AF_INET) {
            auto *in = reinterpret_cast<sockaddr_in *>(&ss);
            uv_ip4_name(in, host, sizeof host);
            port = ntohs(in->sin_port);
        } else if (ss.ss_family == AF_INET6) {
            auto *in6 = reinterpret_cast<sockaddr_in6 *>(&ss);
            uv_ip6_name(in6, host, sizeof host);
            port = ntohs(in6->sin6_port);
        }
    }
    return std::string(host) + ":" + std::to_string(port);
}

void on_connection(uv_stream_t *listener, int status) {
    auto *tr = static_cast<Transport *>(listener->data);
    if (status < 0 || tr->closing) return;
    Handshake *hs = new_handshake(tr, false);
    if (!hs) return;
    if (uv_accept(listener, reinterpret_cast<uv_stream_t *>(hs->sock)) != 0) return fail(hs, "accept failed");
    uv_tcp_nodelay(hs->sock, 1);
    hs->peer = peer_name(hs->sock);
    read_exact(hs, hs->c1.data(), hs->c1.size(), server_got_hello);
}

int resolve(const std::string &address, sockaddr_storage *out) {
    auto ep = parse_endpoint(address);
    if (!ep) return RAFT_INVALID;
    if (uv_ip4_addr(ep->host.c_str(), ep->port, reinterpret_cast<sockaddr_in *>(out)) == 0) return 0;
    if (uv_ip6_addr(ep->host.c_str(), ep->port, reinterpret_cast<sockaddr_in6 *>(out)) == 0) return 0;
    return RAFT_INVALID;
}

void set_port(sockaddr_storage *addr, std::uint16_t port) {
    if (addr->ss_family == AF_INET6)
        reinterpret_cast<sockaddr_in6 *>(addr)->sin6_port = htons(port);
    else
        reinterpret_cast<sockaddr_in *>(addr)->sin_port = htons(port);
}

// How long a restarted server waits for its old port. Once a daemon died, the
// kernel may hand its port to another process (any bind to port 0, or an
// outgoing connection); such a holder is usually short-lived.
constexpr auto kWaitForOwnPort = std::chrono::seconds(2);

// Whether a listening socket can be bound at addr now, tried every 50 ms until
// the deadline (with SO_REUSEADDR, as libuv binds, so TIME_WAIT never blocks).
bool wait_until_listenable(const sockaddr_storage &addr, std::chrono::milliseconds patience) {
    auto deadline = std::chrono::steady_clock::now() + patience;
    socklen_t len = addr.ss_family == AF_INET6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in);
    for (;;) {
        int fd = ::socket(addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) return true;  // let the real bind report what is wrong
        int one = 1;
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        bool ok = ::bind(fd, reinterpret_cast<const sockaddr *>(&addr), len) == 0 && ::listen(fd, 1) == 0;
        int err = errno;
        ::close(fd);
        if (ok || err != EADDRINUSE) return true;
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

Transport *impl(raft_uv_transport *t) {
    return static_cast<Transport *>(t->impl);
}

int tr_init(raft_uv_transport *t, raft_id id, const char *address) {
    impl(t)->id = id;
    impl(t)->address = address;
    return 0;
}

int tr_listen(raft_uv_transport *t, raft_uv_accept_cb cb) {
    Transport *tr = impl(t);
    if (!tr->bound) {
        std::snprintf(t->errmsg, RAFT_ERRMSG_BUF_SIZE, "drd transport: listen before bind");
        return RAFT_IOERR;
    }
    // Already listening since bind; connections that authenticated before
    // this point were closed (raft was not ready for them) and get retried.
    tr->accept_cb = cb;
    return 0;
}

int tr_connect(raft_uv_transport *t, raft_uv_connect *req, raft_id id, const char *address, raft_uv_connect_cb cb) {
    Transport *tr = impl(t);
    if (tr->closing) return RAFT_CANCELED;
    sockaddr_storage addr{};
    if (resolve(address, &addr) != 0) {
        std::snprintf(t->errmsg, RAFT_ERRMSG_BUF_SIZE, "drd transport: bad address %s", address);
        return RAFT_NOCONNECTION;
    }
    Handshake *hs = new_handshake(tr, true);
    if (!hs) return RAFT_NOMEM;
    hs->req = req;
    hs->connect_cb = cb;
    hs->peer_id = id;
    hs->peer = std::string(address) + " (raft id " + std::to_string(id) + ")";
    int rv = uv_tcp_connect(&hs->connect_req, hs->sock, reinterpret_cast<sockaddr *>(&addr), on_connected);
    if (rv != 0) {
        // Report through the callback, never from inside connect().
        hs->deferred_failure = std::string("connect: ") + uv_strerror(rv);
        uv_timer_start(&hs->timer, on_timeout, 0, 0);
    }
    return 0;
}

void tr_close(raft_uv_transport *t, raft_uv_transport_close_cb cb) {
    Transport *tr = impl(t);
    tr->closing = true;
    tr->close_cb = cb;
    ++tr->open_handles;  // held until every cancellation below has run
    if (tr->bound) {
        tr->bound = false;
        uv_close(reinterpret_cast<uv_handle_t *>(&tr->listener),
                 [](uv_handle_t *h) { static_cast<Transport *>(h->data)->handle_closed(); });
    }
    auto pending = tr->handshakes;
    for (Handshake *hs : pending) fail(hs, "transport closing", RAFT_CANCELED);
    tr->handle_closed();
}

}  // namespace

int auth_transport_init(raft_uv_transport *t, uv_loop_t *loop, AuthTransportOptions options) {
    auto *tr = new (std::nothrow) Transport();
    if (!tr) return RAFT_NOMEM;
    tr->loop = loop;
    tr->t = t;
    tr->options = std::move(options);
    std::memset(t->errmsg, 0, sizeof t->errmsg);
    t->impl = tr;
    t->init = tr_init;
    t->listen = tr_listen;
    t->connect = tr_connect;
    t->close = tr_close;
    return 0;
}

int auth_transport_bind(raft_uv_transport *t, const std::string &host, std::uint16_t port, std::uint16_t *bound_port) {
    Transport *tr = impl(t);
    sockaddr_storage addr{};
    if (resolve(host + ":" + std::to_string(port), &addr) != 0) {
        std::snprintf(t->errmsg, RAFT_ERRMSG_BUF_SIZE, "drd transport: bad listen host %s", host.c_str());
        return RAFT_INVALID;
    }
    if (port != 0 && !wait_until_listenable(addr, kWaitForOwnPort)) {
        tr->log(2,
                "drd transport: port " + std::to_string(port) + " of this raft server is still taken by " +
                    "another socket; listening on a new one (the leader re-adds this server at its new address)");
        set_port(&addr, 0);
        port = 0;
    }
    uv_tcp_init(tr->loop, &tr->listener);
    tr->listener.data = tr;
    ++tr->open_handles;
    tr->bound = true;  // closed by tr_close (or auth_transport_free's caller) from here on
    int rv = uv_tcp_bind(&tr->listener, reinterpret_cast<sockaddr *>(&addr), 0);
    if (rv == 0) {
        // uv_tcp_bind reports EADDRINUSE only at listen time; listen now.
        rv = uv_listen(reinterpret_cast<uv_stream_t *>(&tr->listener), 64, on_connection);
    }
    if (rv != 0) {
        std::snprintf(t->errmsg, RAFT_ERRMSG_BUF_SIZE, "drd transport: cannot listen on %s:%u: %s", host.c_str(),
                      static_cast<unsigned>(port), uv_strerror(rv));
        return RAFT_IOERR;
    }
    sockaddr_storage got{};
    int len = sizeof got;
    uv_tcp_getsockname(&tr->listener, reinterpret_cast<sockaddr *>(&got), &len);
    *bound_port = got.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6 *>(&got)->sin6_port)
                                            : ntohs(reinterpret_cast<sockaddr_in *>(&got)->sin_port);
    return 0;
}

void auth_transport_free(raft_uv_transport *t) {
    delete impl(t);
    t->impl = nullptr;
}

}  // namespace harness::drd
