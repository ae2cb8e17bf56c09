// See router.hpp.
#include "transport/router.hpp"

#include "runtime/log.hpp"
#include "transport/card.hpp"
#include "transport/sockets.hpp"
#include "transport/tcp_driver.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace ftmpi::transport {

namespace {

constexpr uint64_t router_wake_tag = ~uint64_t{0};
constexpr size_t tcp = 0;  // drivers_[0]
// A TCP that carries no peer's frames matters only for its ends of file
// (failures, also seen by the other drivers' own means) and joins: a
// spinning step looks at it once a millisecond, as one epoll_wait costs more
// than a whole step over shared memory. The clock is read every few steps.
constexpr unsigned tcp_clock_every = 64;
constexpr auto tcp_look_period = std::chrono::milliseconds(1);

}  // namespace

// The C sink a driver calls: which driver it is, and the router.
struct Router::Port {
    Router *router;
    size_t index;
    ftmpi_transport_sink sink;

    static Port &of(void *ctx) { return *static_cast<Port *>(ctx); }
    static void on_header(void *ctx, int peer, const ftmpi_frame *f, ftmpi_landing *out) {
        Landing l = of(ctx).router->sink_.on_header(peer, *as_cpp(f));
        *out = {l.dst, l.keep, l.cookie};
    }
    static void on_frame(void *ctx, int peer, const ftmpi_frame *f, const ftmpi_landing *l) {
        of(ctx).router->sink_.on_frame(peer, *as_cpp(f), Landing{l->dst, l->keep, l->cookie});
    }
    static void on_sent(void *ctx, uint64_t token) { of(ctx).router->sink_.on_sent(token); }
    static void on_peer_lost(void *ctx, int peer) { of(ctx).router->lost_from(of(ctx).index, peer); }
    // Replacements and spawned processes join over TCP only (Router::join,
    // join_spawned), so only TCP reports one; a spawned one may be new here.
    static void on_joined(void *ctx, int peer) {
        Router &r = *of(ctx).router;
        if (of(ctx).index != tcp || peer < 0) return;
        r.grow(peer + 1);
        r.route_[peer] = static_cast<int>(tcp);
        r.drivers_[tcp].carries = true;
        r.sink_.on_joined(peer);
    }
};

std::string check_ops(const ftmpi_transport_ops *ops) {
    if (!ops) return "no ops table";
    if (ops->struct_size < offsetof(ftmpi_transport_ops, join)) return "ops table too short";
    if (ops->version != FTMPI_TRANSPORT_VERSION)
        return "interface version " + std::to_string(ops->version) + ", libftmpi speaks " +
            std::to_string(FTMPI_TRANSPORT_VERSION);
    if (!ops->name || !ops->open || !ops->close || !ops->address || !ops->reachable || !ops->eager_limit ||
        !ops->connect || !ops->send || !ops->wait_fd || !ops->prepare_wait || !ops->progress || !ops->wake ||
        !ops->drop || !ops->connected || !ops->bye_received || !ops->flushed)
        return "a required slot is NULL";
    return {};
}

Router::Router(Sink &sink) : sink_(sink) {
    epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
    wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (epoll_fd_ < 0 || wake_fd_ < 0) throw sockets::sys_error("epoll/eventfd");
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = router_wake_tag;
    epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev);
}

Router::~Router() {
    // Plugin drivers first: TCP's end of file must not be seen before a
    // peer could read everything sent through them.
    for (size_t i = drivers_.size(); i-- > 0;)
        if (drivers_[i].state) drivers_[i].ops->close(drivers_[i].state);
    ::close(wake_fd_);
    ::close(epoll_fd_);
}

