#include "http_server.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <optional>
#include <poll.h>
#include <sys/socket.h>
#include <system_error>
#include <unistd.h>

namespace harness::web {

namespace {

using Clock = std::chrono::steady_clock;

bool send_all(int fd, std::string_view data) {
    while (!data.empty()) {
        const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;  // gone, or SO_SNDTIMEO passed: a client that does not read
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

Response plain(int status, const std::string &reason) {
    Response r;
    r.status = status;
    r.body = std::to_string(status) + " " + status_text(status) + ": " + reason + "\n";
    return r;
}

// Waits (at most `at_most`) for the client to read the answer and close its
// end: closing with unread request bytes would reset the connection, and
// the client could lose the answer.
void linger(int fd, std::chrono::milliseconds at_most) {
    ::shutdown(fd, SHUT_WR);
    const auto until = Clock::now() + at_most;
    while (Clock::now() < until) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0) continue;
        char buf[4096];
        if (::recv(fd, buf, sizeof buf, MSG_DONTWAIT) <= 0) break;
    }
}

class SocketWriter final : public StreamWriter {
public:
    SocketWriter(int fd, const std::atomic<bool> &stopping) : fd_(fd), stopping_(stopping) {}
    bool write(std::string_view data) override { return !stopping_ && send_all(fd_, data); }
    bool finished() override {
        if (stopping_) return true;
        pollfd p{fd_, POLLIN | POLLRDHUP, 0};
        if (::poll(&p, 1, 0) <= 0) return false;
        if (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) return true;
        char byte;  // a client may send more; only its end of stream ends the stream
        return ::recv(fd_, &byte, 1, MSG_DONTWAIT) == 0;
    }

private:
    int fd_;
    const std::atomic<bool> &stopping_;
};

}  // namespace

const char *status_text(int status) {
    switch (status) {
    case 200: return "OK";
    case 303: return "See Other";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 413: return "Content Too Large";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Unknown";
    }
}

std::string render_response(const Response &r, bool head_only) {
    std::string out = "HTTP/1.1 " + std::to_string(r.status) + " " + status_text(r.status) + "\r\n";
    out += "Content-Type: " + r.content_type + "\r\n";
    if (!r.stream) out += "Content-Length: " + std::to_string(r.body.size()) + "\r\n";
    out += "Connection: close\r\nX-Content-Type-Options: nosniff\r\n";
    for (const auto &[name, value] : r.headers) out += name + ": " + value + "\r\n";
    out += "\r\n";
    if (!head_only && !r.stream) out += r.body;
    return out;
}

Result<std::unique_ptr<HttpServer>> HttpServer::start(const std::string &ipv4, std::uint16_t port, Handler handler,
                                                      LogFn log) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    if (::inet_pton(AF_INET, ipv4.c_str(), &addr.sin_addr) != 1)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "not an IPv4 address: " + ipv4);
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return make_error(HARNESS_ERR_INTERNAL, std::string("socket: ") + std::strerror(errno));
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 || ::listen(fd, 64) != 0) {
        const std::string why = std::strerror(errno);
        ::close(fd);
        return make_error(HARNESS_ERR_BUSY, "cannot serve on " + ipv4 + ":" + std::to_string(port) + ": " + why);
    }
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len);
    return std::unique_ptr<HttpServer>(new HttpServer(fd, ntohs(addr.sin_port), std::move(handler), std::move(log)));
}

HttpServer::HttpServer(int listen_fd, std::uint16_t port, Handler handler, LogFn log)
    : listen_fd_(listen_fd), port_(port), handler_(std::move(handler)), log_(std::move(log)) {
    acceptor_ = std::thread([this] { accept_loop(); });
}

HttpServer::~HttpServer() {
    stop();
}

void HttpServer::stop() {
    if (stopping_.exchange(true)) return;
    if (acceptor_.joinable()) acceptor_.join();
    ::close(listen_fd_);
    {
        // Wake every connection thread (a blocked recv, poll or send).
        std::lock_guard lock(mutex_);
        for (auto &c : clients_)
            if (c.fd >= 0) ::shutdown(c.fd, SHUT_RDWR);
    }
    reap(true);
}

void HttpServer::reap(bool all) {
    std::list<Client> finished;
    {
        std::lock_guard lock(mutex_);
        for (auto it = clients_.begin(); it != clients_.end();) {
            auto next = std::next(it);
            if (all || it->done) finished.splice(finished.end(), clients_, it);
            it = next;
        }
    }
    for (auto &c : finished)
        if (c.thread.joinable()) c.thread.join();
}

