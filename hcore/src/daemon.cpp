#include "daemon.hpp"

#include "detach.hpp"
#include "host_api.hpp"
#include "published_records.hpp"
#include "stream_session.hpp"
#include "udp_endpoint.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <sys/resource.h>

namespace harness::hcore {

namespace asio = boost::asio;
using asio::ip::tcp;
using asio::ip::udp;

namespace {

std::string new_member_id() {
    std::uint8_t b[4];
    random_bytes(b);
    return to_hex(b);
}

}  // namespace

Daemon::Daemon(Settings settings, Logger &log, std::shared_ptr<Fetcher> fetcher,
               std::shared_ptr<PluginDirectory> directory)
    : settings_(std::move(settings)), log_(log), id_(new_member_id()), stop_signals_(io_, SIGTERM, SIGINT),
      tcp_acceptor_(io_), unix_acceptor_(io_), reaper_(io_), directory_(std::move(directory)) {
    root_text_ = settings_.root.string();
    key_file_text_ = settings_.key_file.string();
    host_api_ = make_daemon_host_api(this);
    Resolver resolver(settings_.root, std::move(fetcher));
    resolver.set_search_path(settings_.plugin_path);
    registry_ = std::make_unique<PluginRegistry>(std::move(resolver), &host_api_, log_);
    registry_->set_one_per_vm_check([this](const ComponentName &n) { return check_one_per_vm(n); });
    invoker_ = std::make_unique<Invoker>(io_, reaper_, &host_api_, log_);
    directory_->set_stored([this]() -> std::vector<PublishedPlugin> {
        if (!drd_loaded()) return {};  // never loads the DRD just to look
        return read_published_records(&host_api_);
    });
}

bool Daemon::drd_loaded() const {
    return registry_->find(ComponentName{"vm", "drd"}) != nullptr;
}

Daemon::~Daemon() {
    background_.join();
    directory_->set_stored(nullptr);
    member_records_.reset();
    invoker_.reset();
    registry_.reset();
    reaper_.kill_all();
}

Result<void> Daemon::bind_listeners() {
    boost::system::error_code ec;
    auto address = asio::ip::make_address(settings_.listen.host, ec);
    if (ec)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          "--listen needs a numeric address, got " + settings_.listen.host);
    // With port 0 the TCP port is picked first and UDP takes the same number;
    // retry if that UDP port happens to be taken.
    for (int attempt = 0; attempt < 20; ++attempt) {
        tcp::acceptor acceptor(io_);
        tcp::endpoint want(address, settings_.listen.port);
        acceptor.open(want.protocol(), ec);
        if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
        if (!ec) acceptor.bind(want, ec);
        if (ec)
            return make_error(HARNESS_ERR_BUSY,
                              "cannot listen on TCP " + settings_.listen.to_string() + ": " + ec.message());
        std::uint16_t port = acceptor.local_endpoint().port();
        udp::socket socket(io_);
        socket.open(want.protocol() == tcp::v4() ? udp::v4() : udp::v6(), ec);
        if (!ec) socket.bind(udp::endpoint(address, port), ec);
        if (ec) {
            if (settings_.listen.port == 0) continue;
            return make_error(HARNESS_ERR_BUSY,
                              "cannot listen on UDP " + settings_.listen.to_string() + ": " + ec.message());
        }
        acceptor.listen(asio::socket_base::max_listen_connections, ec);
        if (ec) return make_error(HARNESS_ERR_BUSY, "listen: " + ec.message());
        tcp_acceptor_ = std::move(acceptor);
        tcp_address_ = Endpoint{settings_.listen.host, port};
        udp_address_ = tcp_address_;
        udp_ = std::make_unique<UdpEndpoint>(*this, std::move(socket), key_);
        break;
    }
    if (!udp_) return make_error(HARNESS_ERR_BUSY, "cannot find a port free for both TCP and UDP");

    // The root lock is held, so a socket file left here is stale.
    auto path = settings_.unix_socket();
    if (path.string().size() >= sizeof(sockaddr_un::sun_path))
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          "the Unix socket path " + path.string() + " is too long; use a shorter --root");
    std::error_code fs_ec;
    std::filesystem::remove(path, fs_ec);
    asio::local::stream_protocol::acceptor unix_acceptor(io_);
    unix_acceptor.open(asio::local::stream_protocol(), ec);
    if (!ec) unix_acceptor.bind(asio::local::stream_protocol::endpoint(path.string()), ec);
    if (!ec) unix_acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) return make_error(HARNESS_ERR_BUSY, "cannot listen on " + path.string() + ": " + ec.message());
    std::filesystem::permissions(path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write, fs_ec);
    unix_acceptor_ = std::move(unix_acceptor);
    return {};
}

