// fake_daemon.hpp — a stand-in for hcored in Hlib's unit tests.
//
// It speaks the wire protocol of protocol.hpp: the TCP (or Unix) handshake
// with its mutual HMAC proof, framed requests, and sealed UDP datagrams, and
// answers every request through a handler the test supplies (which may delay
// or drop replies). Threads: one acceptor, one per connection, one for UDP.
#pragma once

#include <harness/common/crypto.hpp>
#include <harness/common/endpoint.hpp>
#include <harness/common/pack.hpp>
#include <harness/common/protocol.hpp>
#include <harness/common/udp_seal.hpp>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace fake {

// Milliseconds since t, for the tests' timing bounds.
inline double ms_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

using harness::Bytes;
using namespace std::chrono_literals;

struct Reply {
    int status = HARNESS_OK;
    Bytes body;  // for an error: leave empty, message is used
    std::string message;
    std::chrono::milliseconds delay{0};
    bool drop = false;  // never answer
};
using Handler = std::function<Reply(std::uint8_t type, std::span<const std::uint8_t> body)>;

inline harness::VmKey test_key(std::uint8_t fill = 7) {
    return harness::VmKey{Bytes(32, fill)};
}

inline bool read_full(int fd, std::uint8_t *p, std::size_t n) {
    while (n) {
        ssize_t r = ::recv(fd, p, n, 0);
        if (r <= 0) return false;
        p += r;
        n -= static_cast<std::size_t>(r);
    }
    return true;
}

inline bool write_full(int fd, const Bytes &b) {
    std::size_t done = 0;
    while (done < b.size()) {
        ssize_t r = ::send(fd, b.data() + done, b.size() - done, MSG_NOSIGNAL);
        if (r <= 0) return false;
        done += static_cast<std::size_t>(r);
    }
    return true;
}

inline Bytes frame(std::uint8_t type, std::uint16_t flags, std::uint64_t id, int status,
                   std::span<const std::uint8_t> body) {
    harness::protocol::Header h;
    h.type = type;
    h.flags = flags;
    h.request_id = id;
    h.status = status;
    h.body_len = static_cast<std::uint32_t>(body.size());
    auto head = harness::protocol::encode_header(h);
    Bytes out(head.begin(), head.end());
    out.insert(out.end(), body.begin(), body.end());
    return out;
}

inline bool read_frame(int fd, harness::protocol::Header &h, Bytes &body) {
    harness::protocol::HeaderBytes head{};
    if (!read_full(fd, head.data(), head.size())) return false;
    auto d = harness::protocol::decode_header(head, harness::protocol::kDefaultMaxBody);
    if (!d) return false;
    h = *d;
    body.assign(h.body_len, 0);
    return body.empty() || read_full(fd, body.data(), body.size());
}

inline Bytes reply_frame(const harness::protocol::Header &req, const Reply &r) {
    Bytes body = r.body;
    if (r.status != HARNESS_OK && body.empty()) {
        harness::Packer p;
        p.str(r.message);
        body = p.take();
    }
    return frame(req.type, harness::protocol::kFlagReply, req.request_id, r.status, body);
}

class Daemon {
public:
    struct Options {
        std::string id = "fake";
        std::string vm = "testvm";
        harness::VmKey key = test_key();
        bool honest = true;               // false: AUTH_OK carries a wrong proof
        bool silent = false;              // accept connections but never say HELLO
        std::filesystem::path unix_path;  // listen there instead of TCP
    };

    Daemon(Options o, Handler handler) : o_(std::move(o)), handler_(std::move(handler)) {
        if (o_.unix_path.empty()) {
            listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
            int one = 1;
            ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
            sockaddr_in a{};
            a.sin_family = AF_INET;
            a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            ::bind(listen_fd_, reinterpret_cast<sockaddr *>(&a), sizeof a);
            socklen_t len = sizeof a;
            ::getsockname(listen_fd_, reinterpret_cast<sockaddr *>(&a), &len);
            port_ = ntohs(a.sin_port);
            // UDP on the same port number, as hcored does.
            udp_fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
            ::bind(udp_fd_, reinterpret_cast<sockaddr *>(&a), sizeof a);
        } else {
            listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
            sockaddr_un a{};
            a.sun_family = AF_UNIX;
            std::strncpy(a.sun_path, o_.unix_path.c_str(), sizeof a.sun_path - 1);
            ::unlink(o_.unix_path.c_str());
            ::bind(listen_fd_, reinterpret_cast<sockaddr *>(&a), sizeof a);
        }
        ::listen(listen_fd_, 16);
        accept_thread_ = std::thread([this] { accept_loop(); });
        if (udp_fd_ >= 0) udp_thread_ = std::thread([this] { udp_loop(); });
    }

    ~Daemon() { stop(); }

    // Closes everything, like a killed daemon.
    void stop() {
        if (stopping_.exchange(true)) return;
        accept_thread_.join();  // no new connections after this
        if (udp_thread_.joinable()) udp_thread_.join();
        {
            std::lock_guard lock(mutex_);
            for (int fd : connections_) ::shutdown(fd, SHUT_RDWR);
        }
        for (auto &t : threads_) t.join();
        std::lock_guard lock(mutex_);
        for (int fd : connections_) ::close(fd);
        connections_.clear();
        ::close(listen_fd_);
        if (udp_fd_ >= 0) ::close(udp_fd_);
    }