std::string Router::open(const RouterOptions &o) {
    rank_ = o.rank;
    size_ = o.size;
    ranks_per_node_ = o.ranks_per_node;
    route_.assign(o.size, static_cast<int>(tcp));
    ftmpi_transport_open_args args{};
    args.struct_size = sizeof args;
    args.job = o.job.c_str();
    args.rank = o.rank;
    args.size = o.size;
    args.incarnation = o.incarnation;
    args.round = o.round;
    args.listen_host = o.listen_host.c_str();

    auto open_one = [&](const ftmpi_transport_ops *ops, std::string *why) {
        auto port = std::make_unique<Port>();
        port->router = this;
        port->index = drivers_.size();
        port->sink = {sizeof(ftmpi_transport_sink), port.get(),     Port::on_header, Port::on_frame, Port::on_sent,
                      Port::on_peer_lost,           Port::on_joined};
        Driver d;
        d.ops = ops;
        d.name = ops->name;
        char err[256] = "";
        if (ops->open(&args, &port->sink, &d.state, err, sizeof err) != FTMPI_TRANSPORT_OK) {
            *why = err[0] ? err : "open failed";
            return false;
        }
        d.fd = ops->wait_fd(d.state);
        if (d.fd >= 0) {
            epoll_event ev{};
            ev.events = EPOLLIN;
            ev.data.u64 = drivers_.size();
            epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, d.fd, &ev);
        }
        drivers_.push_back(std::move(d));
        ports_.push_back(std::move(port));
        return true;
    };

    std::string why;
    if (!open_one(tcp_ops(), &why)) throw std::runtime_error("tcp: " + why);
    for (const std::string &name : o.preference) {
        if (name == "tcp") continue;
        auto it = std::find_if(o.plugins.begin(), o.plugins.end(),
                               [&](const ftmpi_transport_ops *ops) { return ops && ops->name && name == ops->name; });
        if (it == o.plugins.end()) continue;  // not loaded: the runtime said why
        if (std::string bad = check_ops(*it); !bad.empty()) {
            log::warn("comm driver %s not used: %s", name.c_str(), bad.c_str());
            continue;
        }
        if (!open_one(*it, &why)) log::warn("comm driver %s not used: %s", name.c_str(), why.c_str());
    }
    // Preference order: the position of each driver's name in the list,
    // TCP last when the list leaves it out.
    auto rank_of = [&](const std::string &name) {
        auto it = std::find(o.preference.begin(), o.preference.end(), name);
        return it == o.preference.end() ? o.preference.size() : static_cast<size_t>(it - o.preference.begin());
    };
    order_.clear();
    for (size_t i = 0; i < drivers_.size(); ++i) order_.push_back(i);
    std::stable_sort(order_.begin(), order_.end(),
                     [&](size_t a, size_t b) { return rank_of(drivers_[a].name) < rank_of(drivers_[b].name); });

    Card card;
    for (const Driver &d : drivers_) {
        char address[512] = "";
        if (d.ops->address(d.state, address, sizeof address) == FTMPI_TRANSPORT_OK) card.add(d.name, address);
    }
    tcp_record_ = card.address("tcp");
    return card.text();
}

void Router::choose_routes(const std::vector<Card> &cards) {
    for (Driver &d : drivers_) d.carries = false;
    for (int p = 0; p < size_; ++p) {
        if (p == rank_) continue;
        const Card &card = cards[p];
        route_[p] = static_cast<int>(tcp);
        const bool other_node = ranks_per_node_ > 0 && p / ranks_per_node_ != rank_ / ranks_per_node_;
        for (size_t i : order_) {
            if (other_node && i != tcp) continue;
            const std::string &address = card.address(drivers_[i].name);
            if (!address.empty() && drivers_[i].ops->reachable(drivers_[i].state, address.c_str())) {
                route_[p] = static_cast<int>(i);
                break;
            }
        }
        drivers_[static_cast<size_t>(route_[p])].carries = true;
    }
}

std::vector<const char *> Router::addresses_for(const std::vector<Card> &cards, const Driver &d) const {
    std::vector<const char *> out(cards.size(), nullptr);
    for (size_t r = 0; r < cards.size(); ++r) out[r] = cards[r].address(d.name).c_str();
    return out;
}

std::vector<Card> Router::parse_cards(const std::vector<std::string> &texts) {
    std::vector<Card> cards;
    for (const std::string &t : texts) cards.push_back(Card::parse(t));
    return cards;
}

void Router::connect(const std::vector<std::string> &texts, std::chrono::milliseconds timeout, const PeerEnded &ended) {
    const std::vector<Card> cards = parse_cards(texts);
    choose_routes(cards);
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    // TCP first (drivers_[tcp]): the built-in mesh can hear that a peer ended
    // meanwhile; the other drivers then leave such a peer out.
    std::vector<int> left_out;
    for (size_t i = 0; i < drivers_.size(); ++i) {
        Driver &d = drivers_[i];
        if (i != tcp && !d.carries) continue;
        std::vector<const char *> addresses = addresses_for(cards, d);
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (i == tcp) {
            left_out = tcp_connect_mesh(d.state, addresses.data(), std::max<long>(left.count(), 1), ended);
            continue;
        }
        std::vector<unsigned char> mine(size_, 0);
        for (int p = 0; p < size_; ++p) mine[p] = p != rank_ && route_[p] == static_cast<int>(i);
        for (int p : left_out) mine[p] = 0;
        char err[512] = "";
        if (d.ops->connect(d.state, addresses.data(), mine.data(), static_cast<int>(std::max<long>(left.count(), 1)),
                           err, sizeof err) != FTMPI_TRANSPORT_OK)
            throw std::runtime_error(d.name + ": " + (err[0] ? err : "connect failed"));
    }
}