int Daemon::run(ReadyReporter &ready) {
    auto fail = [&](const Error &e) {
        ready.failed(e.message);
        return 1;
    };
    auto lock = RootLock::acquire(settings_.root);
    if (!lock) return fail(lock.error());
    lock_.emplace(std::move(lock.value()));
    auto key = load_or_create_key(settings_.key_file);
    if (!key) return fail(key.error());
    key_ = std::move(key.value());
    if (auto bound = bind_listeners(); !bound) return fail(bound.error());
    max_sessions_ = settings_.max_connections;
    if (max_sessions_ == 0) {
        // Keep a reserve of descriptors for plugins, handler processes,
        // peers and fetches; the rest may be client connections.
        constexpr rlim_t kReserve = 48;
        rlimit limit{};
        ::getrlimit(RLIMIT_NOFILE, &limit);
        rlim_t usable = limit.rlim_cur > kReserve + 16 ? limit.rlim_cur - kReserve : 16;
        max_sessions_ = static_cast<int>(std::min<rlim_t>(usable, 1 << 20));
    }

    MemberInfo self{id_, tcp_address_, udp_address_, true, SteadyClock::now(), {}};
    membership_ = std::make_unique<Membership>(io_, self, settings_.vm, settings_.heartbeat_period,
                                               settings_.heartbeat_timeout, log_);
    log_.set_prefix("hcored[" + id_ + "]");
    if (settings_.join) {
        if (auto joined = join_vm(*settings_.join); !joined) return fail(joined.error());
    }
    for (const auto &text : settings_.preload) {
        auto name = parse_component_name(text);
        if (!name) return fail(name.error());
        if (auto loaded = registry_->load(*name); !loaded)
            return fail(
                make_error(loaded.error().status, "cannot load " + text + " at start: " + loaded.error().describe()));
    }

    member_records_ = std::make_unique<MemberRecords>(
        id_, [this] { return membership_->snapshot(); }, [this] { return drd_loaded(); }, &host_api_, log_);
    membership_->subscribe([this](const std::string &, bool) {
        if (member_records_) member_records_->changed();
    });
    membership_->start([this](const Endpoint &to, Bytes body) { send_heartbeat(to, std::move(body)); },
                       [this] {
                           std::vector<ComponentName> names;
                           for (const auto *p : registry_->all()) names.push_back(p->name);
                           return names;
                       });
    udp_->start();
    accept_tcp();
    accept_unix();
    stop_signals_.async_wait([this](const boost::system::error_code &ec, int sig) {
        if (ec) return;
        log_.info(std::string("received ") + (sig == SIGTERM ? "SIGTERM" : "SIGINT") + ", stopping");
        request_stop();
    });

    auto announce = [this, &ready] {
        ready.ready("hcored ready vm=" + settings_.vm + " id=" + id_ + " tcp=" + tcp_address_.to_string() +
                    " udp=" + udp_address_.to_string() + " unix=" + settings_.unix_socket().string());
        log_.info("serving VM " + settings_.vm + " on tcp/udp " + tcp_address_.to_string());
    };
    if (settings_.services.empty()) {
        announce();
    } else {
        // The services load while the daemon already serves: their init may
        // need heartbeats and requests to flow (the DRD reaches its peers).
        // The ready line waits for them, so a ready VM offers its services.
        asio::post(background_, [this, announce] {
            load_services();
            asio::post(io_, announce);
        });
    }
    io_.run();

    // Orderly end: no new work, plugins' fini, children killed and reaped.
    background_.join();
    member_records_.reset();
    invoker_->shutdown();
    registry_->unload_all();
    reaper_.kill_all();
    std::error_code ec;
    std::filesystem::remove(settings_.unix_socket(), ec);
    log_.info("stopped");
    return 0;
}

void Daemon::request_stop() {
    if (stopping_) return;
    stopping_ = true;
    // The others hear it now rather than after the heartbeat timeout.
    if (membership_) membership_->announce_leave();
    boost::system::error_code ignored;
    tcp_acceptor_.close(ignored);
    unix_acceptor_.close(ignored);
    stop_signals_.cancel(ignored);
    if (membership_) membership_->stop();
    if (udp_) udp_->close();
    io_.stop();
}

