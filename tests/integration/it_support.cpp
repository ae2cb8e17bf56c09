#include "it_support.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <thread>

extern char **environ;

namespace harness::it {

namespace {

int remaining_ms(Clock::time_point deadline) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left <= 0 ? 0 : static_cast<int>(left);
}

std::string errno_text(const std::string &what) {
    return what + ": " + std::strerror(errno);
}

sockaddr_in inet_address(const Endpoint &where) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(where.port);
    if (::inet_pton(AF_INET, where.host.c_str(), &a.sin_addr) != 1)
        throw std::runtime_error("not an IPv4 address: " + where.host);
    return a;
}

}  // namespace

std::vector<std::string> fast_heartbeat_args() {
    return {"--heartbeat-ms", std::to_string(kHeartbeat.count()), "--heartbeat-timeout-ms",
            std::to_string(kHeartbeatTimeout.count())};
}

Vm start_vm(std::size_t n, const std::vector<std::string> &extra_args, std::chrono::milliseconds formation_timeout) {
    Vm vm;
    vm.dir = std::make_unique<test::TempDir>("hvm");
    vm.key_file = test::write_vm_key(vm.dir->path() / "vm.key");
    for (std::size_t i = 0; i < n; ++i) {
        test::DaemonOptions o;
        o.vm = "itvm";
        o.key_file = vm.key_file;
        o.extra_args = extra_args;
        if (i > 0) {
            o.extra_args.push_back("--join");
            o.extra_args.push_back(vm.daemons.front()->tcp().to_string());
        }
        vm.daemons.push_back(Daemon::start(o));
    }
    if (n > 1) {
        for (auto &d : vm.daemons) {
            auto client = connect(*d);
            if (!wait_for_alive_members(client, n, formation_timeout))
                throw std::runtime_error("daemon " + d->id() + " did not see " + std::to_string(n) +
                                         " alive members in time; stderr:\n" + d->stderr_tail());
        }
    }
    return vm;
}

hlib::ConnectOptions connect_options(const Daemon &d, bool over_tcp) {
    hlib::ConnectOptions o;
    o.root = d.root();
    o.key_file = d.key_file();
    if (over_tcp) o.hcore = d.tcp();
    o.timeout = 5s;
    return o;
}

hlib::VirtualMachine connect(const Daemon &d, bool over_tcp) {
    auto vm = hlib::VirtualMachine::connect(connect_options(d, over_tcp));
    if (!vm) throw std::runtime_error("cannot connect to hcored " + d.id() + ": " + vm.error().describe());
    return std::move(vm.value());
}

std::map<std::string, bool> member_states(hlib::VirtualMachine &vm) {
    std::map<std::string, bool> out;
    auto members = vm.members();
    if (!members) return out;
    for (const auto &m : *members) out[m.id] = m.alive;
    return out;
}

bool wait_for_alive_members(hlib::VirtualMachine &vm, std::size_t n, std::chrono::milliseconds timeout) {
    return test::wait_until(
        [&] {
            auto states = member_states(vm);
            if (states.size() != n) return false;
            for (const auto &[id, alive] : states)
                if (!alive) return false;
            return true;
        },
        timeout);
}

// ------------------------------------------------------------------ frames

std::string Frame::message() const {
    Unpacker u(body);
    std::string s;
    return u.str(s) ? s : std::string();
}

Bytes frame_bytes(const protocol::Header &h, std::span<const std::uint8_t> body) {
    auto hb = protocol::encode_header(h);
    // Sized up front and filled with memcpy: vector::insert after the header
    // trips a GCC 12 -Warray-bounds false positive.
    Bytes out(hb.size() + body.size());
    std::memcpy(out.data(), hb.data(), hb.size());
    if (!body.empty()) std::memcpy(out.data() + hb.size(), body.data(), body.size());
    return out;
}

protocol::Header request_header(protocol::Type type, std::uint64_t request_id, std::size_t body_len) {
    protocol::Header h;
    h.type = static_cast<std::uint8_t>(type);
    h.request_id = request_id;
    h.body_len = static_cast<std::uint32_t>(body_len);
    return h;
}

Bytes call_body(const ComponentName &c, std::string_view function, harness_mode mode, harness_convention conv,
                std::span<const std::uint8_t> args) {
    Packer p;
    p.str(c.package).str(c.component).str(function).i32(mode).i32(conv).bytes(args);
    return p.take();
}

// --------------------------------------------------------------- RawClient

RawClient RawClient::tcp(const Endpoint &where) {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw std::runtime_error(errno_text("socket"));
    auto a = inet_address(where);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
        std::string why = errno_text("connect " + where.to_string());
        ::close(fd);
        throw std::runtime_error(why);
    }
    return RawClient(fd);
}

RawClient RawClient::unix_socket(const std::filesystem::path &path) {
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw std::runtime_error(errno_text("socket"));
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
        std::string why = errno_text("connect " + path.string());
        ::close(fd);
        throw std::runtime_error(why);
    }
    return RawClient(fd);
}

