// The C boundary: ftmpi_transport_ops over Driver. Every function is
// noexcept and catches everything; errors become status codes and text.
#include "driver.hpp"

#include <ftmpi/comm_shm.h>

#include <cstdio>
#include <exception>
#include <new>

struct ftmpi_transport {
    ftmpi::shm::Driver driver;
};

namespace {

using ftmpi::shm::Driver;

void put_error(char *err, size_t errlen, const char *what) noexcept {
    if (err && errlen > 0) std::snprintf(err, errlen, "shm: %s", what);
}

int shm_open_driver(const ftmpi_transport_open_args *args, const ftmpi_transport_sink *sink, ftmpi_transport **out,
                    char *err, size_t errlen) noexcept {
    if (!args || !sink || !out || args->struct_size < offsetof(ftmpi_transport_open_args, listen_host) ||
        sink->struct_size < offsetof(ftmpi_transport_sink, on_joined) || !sink->on_header || !sink->on_frame ||
        !sink->on_sent || !sink->on_peer_lost) {
        put_error(err, errlen, "open: missing or too old arguments or sink");
        return FTMPI_TRANSPORT_ERROR;
    }
    try {
        *out = new ftmpi_transport{Driver(*args, *sink, ftmpi::shm::Settings::from_environment())};
        return FTMPI_TRANSPORT_OK;
    } catch (const std::exception &e) {
        put_error(err, errlen, e.what());
    } catch (...) {
        put_error(err, errlen, "open failed");
    }
    return FTMPI_TRANSPORT_ERROR;
}

void shm_close(ftmpi_transport *t) noexcept {
    delete t;
}

int shm_address(ftmpi_transport *t, char *buf, size_t len) noexcept {
    try {
        std::string a = t->driver.address();
        if (!buf || a.size() + 1 > len) return FTMPI_TRANSPORT_ERROR;
        std::snprintf(buf, len, "%s", a.c_str());
        return FTMPI_TRANSPORT_OK;
    } catch (...) {
        return FTMPI_TRANSPORT_ERROR;
    }
}

int shm_reachable(ftmpi_transport *t, const char *address) noexcept {
    try {
        return address && t->driver.reachable(address) ? 1 : 0;
    } catch (...) {
        return 0;
    }
}

size_t shm_eager_limit(ftmpi_transport *t) noexcept {
    return t->driver.eager_limit();
}

int shm_connect(ftmpi_transport *t, const char *const *addresses, const unsigned char *mine, int timeout_ms, char *err,
                size_t errlen) noexcept {
    try {
        t->driver.connect(addresses, mine, timeout_ms);
        return FTMPI_TRANSPORT_OK;
    } catch (const std::exception &e) {
        put_error(err, errlen, e.what());
    } catch (...) {
        put_error(err, errlen, "connect failed");
    }
    return FTMPI_TRANSPORT_ERROR;
}

int shm_send(ftmpi_transport *t, int peer, const ftmpi_frame *f, const struct iovec *iov, int iovcnt, unsigned flags,
             uint64_t token) noexcept {
    if (!f) return FTMPI_TRANSPORT_ERROR;
    try {
        return t->driver.send(peer, *f, iov, iovcnt, flags, token);
    } catch (...) {  // std::bad_alloc queueing a copy
        return FTMPI_TRANSPORT_ERROR;
    }
}

int shm_wait_fd(ftmpi_transport *t) noexcept {
    return t->driver.wait_fd();
}

int shm_prepare_wait(ftmpi_transport *t) noexcept {
    try {
        return t->driver.prepare_wait();
    } catch (...) {
        return 1;
    }
}

int shm_progress(ftmpi_transport *t) noexcept {
    try {
        return t->driver.progress();
    } catch (...) {
        return 0;
    }
}

void shm_wake(ftmpi_transport *t) noexcept {
    t->driver.wake();
}
void shm_drop(ftmpi_transport *t, int peer) noexcept {
    t->driver.drop(peer);
}

void shm_drain(ftmpi_transport *t, int peer) noexcept {
    try {
        t->driver.drain_failed(peer);
    } catch (...) {  // the peer is dropped next anyway
    }
}
int shm_connected(ftmpi_transport *t, int peer) noexcept {
    return t->driver.connected(peer) ? 1 : 0;
}
int shm_bye_received(ftmpi_transport *t, int peer) noexcept {
    return t->driver.bye_received(peer) ? 1 : 0;
}
int shm_flushed(ftmpi_transport *t) noexcept {
    return t->driver.flushed() ? 1 : 0;
}

int shm_join(ftmpi_transport *t, const char *const *addresses, const unsigned char *mine, int per_peer_ms,
             unsigned char *lost, char *err, size_t errlen) noexcept {
    try {
        t->driver.join(addresses, mine, per_peer_ms, lost);
        return FTMPI_TRANSPORT_OK;
    } catch (const std::exception &e) {
        put_error(err, errlen, e.what());
    } catch (...) {
        put_error(err, errlen, "join failed");
    }
    return FTMPI_TRANSPORT_ERROR;
}

int shm_incarnation(ftmpi_transport *t, int peer) noexcept {
    return t->driver.incarnation(peer);
}
int shm_joining_incarnation(ftmpi_transport *t, int peer) noexcept {
    return t->driver.joining_incarnation(peer);
}

int shm_admit(ftmpi_transport *t, int peer, int incarnation) noexcept {
    try {
        return t->driver.admit(peer, incarnation) ? FTMPI_TRANSPORT_OK : FTMPI_TRANSPORT_ERROR;
    } catch (...) {
        return FTMPI_TRANSPORT_ERROR;
    }
}

const ftmpi_transport_ops kOps = {
    sizeof(ftmpi_transport_ops),
    FTMPI_TRANSPORT_VERSION,
    "shm",
    shm_open_driver,
    shm_close,
    shm_address,
    shm_reachable,
    shm_eager_limit,
    shm_connect,
    shm_send,
    shm_wait_fd,
    shm_prepare_wait,
    shm_progress,
    shm_wake,
    shm_drop,
    shm_connected,
    shm_bye_received,
    shm_flushed,
    shm_join,
    shm_incarnation,
    shm_joining_incarnation,
    shm_admit,
    shm_drain,
};

}  // namespace

extern "C" __attribute__((visibility("default"))) const ftmpi_transport_ops *ftmpi_comm_shm_ops(void) {
    return &kOps;
}
