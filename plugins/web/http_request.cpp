#include "http_request.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace harness::web {

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char &c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Percent-decoding ('+' as a space in a query); nullopt on a bad escape or
// a NUL, which no path or token of ours contains.
std::optional<std::string> decode(std::string_view s, bool query) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (c == '%') {
            if (i + 2 >= s.size()) return std::nullopt;
            const int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
            if (hi < 0 || lo < 0) return std::nullopt;
            c = static_cast<char>(hi * 16 + lo);
            i += 2;
        } else if (c == '+' && query) {
            c = ' ';
        }
        if (c == '\0') return std::nullopt;
        out += c;
    }
    return out;
}

bool is_token_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
        std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

std::vector<std::string_view> lines_of(std::string_view head) {
    std::vector<std::string_view> lines;
    while (!head.empty()) {
        const auto nl = head.find('\n');
        std::string_view line = head.substr(0, nl);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.push_back(line);
        if (nl == std::string_view::npos) break;
        head.remove_prefix(nl + 1);
    }
    while (!lines.empty() && lines.back().empty()) lines.pop_back();
    return lines;
}

Parsed refuse(int status, std::string reason) {
    return {std::nullopt, {status, std::move(reason)}};
}

}  // namespace

std::string Request::cookie(std::string_view name) const {
    std::string_view all = headers.count("cookie") ? std::string_view(headers.at("cookie")) : std::string_view();
    while (!all.empty()) {
        const auto semi = all.find(';');
        std::string_view part = trim(all.substr(0, semi));
        const auto eq = part.find('=');
        if (eq != std::string_view::npos && trim(part.substr(0, eq)) == name)
            return std::string(trim(part.substr(eq + 1)));
        if (semi == std::string_view::npos) break;
        all.remove_prefix(semi + 1);
    }
    return {};
}

std::size_t head_end(std::string_view data) {
    const auto crlf = data.find("\r\n\r\n");
    const auto lf = data.find("\n\n");
    if (crlf == std::string_view::npos && lf == std::string_view::npos) return std::string_view::npos;
    if (lf == std::string_view::npos || (crlf != std::string_view::npos && crlf < lf)) return crlf + 4;
    return lf + 2;
}

Parsed parse_request(std::string_view head) {
    if (head.size() > kMaxHead) return refuse(431, "the request head is larger than 16 KiB");
    auto lines = lines_of(head);
    if (lines.empty()) return refuse(400, "an empty request");

    // The request line: METHOD SP TARGET SP HTTP/1.x, single spaces.
    const std::string_view line = lines[0];
    const auto sp1 = line.find(' ');
    const auto sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
    if (sp1 == std::string_view::npos || sp2 == std::string_view::npos ||
        line.find(' ', sp2 + 1) != std::string_view::npos)
        return refuse(400, "a malformed request line (expected \"METHOD /path HTTP/1.1\")");
    Request r;
    r.method = std::string(line.substr(0, sp1));
    const std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    const std::string_view version = line.substr(sp2 + 1);
    if (r.method.empty() || !std::all_of(r.method.begin(), r.method.end(), is_token_char))
        return refuse(400, "a malformed method");
    if (version.substr(0, 5) != "HTTP/" || version.size() != 8 ||
        !std::isdigit(static_cast<unsigned char>(version[5])) || version[6] != '.' ||
        !std::isdigit(static_cast<unsigned char>(version[7])))
        return refuse(400, "a malformed HTTP version");
    if (version != "HTTP/1.1" && version != "HTTP/1.0") return refuse(505, "only HTTP/1.0 and HTTP/1.1 are served");
    r.http10 = version == "HTTP/1.0";
    if (target.empty() || target[0] != '/') return refuse(400, "the request target must be a path starting with /");

    const auto q = target.find('?');
    auto path = decode(target.substr(0, q), false);
    if (!path) return refuse(400, "a malformed percent-escape in the path");
    r.path = *path;
    if (q != std::string_view::npos) {
        std::string_view rest = target.substr(q + 1);
        while (!rest.empty()) {
            const auto amp = rest.find('&');
            const std::string_view pair = rest.substr(0, amp);
            const auto eq = pair.find('=');
            auto name = decode(pair.substr(0, eq), true);
            auto value = decode(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1), true);
            if (!name || !value) return refuse(400, "a malformed percent-escape in the query");
            if (!name->empty()) r.query[*name] = *value;
            if (amp == std::string_view::npos) break;
            rest.remove_prefix(amp + 1);
        }
    }

    for (std::size_t i = 1; i < lines.size(); ++i) {
        const std::string_view h = lines[i];
        const auto colon = h.find(':');
        if (colon == std::string_view::npos || colon == 0)
            return refuse(400, "a malformed header line (expected \"Name: value\")");
        const std::string_view name = h.substr(0, colon);
        if (!std::all_of(name.begin(), name.end(), is_token_char)) return refuse(400, "a malformed header name");
        std::string key = lower(name);
        std::string value(trim(h.substr(colon + 1)));
        if (r.headers.count(key)) {
            if (key == "host" || key == "content-length") return refuse(400, "a repeated " + key + " header");
            r.headers[key] += (key == "cookie" ? "; " : ", ") + value;
        } else {
            r.headers[key] = std::move(value);
        }
    }
    if (!r.http10 && !r.headers.count("host")) return refuse(400, "an HTTP/1.1 request without a Host header");
    if (r.headers.count("transfer-encoding")) return refuse(413, "requests with a body are not accepted");
    if (auto cl = r.header("content-length"); !cl.empty() && cl != "0")
        return refuse(413, "requests with a body are not accepted");
    if (r.method != "GET" && r.method != "HEAD") return refuse(405, "only GET and HEAD are served (read-only view)");
    return {std::move(r), {}};
}

}  // namespace harness::web
