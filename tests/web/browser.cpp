#include "browser.hpp"

#include "http_client.hpp"

#include <harness/common/crypto.hpp>

#include <openssl/evp.h>

#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <sstream>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace harness::web_test {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

std::string base64(const unsigned char *data, std::size_t n) {
    std::string out(4 * ((n + 2) / 3) + 1, '\0');
    const int len = EVP_EncodeBlock(reinterpret_cast<unsigned char *>(out.data()), data, static_cast<int>(n));
    out.resize(static_cast<std::size_t>(len));
    return out;
}

std::string unbase64(const std::string &text) {
    std::string out(3 * (text.size() / 4) + 3, '\0');
    const int len =
        EVP_DecodeBlock(reinterpret_cast<unsigned char *>(out.data()),
                        reinterpret_cast<const unsigned char *>(text.data()), static_cast<int>(text.size()));
    if (len < 0) throw std::runtime_error("screenshot: not base64");
    std::size_t n = static_cast<std::size_t>(len);
    // EVP_DecodeBlock counts the padding's zero bytes too.
    for (std::size_t i = text.size(); i > 0 && text[i - 1] == '='; --i) --n;
    out.resize(n);
    return out;
}

std::string read_file(const std::filesystem::path &p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

bool read_exact(int fd, void *buf, std::size_t n, Clock::time_point deadline) {
    auto *p = static_cast<char *>(buf);
    while (n > 0) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0) return false;
        pollfd pfd{fd, POLLIN, 0};
        if (::poll(&pfd, 1, static_cast<int>(left.count())) <= 0) continue;
        const ssize_t got = ::recv(fd, p, n, 0);
        if (got <= 0) return false;
        p += got;
        n -= static_cast<std::size_t>(got);
    }
    return true;
}

}  // namespace

