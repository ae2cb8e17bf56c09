// A small HTTP/1.1 server for the web view: one listening socket, one thread
// per connection (at most kMaxConnections; more get 503), one request per
// connection (answered with "Connection: close"). A request head must arrive
// within kHeadTimeout and fit in kMaxHead bytes, or the client gets 408 or
// 431 and the connection is closed; a client that does not read its answer
// within kSendTimeout is dropped. A handler answers with a body, or with a
// stream (server-sent events) that runs until the client leaves or the
// server stops. stop() (and the destructor) wakes and joins every thread, so
// the plugin can be unloaded safely.
#pragma once

#include "http_request.hpp"

#include <harness/common/result.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace harness::web {

inline constexpr int kMaxConnections = 32;
inline constexpr std::chrono::milliseconds kHeadTimeout{5000};
inline constexpr std::chrono::milliseconds kSendTimeout{5000};

// What a stream handler writes through.
class StreamWriter {
public:
    virtual ~StreamWriter() = default;
    // False once the client is gone or the write timed out.
    virtual bool write(std::string_view data) = 0;
    // True when the client closed its end or the server is stopping.
    virtual bool finished() = 0;
};

struct Response {
    int status = 200;
    std::string content_type = "text/plain; charset=utf-8";
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    // When set, the head is sent without Content-Length and this writes the
    // rest until it returns.
    std::function<void(StreamWriter &)> stream;
};

using Handler = std::function<Response(const Request &)>;
using LogFn = std::function<void(int level, const std::string &)>;  // 0 debug … 3 error

class HttpServer {
public:
    // Binds ipv4:port (0: any free port) and starts serving.
    static Result<std::unique_ptr<HttpServer>> start(const std::string &ipv4, std::uint16_t port, Handler handler,
                                                     LogFn log);
    ~HttpServer();
    HttpServer(const HttpServer &) = delete;
    HttpServer &operator=(const HttpServer &) = delete;

    std::uint16_t port() const { return port_; }
    bool stopping() const { return stopping_; }
    void stop();

private:
    struct Client {
        int fd = -1;
        std::thread thread;
        // Answered and closing: set before the write side is shut, so a
        // client that has read to the end no longer holds a slot.
        std::atomic<bool> finishing{false};
        std::atomic<bool> done{false};
    };

    HttpServer(int listen_fd, std::uint16_t port, Handler handler, LogFn log);
    void accept_loop();
    void serve(Client &client);
    void reap(bool all);

    int listen_fd_;
    std::uint16_t port_;
    Handler handler_;
    LogFn log_;
    std::atomic<bool> stopping_{false};
    std::mutex mutex_;  // clients_
    std::list<Client> clients_;
    std::thread acceptor_;
};

// "HTTP/1.1 404 Not Found": the reason phrase of a status this server sends.
const char *status_text(int status);

// A complete answer: head and body, with Connection: close.
std::string render_response(const Response &r, bool head_only);

}  // namespace harness::web