void HttpServer::accept_loop() {
    while (!stopping_) {
        pollfd p{listen_fd_, POLLIN, 0};
        if (::poll(&p, 1, 200) <= 0) continue;  // wakes now and then to see stopping_
        const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) {
            // Out of descriptors: the socket stays readable, so wait a little
            // instead of spinning on it.
            if (errno == EMFILE || errno == ENFILE) ::poll(nullptr, 0, 100);
            continue;
        }
        reap(false);
        std::unique_lock lock(mutex_);
        // Connections still being served, not threads: a slot is free once
        // its client has had the whole answer, as that client sees it.
        const auto open =
            std::count_if(clients_.begin(), clients_.end(), [](const Client &c) { return c.fd >= 0 && !c.finishing; });
        if (open >= kMaxConnections) {
            lock.unlock();  // the connections' threads need the lock to end meanwhile
            const std::string busy = render_response(plain(503, "too many connections, try again later"), false);
            (void)::send(fd, busy.data(), busy.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
            linger(fd, std::chrono::milliseconds(100));
            ::close(fd);
            log_(2, "web view: refused a connection, " + std::to_string(kMaxConnections) + " already open");
            continue;
        }
        Client &c = clients_.emplace_back();
        c.fd = fd;
        try {
            c.thread = std::thread([this, &c] {
                try {
                    serve(c);
                } catch (const std::exception &e) {  // never let one connection end the daemon
                    log_(3, std::string("web view: a connection failed: ") + e.what());
                    std::lock_guard guard(mutex_);
                    if (c.fd >= 0) ::close(c.fd);
                    c.fd = -1;
                }
                c.done = true;
            });
        } catch (const std::system_error &e) {  // no thread to be had: refuse this one, the daemon goes on
            ::close(fd);
            clients_.pop_back();
            log_(3, std::string("web view: cannot serve a connection: ") + e.what());
        }
    }
}

void HttpServer::serve(Client &client) {
    const int fd = client.fd;
    timeval tv{static_cast<time_t>(kSendTimeout.count() / 1000),
               static_cast<suseconds_t>(kSendTimeout.count() % 1000 * 1000)};
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);

    auto answer = [&](const Response &r, bool head_only) { return send_all(fd, render_response(r, head_only)); };
    // Reads the head; an answer for a client that sent too much or too
    // slowly, nothing when it left or the server stops.
    std::string data;
    std::size_t end = std::string::npos;
    std::optional<Response> refusal;
    const auto deadline = Clock::now() + kHeadTimeout;
    while (!stopping_) {
        end = head_end(data);
        if (end != std::string::npos || data.size() > kMaxHead) break;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0) {
            refusal = plain(
                408, "the request head did not arrive within " + std::to_string(kHeadTimeout.count() / 1000) + " s");
            break;
        }
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(std::min<long>(left.count(), 200))) <= 0) continue;
        char buf[4096];
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) break;  // the client left before finishing its request
        data.append(buf, static_cast<std::size_t>(n));
    }
    if (!refusal && (end > kMaxHead || (end == std::string::npos && data.size() > kMaxHead)))
        refusal = plain(431, "the request head is larger than " + std::to_string(kMaxHead / 1024) + " KiB");
    if (refusal) {
        answer(*refusal, false);
    } else if (end != std::string::npos && !stopping_) {
        auto parsed = parse_request(std::string_view(data).substr(0, end));
        if (!parsed.request) {
            answer(plain(parsed.refusal.status, parsed.refusal.reason), false);
        } else {
            Response r;
            try {
                r = handler_(*parsed.request);
            } catch (const std::exception &e) {
                r = plain(500, e.what());
            }
            const bool head_only = parsed.request->method == "HEAD";
            if (answer(r, head_only) && r.stream && !head_only) {
                SocketWriter writer(fd, stopping_);
                try {
                    r.stream(writer);
                } catch (const std::exception &e) {
                    log_(2, std::string("web view: a stream ended with an error: ") + e.what());
                }
            }
        }
    }
    client.finishing = true;
    linger(fd, stopping_ ? std::chrono::milliseconds(0) : std::chrono::milliseconds(500));
    std::lock_guard lock(mutex_);  // stop() may be shutting it down
    ::close(fd);
    client.fd = -1;
}

}  // namespace harness::web