RawClient::RawClient(RawClient &&other) noexcept : fd_(other.fd_), last_error_(std::move(other.last_error_)) {
    other.fd_ = -1;
}

RawClient::~RawClient() {
    close();
}

void RawClient::close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

bool RawClient::send_all(std::span<const std::uint8_t> bytes) {
    const std::uint8_t *p = bytes.data();
    std::size_t n = bytes.size();
    while (n > 0) {
        ssize_t put = ::send(fd_, p, n, MSG_NOSIGNAL);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) {
            last_error_ = errno_text("send");
            return false;
        }
        p += put;
        n -= static_cast<std::size_t>(put);
    }
    return true;
}

bool RawClient::send_frame(const protocol::Header &h, std::span<const std::uint8_t> body) {
    return send_all(frame_bytes(h, body));
}

bool RawClient::read_exact(std::uint8_t *p, std::size_t n, Clock::time_point deadline) {
    while (n > 0) {
        pollfd pfd{fd_, POLLIN, 0};
        int r = ::poll(&pfd, 1, remaining_ms(deadline));
        if (r < 0 && errno == EINTR) continue;
        if (r == 0) {
            last_error_ = "timed out";
            return false;
        }
        ssize_t got = ::recv(fd_, p, n, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got == 0) {
            last_error_ = "closed by the daemon";
            return false;
        }
        if (got < 0) {
            last_error_ = errno_text("recv");
            return false;
        }
        p += got;
        n -= static_cast<std::size_t>(got);
    }
    return true;
}

std::optional<Frame> RawClient::read_frame(std::chrono::milliseconds timeout, std::uint32_t max_body) {
    auto deadline = Clock::now() + timeout;
    protocol::HeaderBytes hb{};
    if (!read_exact(hb.data(), hb.size(), deadline)) return std::nullopt;
    auto h = protocol::decode_header(hb, max_body);
    if (!h) {
        last_error_ = "bad header from the daemon: " + h.error().describe();
        return std::nullopt;
    }
    Frame f{*h, Bytes(h->body_len)};
    if (!read_exact(f.body.data(), f.body.size(), deadline)) return std::nullopt;
    return f;
}

bool RawClient::authenticate(const VmKey &key, std::chrono::milliseconds timeout) {
    auto hello = read_frame(timeout);
    if (!hello) return false;
    if (hello->header.type != static_cast<std::uint8_t>(protocol::Type::hello)) {
        last_error_ = "expected HELLO";
        return false;
    }
    Unpacker u(hello->body);
    std::string vm, id;
    std::span<const std::uint8_t> server_nonce;
    if (!u.str(vm) || !u.str(id) || !u.bytes(server_nonce)) {
        last_error_ = "malformed HELLO";
        return false;
    }
    Nonce client_nonce{};
    random_bytes(client_nonce);
    Packer p;
    p.bytes(client_nonce).bytes(client_proof(key, vm, server_nonce, client_nonce)).str("it_support");
    if (!send_frame(request_header(protocol::Type::auth, 0, p.size()), p.view())) return false;
    auto ok = read_frame(timeout);
    if (!ok) return false;
    if (ok->header.type != static_cast<std::uint8_t>(protocol::Type::auth_ok) || ok->header.status != HARNESS_OK) {
        last_error_ = "authentication refused: " + ok->message();
        return false;
    }
    return true;
}

