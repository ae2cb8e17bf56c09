#include "math.hpp"

#include <harness/common/plugin.hpp>

#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace harness::examples::math {

namespace {

// Reads exactly n bytes; false on EOF or error.
bool read_exact(int fd, std::uint8_t *p, std::size_t n) {
    while (n > 0) {
        ssize_t got = ::read(fd, p, n);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        p += got;
        n -= static_cast<std::size_t>(got);
    }
    return true;
}

// Writes everything. MSG_NOSIGNAL so a vanished caller is an error, not a
// SIGPIPE that kills the daemon; plain write() when fd is not a socket.
bool write_all(int fd, const std::uint8_t *p, std::size_t n) {
    while (n > 0) {
        ssize_t put = ::send(fd, p, n, MSG_NOSIGNAL);
        if (put < 0 && errno == ENOTSOCK) put = ::write(fd, p, n);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) return false;
        p += put;
        n -= static_cast<std::size_t>(put);
    }
    return true;
}

}  // namespace

int raw_echo(harness_call_ctx *ctx, int fd) noexcept {
    return guarded_call(ctx, "raw_echo", [&] {
        std::uint8_t head[4];
        if (!read_exact(fd, head, sizeof head)) {
            set_call_error(ctx, "raw_echo: the caller closed before sending a length");
            return HARNESS_ERR_PROTOCOL;
        }
        auto len = static_cast<std::uint32_t>(harness_get_le(head, 4));
        if (len > kRawEchoMax) {
            set_call_error(ctx, "raw_echo: " + std::to_string(len) + " bytes is over the 1 MiB limit");
            return HARNESS_ERR_TOO_LARGE;
        }
        std::vector<std::uint8_t> data(4 + std::size_t{len});
        std::memcpy(data.data(), head, 4);
        if (!read_exact(fd, data.data() + 4, len)) {
            set_call_error(ctx, "raw_echo: the caller closed before sending all " + std::to_string(len) + " bytes");
            return HARNESS_ERR_PROTOCOL;
        }
        if (!write_all(fd, data.data(), data.size())) {
            set_call_error(ctx, std::string("raw_echo: writing the reply failed: ") + std::strerror(errno));
            return HARNESS_ERR_UNREACHABLE;
        }
        return HARNESS_OK;
    });
}

}  // namespace harness::examples::math