std::vector<int> Router::join(const std::vector<std::string> &texts, std::chrono::milliseconds per_peer) {
    // A replacement reaches every peer over TCP, and the survivors reach it
    // over TCP once they admit it (admit below): the join protocol is TCP's,
    // and one medium per pair keeps the frames of the new incarnation in order.
    Driver &t = drivers_[tcp];
    const std::vector<Card> cards = route_all_over_tcp(texts);
    std::vector<const char *> addresses = addresses_for(cards, t);
    std::vector<unsigned char> mine(size_, 1), lost(size_, 0);
    mine[rank_] = 0;
    char err[512] = "";
    if (t.ops->join(t.state, addresses.data(), mine.data(), static_cast<int>(per_peer.count()), lost.data(), err,
                    sizeof err) != FTMPI_TRANSPORT_OK)
        throw std::runtime_error(std::string("tcp: ") + (err[0] ? err : "join failed"));
    std::vector<int> dead;
    for (int p = 0; p < size_; ++p)
        if (lost[p]) dead.push_back(p);
    return dead;
}

int Router::card_incarnation(const std::string &card) {
    return tcp_address_incarnation(Card::parse(card).address("tcp"));
}

int Router::reach_fellow(int peer, const std::string &card, std::chrono::steady_clock::time_point deadline,
                         int *incarnation) const {
    return tcp_reach_fellow(drivers_[tcp].state, peer, Card::parse(card).address("tcp"), deadline, incarnation);
}

bool Router::adopt_fellow(int peer, int fd, int incarnation) {
    return tcp_adopt_fellow(drivers_[tcp].state, peer, fd, incarnation);
}

std::vector<int> Router::join_spawned(const std::vector<std::string> &texts, int first_sibling,
                                      std::chrono::milliseconds per_peer, std::chrono::milliseconds siblings,
                                      const PeerEnded &ended) {
    const std::vector<Card> cards = route_all_over_tcp(texts);
    std::vector<const char *> addresses = addresses_for(cards, drivers_[tcp]);
    return tcp_join_spawned(drivers_[tcp].state, addresses.data(), first_sibling, per_peer.count(), siblings.count(),
                            ended);
}

std::vector<Card> Router::route_all_over_tcp(const std::vector<std::string> &texts) {
    route_.assign(size_, static_cast<int>(tcp));
    for (Driver &d : drivers_) d.carries = false;
    drivers_[tcp].carries = true;
    return parse_cards(texts);
}

void Router::expect_foreign(int peer) {
    grow(peer + 1);
    tcp_expect_foreign(drivers_[tcp].state, peer);
}

int Router::reach_foreign(const std::string &record, int their_world, int alias_there,
                          std::chrono::steady_clock::time_point deadline, int *incarnation) const {
    return tcp_reach_foreign(drivers_[tcp].state, record, their_world, alias_there, deadline, incarnation);
}

bool Router::adopt_foreign(int peer, int fd, int incarnation) {
    grow(peer + 1);
    return tcp_adopt_foreign(drivers_[tcp].state, peer, fd, incarnation);
}

void Router::grow(int n) {
    if (n <= size_) return;
    size_ = n;
    route_.resize(static_cast<size_t>(n), static_cast<int>(tcp));
    drivers_[tcp].carries = true;
    tcp_grow(drivers_[tcp].state, n);
}

SendResult Router::send(int peer, const Frame &f, const void *payload, size_t len, bool copy, uint64_t token) {
    Driver &d = route(peer);
    iovec iov{const_cast<void *>(payload), len};
    int rc = d.ops->send(d.state, peer, as_c(&f), &iov, len ? 1 : 0, copy ? FTMPI_SEND_COPY : 0u, token);
    switch (rc) {
    case FTMPI_TRANSPORT_OK: return SendResult::done;
    case FTMPI_TRANSPORT_PENDING: return SendResult::pending;
    default: return SendResult::peer_lost;
    }
}