    harness::Endpoint endpoint() const { return {"127.0.0.1", port_}; }
    const std::string &id() const { return o_.id; }
    int requests(std::uint8_t type) const { return counts_[type].load(); }
    std::vector<std::uint64_t> udp_request_ids() {
        std::lock_guard lock(mutex_);
        return udp_ids_;
    }
    std::atomic<int> udp_drop_first{0};  // datagrams to ignore before answering

private:
    void accept_loop() {
        while (!stopping_) {
            pollfd p{listen_fd_, POLLIN, 0};
            if (::poll(&p, 1, 20) <= 0) continue;
            int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd < 0) continue;
            std::lock_guard lock(mutex_);
            connections_.push_back(fd);
            threads_.emplace_back([this, fd] { serve(fd); });
        }
    }

    void serve(int fd) {
        using harness::protocol::Type;
        if (o_.silent) {
            while (!stopping_) std::this_thread::sleep_for(10ms);
            return;
        }
        harness::Nonce server_nonce{};
        harness::random_bytes(server_nonce);
        harness::Packer hello;
        hello.str(o_.vm).str(o_.id).bytes(server_nonce);
        if (!write_full(fd, frame(static_cast<std::uint8_t>(Type::hello), 0, 0, 0, hello.view()))) return;
        harness::protocol::Header h;
        Bytes body;
        if (!read_frame(fd, h, body) || h.type != static_cast<std::uint8_t>(Type::auth)) return;
        harness::Unpacker u(body);
        std::span<const std::uint8_t> client_nonce, mac;
        std::string client;
        if (!u.bytes(client_nonce) || !u.bytes(mac) || !u.str(client)) return;
        auto expected = harness::client_proof(o_.key, o_.vm, server_nonce, client_nonce);
        if (!harness::equal_constant_time(expected, mac)) {
            ::shutdown(fd, SHUT_RDWR);  // as hcored: refuse and close
            return;
        }
        auto proof = harness::server_proof(o_.key, o_.vm, client_nonce, server_nonce);
        if (!o_.honest) proof[0] ^= 1;
        harness::Packer ok;
        ok.bytes(proof);
        if (!write_full(fd, frame(static_cast<std::uint8_t>(Type::auth_ok), 0, 0, 0, ok.view()))) return;
        while (!stopping_ && read_frame(fd, h, body)) {
            counts_[h.type]++;
            Reply r = handler_(h.type, body);
            if (r.drop) continue;
            if (r.delay.count()) std::this_thread::sleep_for(r.delay);
            if (!write_full(fd, reply_frame(h, r))) return;
        }
    }

    void udp_loop() {
        harness::UdpOpener opener(o_.key);
        harness::UdpSealer sealer(o_.key);
        std::vector<std::uint8_t> buf(65536);
        while (!stopping_) {
            pollfd p{udp_fd_, POLLIN, 0};
            if (::poll(&p, 1, 20) <= 0) continue;
            sockaddr_storage from{};
            socklen_t from_len = sizeof from;
            ssize_t n = ::recvfrom(udp_fd_, buf.data(), buf.size(), 0, reinterpret_cast<sockaddr *>(&from), &from_len);
            if (n <= 0) continue;
            auto opened = opener.open(std::span<const std::uint8_t>(buf.data(), static_cast<std::size_t>(n)));
            if (!opened) continue;
            auto h = harness::protocol::decode_header(opened->frame, harness::protocol::kDefaultMaxBody);
            if (!h) continue;
            {
                std::lock_guard lock(mutex_);
                udp_ids_.push_back(h->request_id);
            }
            if (udp_drop_first > 0) {
                --udp_drop_first;
                continue;
            }
            counts_[h->type]++;
            Reply r = handler_(h->type, opened->frame.subspan(harness::protocol::kHeaderSize));
            if (r.drop) continue;
            if (r.delay.count()) std::this_thread::sleep_for(r.delay);
            Bytes datagram = sealer.seal(reply_frame(*h, r));
            ::sendto(udp_fd_, datagram.data(), datagram.size(), 0, reinterpret_cast<sockaddr *>(&from), from_len);
        }
    }

    Options o_;
    Handler handler_;
    int listen_fd_ = -1;
    int udp_fd_ = -1;
    std::uint16_t port_ = 0;
    std::atomic<bool> stopping_{false};
    std::mutex mutex_;
    std::vector<int> connections_;
    std::thread accept_thread_;
    std::thread udp_thread_;
    std::vector<std::thread> threads_;  // one per connection
    std::vector<std::uint64_t> udp_ids_;
    std::atomic<int> counts_[256] = {};
};

// A port with nothing listening (bound then closed).
inline std::uint16_t closed_port(int type = SOCK_STREAM) {
    int fd = ::socket(AF_INET, type, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len);
    ::close(fd);
    return ntohs(a.sin_port);
}

}  // namespace fake
