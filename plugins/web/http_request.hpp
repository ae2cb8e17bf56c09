// The HTTP/1.1 requests the web view accepts, parsed from the bytes a client
// sent up to the blank line: GET (and HEAD) only, no body, a bounded header
// block. Everything else gets a status and a reason a person can read, so
// the server answers it instead of guessing (docs/webview.md, "Bad input").
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace harness::web {

// The largest request head (request line and headers) accepted.
inline constexpr std::size_t kMaxHead = 16 * 1024;

struct Request {
    std::string method;
    std::string path;                            // percent-decoded, without the query
    std::map<std::string, std::string> query;    // percent-decoded
    std::map<std::string, std::string> headers;  // names lower-cased
    bool http10 = false;

    std::string header(const std::string &lower_name) const {
        auto it = headers.find(lower_name);
        return it == headers.end() ? std::string() : it->second;
    }
    // A cookie's value from the Cookie header, "" when absent.
    std::string cookie(std::string_view name) const;
};

// Why a request was refused: the HTTP status and a line for the body.
struct Refusal {
    int status = 400;
    std::string reason;
};

// Where the head ends (the index just past "\r\n\r\n", or "\n\n"), or
// npos while it has not arrived.
std::size_t head_end(std::string_view data);

// Parses a complete head (as head_end found it). Either the request or why
// it is refused (400 malformed, 405 a method other than GET/HEAD, 413 a
// body, 505 a version other than HTTP/1.0 and 1.1).
struct Parsed {
    std::optional<Request> request;
    Refusal refusal;
};
Parsed parse_request(std::string_view head);

}  // namespace harness::web