size_t Router::eager_limit(int peer) const {
    const Driver &d = route(peer);
    return d.ops->eager_limit(d.state);
}

bool Router::prepare_wait() {
    for (Driver &d : drivers_)
        if (d.ops->prepare_wait(d.state)) return false;
    return true;
}

int Router::wait_events(int timeout_ms) {
    blocked_ = false;
    if (timeout_ms == 0) return 1;  // a spinning step: process_events looks at every driver
    epoll_event events[8];
    int n;
    do {
        n = epoll_wait(epoll_fd_, events, 8, timeout_ms);
    } while (n < 0 && errno == EINTR);
    blocked_ = true;
    woken_ = false;
    for (int i = 0; i < n; ++i)
        if (events[i].data.u64 == router_wake_tag) woken_ = true;
    return n < 0 ? 0 : n;
}

void Router::process_events(int) {
    if (woken_) {
        uint64_t v;
        [[maybe_unused]] ssize_t r = ::read(wake_fd_, &v, sizeof v);
        woken_ = false;
    }
    bool look_at_tcp = drivers_[tcp].carries || blocked_;
    if (!look_at_tcp && ++steps_ % tcp_clock_every == 0) {
        const auto now = std::chrono::steady_clock::now();
        if (now - last_tcp_look_ >= tcp_look_period) {
            look_at_tcp = true;
            last_tcp_look_ = now;
        }
    }
    for (size_t i = 0; i < drivers_.size(); ++i)
        if (i != tcp || look_at_tcp) drivers_[i].ops->progress(drivers_[i].state);
    blocked_ = false;
}

void Router::wake() {
    uint64_t one = 1;
    [[maybe_unused]] ssize_t r = ::write(wake_fd_, &one, sizeof one);
}

void Router::lost_from(size_t driver, int peer) {
    if (peer < 0 || peer >= size_) return;
    if (driver == tcp) {
        // The liveness channel ended: first take in whatever the peer left
        // in the other drivers; a bye among it means a normal end.
        drain(peer);
        if (bye_received(peer)) return;
    }
    for (size_t i = 0; i < drivers_.size(); ++i)
        if (i != driver) drivers_[i].ops->drop(drivers_[i].state, peer);
    sink_.on_peer_lost(peer);
}

void Router::drain(int peer) {
    for (Driver &d : drivers_)
        if (d.ops->struct_size > offsetof(ftmpi_transport_ops, drain) && d.ops->drain) d.ops->drain(d.state, peer);
}

void Router::drop(int peer) {
    for (Driver &d : drivers_) d.ops->drop(d.state, peer);
}

bool Router::bye_received(int peer) const {
    for (const Driver &d : drivers_)
        if (d.ops->bye_received(d.state, peer)) return true;
    return false;
}

bool Router::connected(int peer) const {
    const Driver &d = route(peer);
    return !bye_received(peer) && d.ops->connected(d.state, peer);
}

bool Router::flushed() const {
    for (const Driver &d : drivers_)
        if (!d.ops->flushed(d.state)) return false;
    return true;
}

int Router::incarnation(int peer) const {
    const Driver &d = drivers_[tcp];
    return d.ops->incarnation(d.state, peer);
}

int Router::joining_incarnation(int peer) const {
    const Driver &d = drivers_[tcp];
    return d.ops->joining_incarnation(d.state, peer);
}

bool Router::admit(int peer, int incarnation) {
    Driver &t = drivers_[tcp];
    if (t.ops->admit(t.state, peer, incarnation) != FTMPI_TRANSPORT_OK) return false;
    if (route_[peer] != static_cast<int>(tcp)) {
        route(peer).ops->drop(route(peer).state, peer);  // the predecessor's medium
        route_[peer] = static_cast<int>(tcp);            // the replacement joined over TCP
        t.carries = true;
    }
    return true;
}

const std::string &Router::route_name(int peer) const {
    return route(peer).name;
}

std::string Router::summary() const {
    std::string out;
    for (size_t i : order_) {
        int n = 0;
        for (int p = 0; p < size_; ++p)
            if (p != rank_ && route_[p] == static_cast<int>(i)) ++n;
        if (n == 0) continue;
        if (!out.empty()) out += ", ";
        out += drivers_[i].name + " " + std::to_string(n);
    }
    return out.empty() ? "none" : out;
}

}  // namespace ftmpi::transport
