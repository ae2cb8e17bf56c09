// See tcp_driver.hpp. Every entry is noexcept: a C++ exception becomes
// FTMPI_TRANSPORT_ERROR with its text in err.
#include "transport/tcp_driver.hpp"

#include "transport/tcp.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

struct ftmpi_transport {
    // Turns the C++ sink calls of Tcp into the C sink the router gave us.
    struct Adapter final : ftmpi::transport::Sink {
        ftmpi_transport_sink c{};
        ftmpi::transport::Landing on_header(int peer, const ftmpi::transport::Frame &f) override {
            ftmpi_landing l{};
            c.on_header(c.ctx, peer, ftmpi::transport::as_c(&f), &l);
            return {l.dst, l.keep, l.cookie};
        }
        void on_frame(int peer, const ftmpi::transport::Frame &f, const ftmpi::transport::Landing &l) override {
            ftmpi_landing cl{l.dst, l.keep, l.cookie};
            c.on_frame(c.ctx, peer, ftmpi::transport::as_c(&f), &cl);
        }
        void on_sent(uint64_t token) override { c.on_sent(c.ctx, token); }
        void on_peer_lost(int peer) override { c.on_peer_lost(c.ctx, peer); }
        void on_joined(int peer) override { c.on_joined(c.ctx, peer); }
    };
    Adapter sink;
    std::unique_ptr<ftmpi::transport::Tcp> tcp;
    int rank = 0, size = 1;
    std::string address;
};