void Daemon::accept_tcp() {
    tcp_acceptor_.async_accept([this](const boost::system::error_code &ec, tcp::socket socket) {
        if (ec == asio::error::operation_aborted || stopping_) return;
        if (!ec) {
            boost::system::error_code ignored;
            if (too_many_sessions()) {
                socket.close(ignored);
                return accept_tcp();
            }
            socket.set_option(tcp::no_delay(true), ignored);
            auto peer = socket.remote_endpoint(ignored);
            std::string who = peer.address().to_string() + ":" + std::to_string(peer.port());
            std::make_shared<StreamSession<tcp::socket>>(*this, std::move(socket), Via::tcp, who)->start();
        } else {
            return accept_later(ec, [this] { accept_tcp(); });
        }
        accept_tcp();
    });
}

void Daemon::accept_unix() {
    unix_acceptor_.async_accept(
        [this](const boost::system::error_code &ec, asio::local::stream_protocol::socket socket) {
            if (ec == asio::error::operation_aborted || stopping_) return;
            if (!ec && too_many_sessions()) {
                boost::system::error_code ignored;
                socket.close(ignored);
            } else if (!ec) {
                std::make_shared<StreamSession<asio::local::stream_protocol::socket>>(*this, std::move(socket),
                                                                                      Via::unix_socket, "unix socket")
                    ->start();
            } else {
                return accept_later(ec, [this] { accept_unix(); });
            }
            accept_unix();
        });
}

bool Daemon::too_many_sessions() {
    if (open_sessions_ < max_sessions_) return false;
    auto now = SteadyClock::now();
    if (now - last_refusal_log_ > std::chrono::seconds(1)) {
        log_.warning("refusing connections: " + std::to_string(open_sessions_) + " open, the limit is " +
                     std::to_string(max_sessions_) + " (--max-connections)");
        last_refusal_log_ = now;
    }
    return true;
}

void Daemon::accept_later(const boost::system::error_code &ec, std::function<void()> accept) {
    // Out of descriptors (EMFILE) the listening socket stays readable, so
    // accepting again at once would spin and flood the log; pause instead.
    constexpr auto kPause = std::chrono::milliseconds(100);
    log_.warning("accept failed: " + ec.message() + "; retrying in " + std::to_string(kPause.count()) + " ms");
    auto timer = std::make_shared<asio::steady_timer>(io_, kPause);
    timer->async_wait([this, timer, accept = std::move(accept)](const boost::system::error_code &) {
        if (!stopping_) accept();
    });
}

void Daemon::send_heartbeat(const Endpoint &to, Bytes body) {
    boost::system::error_code ec;
    auto address = asio::ip::make_address(to.host, ec);
    if (ec) return log_.warning("cannot heartbeat " + to.to_string() + ": not a numeric address");
    protocol::Header h{static_cast<std::uint8_t>(protocol::Type::heartbeat), 0, 0,
                       static_cast<std::uint32_t>(body.size()), 0};
    auto hb = protocol::encode_header(h);
    Bytes frame(hb.begin(), hb.end());
    frame.insert(frame.end(), body.begin(), body.end());
    udp_->send_frame(udp::endpoint(address, to.port), frame);
}

void Daemon::load_services() {
    for (const auto &text : settings_.services) {
        if (stopping_) return;
        auto name = parse_component_name(text);
        auto loaded = name ? registry_->load(*name) : Result<const LoadedPlugin *>(name.error());
        if (!loaded)
            log_.warning("VM service " + text + " not loaded, the daemon runs without it: " +
                         loaded.error().describe() + " (see --services and --plugin-path)");
    }
}

std::vector<MemberInfo> Daemon::members() const {
    std::vector<MemberInfo> out;
    if (membership_) {
        out = membership_->snapshot();
    } else {
        out.push_back(MemberInfo{id_, tcp_address_, udp_address_, true, SteadyClock::now(), {}});
    }
    std::sort(out.begin(), out.end(), [](const MemberInfo &a, const MemberInfo &b) { return a.id < b.id; });
    return out;
}

Result<const LoadedPlugin *> Daemon::find_or_load(const ComponentName &name) {
    // The common case takes only the registry's shared lock.
    if (const auto *p = registry_->find(name)) return p;
    return registry_->load(name);
}

void Daemon::handle_heartbeat(std::span<const std::uint8_t> body) {
    membership_->handle_heartbeat(body);
}

void Daemon::in_background(std::function<Reply()> work, ReplyFn done) {
    asio::post(background_, [this, work = std::move(work), done = std::move(done)]() mutable {
        Reply r = work();
        asio::post(io_, [done = std::move(done), r = std::move(r)]() mutable { done(std::move(r)); });
    });
}

}  // namespace harness::hcore