bool RawClient::wait_closed(std::chrono::milliseconds timeout) {
    auto deadline = Clock::now() + timeout;
    std::uint8_t buf[4096];
    for (;;) {
        pollfd pfd{fd_, POLLIN, 0};
        int r = ::poll(&pfd, 1, remaining_ms(deadline));
        if (r < 0 && errno == EINTR) continue;
        if (r == 0) return false;
        ssize_t got = ::recv(fd_, buf, sizeof buf, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return true;  // EOF or reset
    }
}

// --------------------------------------------------------------- UdpClient

UdpClient::UdpClient(const Endpoint &daemon, const VmKey &key) : key_(key), sealer_(key), opener_(key) {
    fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) throw std::runtime_error(errno_text("socket"));
    auto a = inet_address(daemon);
    if (::connect(fd_, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
        std::string why = errno_text("connect " + daemon.to_string());
        ::close(fd_);
        throw std::runtime_error(why);
    }
}

UdpClient::~UdpClient() {
    if (fd_ >= 0) ::close(fd_);
}

Bytes UdpClient::seal(const protocol::Header &h, std::span<const std::uint8_t> body) {
    return sealer_.seal(frame_bytes(h, body));
}

bool UdpClient::send_datagram(std::span<const std::uint8_t> datagram) {
    return ::send(fd_, datagram.data(), datagram.size(), 0) == static_cast<ssize_t>(datagram.size());
}

std::optional<Frame> UdpClient::receive(std::chrono::milliseconds timeout) {
    auto deadline = Clock::now() + timeout;
    std::vector<std::uint8_t> buf(65536);
    for (;;) {
        pollfd pfd{fd_, POLLIN, 0};
        int r = ::poll(&pfd, 1, remaining_ms(deadline));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return std::nullopt;
        ssize_t got = ::recv(fd_, buf.data(), buf.size(), 0);
        if (got < 0) {
            if (errno == EINTR || errno == ECONNREFUSED) continue;
            return std::nullopt;
        }
        auto opened = opener_.open({buf.data(), static_cast<std::size_t>(got)});
        if (!opened) continue;  // not a valid reply from the daemon: ignore, as Hlib does
        auto h = protocol::decode_header(opened->frame, 1u << 20);
        if (!h || protocol::kHeaderSize + h->body_len != opened->frame.size()) continue;
        auto body = opened->frame.subspan(protocol::kHeaderSize);
        return Frame{*h, Bytes(body.begin(), body.end())};
    }
}

bool UdpClient::ping(std::uint64_t request_id, std::vector<Frame> *earlier, std::chrono::milliseconds timeout) {
    auto deadline = Clock::now() + timeout;
    // Resent every 200 ms (a fresh seal each time, as a client's retry): UDP
    // may drop a datagram even on loopback.
    while (Clock::now() < deadline) {
        if (!send_datagram(seal(request_header(protocol::Type::ping, request_id)))) return false;
        auto until = std::min(deadline, Clock::now() + 200ms);
        while (Clock::now() < until) {
            auto f = receive(std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()));
            if (!f) break;
            if (f->header.request_id == request_id && f->header.is_reply()) return f->header.status == HARNESS_OK;
            if (earlier) earlier->push_back(std::move(*f));
        }
    }
    return false;
}

VmKey read_key(const std::filesystem::path &file) {
    auto k = load_key(file);
    if (!k) throw std::runtime_error("cannot read key " + file.string() + ": " + k.error().describe());
    return k.value();
}

// ------------------------------------------------------------- processes

bool RunResult::exited_ok() const {
    return exit_code() == 0;
}

int RunResult::exit_code() const {
    if (timed_out || wait_status < 0 || !WIFEXITED(wait_status)) return -1;
    return WEXITSTATUS(wait_status);
}

RunResult run_program(const std::vector<std::string> &argv, std::chrono::milliseconds timeout,
                      const std::vector<std::string> &extra_env) {
    RunResult result;
    std::vector<std::string> env;
    for (char **e = environ; *e; ++e) {
        std::string entry(*e);
        // The tests say exactly which daemon and key a tool uses.
        if (entry.rfind("HARNESS_", 0) == 0) continue;
        env.push_back(entry);
    }
    env.insert(env.end(), extra_env.begin(), extra_env.end());
    std::vector<std::string> args = argv;
    std::vector<char *> cargv, cenv;
    for (auto &a : args) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    for (auto &e : env) cenv.push_back(e.data());
    cenv.push_back(nullptr);

    int out[2], err[2];
    if (::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error(errno_text("pipe2"));
    if (::pipe2(err, O_CLOEXEC) != 0) throw std::runtime_error(errno_text("pipe2"));
    int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error(errno_text("fork"));
    if (pid == 0) {
        ::setpgid(0, 0);
        if (null_fd >= 0) ::dup2(null_fd, 0);
        ::dup2(out[1], 1);
        ::dup2(err[1], 2);
        ::execve(cargv[0], cargv.data(), cenv.data());
        ::_exit(127);
    }
    ::setpgid(pid, pid);
    ::close(out[1]);
    ::close(err[1]);
    if (null_fd >= 0) ::close(null_fd);

    auto deadline = Clock::now() + timeout;
    pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    std::string *sinks[2] = {&result.out, &result.err};
    int open_pipes = 2;
    char buf[4096];
    while (open_pipes > 0) {
        int r = ::poll(fds, 2, remaining_ms(deadline));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            result.timed_out = true;
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !fds[i].revents) continue;
            ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                sinks[i]->append(buf, static_cast<std::size_t>(n));
            } else if (n == 0 || errno != EINTR) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open_pipes;
            }
        }
    }
    for (auto &f : fds)
        if (f.fd >= 0) ::close(f.fd);
    // The pipes closed: the program is ending. Give it until the deadline.
    while (!result.timed_out) {
        int status = 0;
        pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            result.wait_status = status;
            return result;
        }
        if (Clock::now() >= deadline) {
            result.timed_out = true;
            break;
        }
        std::this_thread::sleep_for(5ms);
    }
    ::killpg(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    result.wait_status = -1;
    return result;
}

std::filesystem::path hconsole_path() {
#ifdef HCONSOLE_PATH
    return HCONSOLE_PATH;
#else
    return {};
#endif
}

bool process_alive(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return false;
    // "pid (comm) S …": the state follows the last ')'.
    auto close_paren = line.rfind(')');
    if (close_paren == std::string::npos || close_paren + 2 >= line.size()) return false;
    char state = line[close_paren + 2];
    return state != 'Z' && state != 'X';
}

}  // namespace harness::it