std::filesystem::path chromium_path() {
    for (const char *p : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
        if (::access(p, X_OK) == 0) return p;
    return {};
}

std::unique_ptr<Browser> Browser::start(const std::filesystem::path &profile_dir, std::chrono::milliseconds timeout) {
    const auto exe = chromium_path();
    if (exe.empty()) throw std::runtime_error("chromium is not installed (scripts/setup.sh installs it)");
    std::unique_ptr<Browser> b(new Browser);
    b->stderr_file_ = profile_dir / "chromium.stderr";
    // --no-sandbox: tests run as root in CI, where Chromium's sandbox refuses to start.
    std::vector<std::string> args{exe.string(),
                                  "--headless=new",
                                  "--no-sandbox",
                                  "--disable-gpu",
                                  "--disable-dev-shm-usage",
                                  "--no-first-run",
                                  "--no-default-browser-check",
                                  "--disable-extensions",
                                  "--remote-debugging-address=127.0.0.1",
                                  "--remote-debugging-port=0",
                                  "--window-size=1200,1100",
                                  "--user-data-dir=" + (profile_dir / "profile").string(),
                                  "about:blank"};
    std::vector<char *> argv;
    for (auto &a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const std::string err = b->stderr_file_.string();
    b->pid_ = ::fork();
    if (b->pid_ == 0) {  // only async-signal-safe calls until exec
        ::setpgid(0, 0);
        const int fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            ::dup2(fd, 1);
            ::dup2(fd, 2);
        }
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    if (b->pid_ < 0) throw std::runtime_error("fork failed");
    ::setpgid(b->pid_, b->pid_);

    // Chromium writes its debugging port into the profile once it listens.
    const auto deadline = Clock::now() + timeout;
    const auto port_file = profile_dir / "profile" / "DevToolsActivePort";
    std::string port;
    while (Clock::now() < deadline) {
        // Two lines, the port and the browser's path: both there means written.
        std::istringstream in(read_file(port_file));
        std::string first, second;
        if (std::getline(in, first) && std::getline(in, second) && !first.empty()) {
            port = first;
            break;
        }
        std::this_thread::sleep_for(50ms);
    }
    if (port.empty()) throw std::runtime_error("chromium did not start:\n" + read_file(b->stderr_file_));
    const auto cdp_port = static_cast<std::uint16_t>(std::stoi(port));

    // The page target (about:blank) and its WebSocket.
    std::string ws_path;
    while (ws_path.empty() && Clock::now() < deadline) {
        auto list = nlohmann::json::parse(get(cdp_port, "/json/list").body, nullptr, false);
        if (list.is_array())
            for (const auto &t : list)
                if (t.value("type", "") == "page") {
                    const std::string url = t.value("webSocketDebuggerUrl", "");
                    const auto slash = url.find('/', std::strlen("ws://"));
                    if (slash != std::string::npos) ws_path = url.substr(slash);
                    break;
                }
        if (ws_path.empty()) std::this_thread::sleep_for(50ms);
    }
    if (ws_path.empty()) throw std::runtime_error("chromium shows no page target");
    b->fd_ = connect_to(cdp_port);
    if (b->fd_ < 0) throw std::runtime_error("cannot connect to chromium's debugging port");
    unsigned char nonce[16];
    random_bytes(nonce);
    const std::string upgrade = "GET " + ws_path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port +
        "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + base64(nonce, sizeof nonce) +
        "\r\nSec-WebSocket-Version: 13\r\n\r\n";
    if (::send(b->fd_, upgrade.data(), upgrade.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(upgrade.size()))
        throw std::runtime_error("cannot send the WebSocket upgrade");
    std::string head;
    while (head.find("\r\n\r\n") == std::string::npos) {
        char c;
        if (!read_exact(b->fd_, &c, 1, deadline)) throw std::runtime_error("no WebSocket upgrade answer");
        head += c;
    }
    if (head.rfind("HTTP/1.1 101", 0) != 0) throw std::runtime_error("WebSocket upgrade refused: " + head);
    return b;
}

Browser::~Browser() {
    if (fd_ >= 0) ::close(fd_);
    if (pid_ > 0) {
        ::kill(-pid_, SIGKILL);  // chromium and its helper processes
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
}

void Browser::send_text(const std::string &text) {
    // A client frame: FIN + text, masked (RFC 6455 5.2).
    std::string frame;
    frame += static_cast<char>(0x81);
    const std::size_t n = text.size();
    if (n < 126) {
        frame += static_cast<char>(0x80 | n);
    } else if (n < 65536) {
        frame += static_cast<char>(0x80 | 126);
        frame += static_cast<char>(n >> 8);
        frame += static_cast<char>(n & 0xff);
    } else {
        frame += static_cast<char>(0x80 | 127);
        for (int i = 7; i >= 0; --i) frame += static_cast<char>((n >> (8 * i)) & 0xff);
    }
    unsigned char mask[4];
    random_bytes(mask);
    frame.append(reinterpret_cast<char *>(mask), 4);
    for (std::size_t i = 0; i < n; ++i) frame += static_cast<char>(text[i] ^ mask[i % 4]);
    if (::send(fd_, frame.data(), frame.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(frame.size()))
        throw std::runtime_error("cannot send to chromium");
}

std::string Browser::receive_message(Clock::time_point deadline) {
    std::string message;
    for (;;) {
        unsigned char h[2];
        if (!read_exact(fd_, h, 2, deadline)) throw std::runtime_error("no message from chromium in time");
        std::uint64_t n = h[1] & 0x7f;
        if (n == 126 || n == 127) {
            unsigned char ext[8];
            const std::size_t k = n == 126 ? 2 : 8;
            if (!read_exact(fd_, ext, k, deadline)) throw std::runtime_error("truncated frame from chromium");
            n = 0;
            for (std::size_t i = 0; i < k; ++i) n = n << 8 | ext[i];
        }
        std::string payload(n, '\0');
        if (n && !read_exact(fd_, payload.data(), n, deadline)) throw std::runtime_error("truncated frame");
        const int opcode = h[0] & 0x0f;
        if (opcode == 0x8) throw std::runtime_error("chromium closed the DevTools connection");
        if (opcode == 0x9 || opcode == 0xa) continue;  // ping/pong: nothing to do for a short test
        message += payload;
        if (h[0] & 0x80) return message;
    }
}

nlohmann::json Browser::call(const std::string &method, const nlohmann::json &params,
                             std::chrono::milliseconds timeout) {
    const int id = next_id_++;
    send_text(nlohmann::json{{"id", id}, {"method", method}, {"params", params}}.dump());
    const auto deadline = Clock::now() + timeout;
    for (;;) {
        auto m = nlohmann::json::parse(receive_message(deadline), nullptr, false);
        if (m.is_discarded() || m.value("id", -1) != id) continue;  // events, and answers to nothing we wait for
        if (m.contains("error")) throw std::runtime_error(method + ": " + m["error"].dump());
        return m.value("result", nlohmann::json::object());
    }
}

nlohmann::json Browser::evaluate(const std::string &expression) {
    auto r = call("Runtime.evaluate", {{"expression", expression}, {"returnByValue", true}});
    if (r.contains("exceptionDetails")) return nullptr;
    return r["result"].value("value", nlohmann::json());
}

std::string Browser::screenshot_png() {
    auto r = call("Page.captureScreenshot", {{"format", "png"}}, 20s);
    return unbase64(r.value("data", ""));
}

}  // namespace harness::web_test
