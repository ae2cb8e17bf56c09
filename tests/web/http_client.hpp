// A raw HTTP/1.1 client for the web view's tests: it sends exactly the bytes
// a test gives (well-formed or not) and reads the answer until the server
// closes, with a deadline, so a test can see what a browser would not send.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

namespace harness::web_test {

struct HttpReply {
    int status = 0;                              // 0: no (complete) status line arrived
    std::map<std::string, std::string> headers;  // names lower-cased
    std::string body;
    std::string raw;
};

// Parses what a server sent (status line, headers, body).
HttpReply parse_reply(const std::string &raw);

// Sends `request` to 127.0.0.1:port and reads until the server closes or
// `timeout` passes.
HttpReply send_raw(std::uint16_t port, const std::string &request,
                   std::chrono::milliseconds timeout = std::chrono::seconds(10));

// GET path with a Host header naming loopback, and extra header lines.
HttpReply get(std::uint16_t port, const std::string &path, const std::string &extra_headers = "",
              std::chrono::milliseconds timeout = std::chrono::seconds(10));

// A connected socket (to hold a connection open, or send slowly); -1 on failure.
int connect_to(std::uint16_t port);
// Reads from fd until the peer closes or `timeout` passes.
std::string read_until_closed(int fd, std::chrono::milliseconds timeout);

}  // namespace harness::web_test