namespace ftmpi::transport {

namespace {

int fail(char *err, size_t errlen, const char *what) {
    if (err && errlen) std::snprintf(err, errlen, "%s", what);
    return FTMPI_TRANSPORT_ERROR;
}

std::vector<std::string> to_vector(const char *const *addresses, int n) {
    std::vector<std::string> v(n);
    for (int r = 0; r < n; ++r)
        if (addresses[r]) v[r] = addresses[r];
    return v;
}

int tcp_open(const ftmpi_transport_open_args *args, const ftmpi_transport_sink *sink, ftmpi_transport **out, char *err,
             size_t errlen) noexcept {
    try {
        auto t = std::make_unique<ftmpi_transport>();
        t->sink.c = *sink;
        t->rank = args->rank;
        t->size = args->size;
        t->tcp = std::make_unique<Tcp>(t->sink);
        t->tcp->set_identity(args->incarnation, args->round);
        std::string host = args->listen_host && *args->listen_host ? args->listen_host : "127.0.0.1";
        t->address = Contact{t->tcp->listen(host), args->incarnation, args->round}.record();
        *out = t.release();
        return FTMPI_TRANSPORT_OK;
    } catch (const std::exception &e) {
        return fail(err, errlen, e.what());
    }
}

void tcp_close(ftmpi_transport *t) noexcept {
    delete t;
}

int tcp_address(ftmpi_transport *t, char *buf, size_t len) noexcept {
    if (t->address.size() + 1 > len) return FTMPI_TRANSPORT_ERROR;
    std::memcpy(buf, t->address.c_str(), t->address.size() + 1);
    return FTMPI_TRANSPORT_OK;
}

int tcp_reachable(ftmpi_transport *, const char *address) noexcept {
    return address && *address;
}

size_t tcp_eager_limit(ftmpi_transport *) noexcept {
    return 64 * 1024;
}

int tcp_connect(ftmpi_transport *t, const char *const *addresses, const unsigned char *, int timeout_ms, char *err,
                size_t errlen) noexcept {
    // TCP connects to every peer whatever carries its frames: the connection's
    // end of file is how a peer's death is seen.
    try {
        t->tcp->connect_mesh(t->rank, to_vector(addresses, t->size), std::chrono::milliseconds(timeout_ms));
        return FTMPI_TRANSPORT_OK;
    } catch (const std::exception &e) {
        return fail(err, errlen, e.what());
    }
}

}  // namespace

std::vector<int> tcp_connect_mesh(ftmpi_transport *t, const char *const *addresses, long timeout_ms,
                                  const PeerEnded &ended) {
    return t->tcp->connect_mesh(t->rank, to_vector(addresses, t->size), std::chrono::milliseconds(timeout_ms), ended);
}

void tcp_grow(ftmpi_transport *t, int n) {
    t->tcp->grow(n);
    t->size = std::max(t->size, n);
}

std::vector<int> tcp_join_spawned(ftmpi_transport *t, const char *const *addresses, int first_sibling, long per_peer_ms,
                                  long siblings_ms, const PeerEnded &ended) {
    return t->tcp->join_spawned(t->rank, to_vector(addresses, t->size), first_sibling,
                                std::chrono::milliseconds(per_peer_ms), std::chrono::milliseconds(siblings_ms), ended);
}

int tcp_address_incarnation(const std::string &address) {
    return Contact::parse(address).incarnation;
}

int tcp_reach_fellow(const ftmpi_transport *t, int peer, const std::string &address,
                     std::chrono::steady_clock::time_point deadline, int *incarnation) {
    return t->tcp->reach_fellow(peer, address, deadline, incarnation);
}

bool tcp_adopt_fellow(ftmpi_transport *t, int peer, int fd, int incarnation) {
    return t->tcp->adopt_fellow(peer, fd, incarnation);
}

void tcp_expect_foreign(ftmpi_transport *t, int peer) {
    t->tcp->expect_foreign(peer);
    t->size = std::max(t->size, t->tcp->size());
}

int tcp_reach_foreign(const ftmpi_transport *t, const std::string &address, int their_world, int alias_there,
                      std::chrono::steady_clock::time_point deadline, int *incarnation) {
    return t->tcp->reach_foreign(address, their_world, alias_there, deadline, incarnation);
}

bool tcp_adopt_foreign(ftmpi_transport *t, int peer, int fd, int incarnation) {
    const bool adopted = t->tcp->adopt_foreign(peer, fd, incarnation);
    t->size = std::max(t->size, t->tcp->size());
    return adopted;
}

namespace {

int tcp_send(ftmpi_transport *t, int peer, const ftmpi_frame *f, const struct iovec *iov, int iovcnt, unsigned flags,
             uint64_t token) noexcept {
    try {
        const bool copy = flags & FTMPI_SEND_COPY;
        SendResult r;
        if (iovcnt <= 1) {
            r = t->tcp->send(peer, *as_cpp(f), iovcnt ? iov[0].iov_base : nullptr, iovcnt ? iov[0].iov_len : 0, copy,
                             token);
        } else {
            // The engine sends one contiguous payload; gather anything else once.
            std::vector<char> joined;
            for (int i = 0; i < iovcnt; ++i)
                joined.insert(joined.end(), static_cast<const char *>(iov[i].iov_base),
                              static_cast<const char *>(iov[i].iov_base) + iov[i].iov_len);
            r = t->tcp->send(peer, *as_cpp(f), joined.data(), joined.size(), true, token);
        }
        switch (r) {
        case SendResult::done: return FTMPI_TRANSPORT_OK;
        case SendResult::pending: return FTMPI_TRANSPORT_PENDING;
        case SendResult::peer_lost: return FTMPI_TRANSPORT_PEER_LOST;
        }
        return FTMPI_TRANSPORT_ERROR;
    } catch (...) {
        return FTMPI_TRANSPORT_ERROR;
    }
}

int tcp_wait_fd(ftmpi_transport *t) noexcept {
    return t->tcp->epoll_fd();
}
int tcp_prepare_wait(ftmpi_transport *) noexcept {
    return 0;
}

int tcp_progress(ftmpi_transport *t) noexcept {
    try {
        int n = t->tcp->wait_events(0);
        t->tcp->process_events(n);
        return n;
    } catch (...) {
        return 0;
    }
}

void tcp_wake(ftmpi_transport *t) noexcept {
    t->tcp->wake();
}
void tcp_drop(ftmpi_transport *t, int peer) noexcept {
    t->tcp->drop(peer);
}

void tcp_drain(ftmpi_transport *t, int peer) noexcept {
    try {
        t->tcp->drain(peer);
    } catch (...) {  // what the sink threw; the peer is dropped next anyway
    }
}
int tcp_connected(ftmpi_transport *t, int peer) noexcept {
    return t->tcp->connected(peer);
}
int tcp_bye_received(ftmpi_transport *t, int peer) noexcept {
    return t->tcp->bye_received(peer);
}
int tcp_flushed(ftmpi_transport *t) noexcept {
    return t->tcp->flushed();
}

int tcp_join(ftmpi_transport *t, const char *const *addresses, const unsigned char *, int per_peer_ms,
             unsigned char *lost, char *err, size_t errlen) noexcept {
    try {
        for (int r : t->tcp->join_mesh(t->rank, to_vector(addresses, t->size), std::chrono::milliseconds(per_peer_ms)))
            lost[r] = 1;
        return FTMPI_TRANSPORT_OK;
    } catch (const std::exception &e) {
        return fail(err, errlen, e.what());
    }
}

int tcp_incarnation(ftmpi_transport *t, int peer) noexcept {
    return t->tcp->incarnation(peer);
}
int tcp_joining_incarnation(ftmpi_transport *t, int peer) noexcept {
    return t->tcp->joining_incarnation(peer);
}
int tcp_admit(ftmpi_transport *t, int peer, int incarnation) noexcept {
    return t->tcp->admit(peer, incarnation) ? FTMPI_TRANSPORT_OK : FTMPI_TRANSPORT_ERROR;
}

const ftmpi_transport_ops table = {
    sizeof(ftmpi_transport_ops),
    FTMPI_TRANSPORT_VERSION,
    "tcp",
    tcp_open,
    tcp_close,
    tcp_address,
    tcp_reachable,
    tcp_eager_limit,
    tcp_connect,
    tcp_send,
    tcp_wait_fd,
    tcp_prepare_wait,
    tcp_progress,
    tcp_wake,
    tcp_drop,
    tcp_connected,
    tcp_bye_received,
    tcp_flushed,
    tcp_join,
    tcp_incarnation,
    tcp_joining_incarnation,
    tcp_admit,
    tcp_drain,
};

}  // namespace

const ftmpi_transport_ops *tcp_ops() {
    return &table;
}

}  // namespace ftmpi::transport
