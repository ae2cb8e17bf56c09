// One client connection over TCP or the Unix socket.
//
// The session greets with HELLO, requires AUTH (the VM-key challenge) before
// anything else, then reads frames and hands each request to the daemon, one
// at a time: the next frame is parsed only after the previous reply went out,
// which keeps per-connection order and lets RAW calls borrow the socket.
// Malformed input gets an error reply where the frame could be read, and the
// connection is closed where it could not; the daemon itself never stops.
#pragma once

#include "request_context.hpp"

#include <harness/common/crypto.hpp>
#include <harness/common/protocol.hpp>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/steady_timer.hpp>

#include <memory>
#include <string>

namespace harness::hcore {

class Daemon;

template <class Socket>
class StreamSession : public std::enable_shared_from_this<StreamSession<Socket>>, private RawChannel {
public:
    StreamSession(Daemon &daemon, Socket socket, Via via, std::string peer);
    ~StreamSession() override;
    void start();

private:
    void read_more();
    void process_buffer();
    void handle_frame(const protocol::Header &h, std::span<const std::uint8_t> body);
    void handle_auth(const protocol::Header &h, std::span<const std::uint8_t> body);
    void send(const protocol::Header &h, Bytes body, bool close_after);
    void reply_error(const protocol::Header &request, int status, const std::string &message, bool close_after);
    void close();
    void arm_auth_deadline();

    int begin(std::chrono::milliseconds io_timeout) override;
    void end() override;

    Daemon &daemon_;
    Socket socket_;
    boost::asio::steady_timer auth_deadline_;
    Via via_;
    std::string peer_;
    Nonce server_nonce_{};
    bool authenticated_ = false;
    bool busy_ = false;  // a request is being handled
    bool closing_ = false;
    bool reading_ = false;  // an async read is outstanding (never more than one)
    Bytes in_;              // received, not yet parsed; starts at in_start_
    std::size_t in_start_ = 0;
    std::size_t in_end_ = 0;
    std::uint64_t current_request_id_ = 0;  // of the request being handled
};

}  // namespace harness::hcore
