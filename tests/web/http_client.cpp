#include "http_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>

namespace harness::web_test {

using Clock = std::chrono::steady_clock;

int connect_to(std::uint16_t port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

std::string read_until_closed(int fd, std::chrono::milliseconds timeout) {
    std::string out;
    const auto deadline = Clock::now() + timeout;
    while (Clock::now() < deadline) {
        pollfd p{fd, POLLIN, 0};
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (::poll(&p, 1, static_cast<int>(std::max<long>(left.count(), 1))) <= 0) continue;
        char buf[8192];
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        out.append(buf, static_cast<std::size_t>(n));
    }
    return out;
}

HttpReply parse_reply(const std::string &raw) {
    HttpReply r;
    r.raw = raw;
    const auto head_end = raw.find("\r\n\r\n");
    if (raw.rfind("HTTP/1.1 ", 0) != 0 || head_end == std::string::npos || raw.size() < 12) return r;
    r.status = std::stoi(raw.substr(9, 3));
    std::size_t at = raw.find("\r\n") + 2;
    while (at < head_end) {
        const auto eol = raw.find("\r\n", at);
        const std::string line = raw.substr(at, eol - at);
        const auto colon = line.find(':');
        if (colon != std::string::npos) {
            std::string name = line.substr(0, colon);
            for (char &c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            const auto value = line.find_first_not_of(' ', colon + 1);
            r.headers[name] = value == std::string::npos ? std::string() : line.substr(value);
        }
        at = eol + 2;
    }
    r.body = raw.substr(head_end + 4);
    return r;
}

HttpReply send_raw(std::uint16_t port, const std::string &request, std::chrono::milliseconds timeout) {
    const int fd = connect_to(port);
    if (fd < 0) return {};
    std::size_t sent = 0;
    while (sent < request.size()) {
        const ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) break;  // the server may answer (431) before reading it all
        sent += static_cast<std::size_t>(n);
    }
    auto reply = parse_reply(read_until_closed(fd, timeout));
    ::close(fd);
    return reply;
}

HttpReply get(std::uint16_t port, const std::string &path, const std::string &extra_headers,
              std::chrono::milliseconds timeout) {
    return send_raw(
        port, "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) + "\r\n" + extra_headers + "\r\n",
        timeout);
}

}  // namespace harness::web_test
