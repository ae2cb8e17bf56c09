// VirtualMachine::fan_out: one request to many daemons, replies gathered with
// a single poll() loop so that a slow or dead daemon costs its own deadline
// and nothing more.
#include "io.hpp"

#include <harness/hlib/hlib.hpp>

#include <algorithm>
#include <future>

#include <poll.h>

namespace harness::hlib {

using namespace detail;

std::vector<std::pair<std::string, Error>> VirtualMachine::open_in_parallel(const std::vector<Target> &targets,
                                                                            Transport transport, Deadline deadline) {
    bool via_udp = transport == Transport::udp;
    std::vector<const Target *> missing;
    for (const auto &t : targets) {
        if (!via_udp && t.member_id == local_id()) continue;
        std::string key = (via_udp ? "udp:" : "tcp:") + t.member_id;
        bool have = std::any_of(peers_.begin(), peers_.end(),
                                [&](const auto &p) { return p.first == key && p.second->connection().is_open(); });
        bool queued =
            std::any_of(missing.begin(), missing.end(), [&](const Target *m) { return m->member_id == t.member_id; });
        if (!have && !queued) missing.push_back(&t);
    }
    std::vector<std::pair<std::string, Error>> failures;
    if (missing.size() < 2 || via_udp) return failures;  // UDP opens never wait; one TCP open can go inline

    std::vector<std::future<Result<Connection>>> opening;
    for (const Target *t : missing)
        opening.push_back(std::async(std::launch::async,
                                     [this, t, deadline] { return Connection::open_tcp(t->tcp, key_, deadline); }));
    for (std::size_t i = 0; i < missing.size(); ++i) {
        auto conn = opening[i].get();
        const std::string &id = missing[i]->member_id;
        if (!conn) {
            failures.emplace_back(id, conn.error());
        } else if (conn->peer_id() != id) {
            failures.emplace_back(id,
                                  make_error(HARNESS_ERR_UNREACHABLE,
                                             "member " + id + " is no longer at " + missing[i]->tcp.to_string()));
        } else {
            // Nothing is in flight yet, so a closed entry can be replaced.
            std::erase_if(peers_, [&](const auto &p) { return p.first == "tcp:" + id; });
            peers_.emplace_back("tcp:" + id, std::make_unique<Daemon>(std::move(*conn)));
        }
    }
    return failures;
}

std::vector<PerDaemon<Bytes>> VirtualMachine::fan_out(const std::vector<Target> &targets, protocol::Type type,
                                                      Transport transport, Deadline deadline) {
    std::vector<PerDaemon<Bytes>> out;
    out.reserve(targets.size());
    for (const auto &t : targets)
        out.push_back(
            {t.member_id, make_error(HARNESS_ERR_TIMEOUT, "no reply from " + t.member_id + " before the deadline")});

    struct Waiting {
        std::size_t index;
        Connection *conn;
        std::uint64_t request_id;
    };
    std::vector<Waiting> waiting;
    auto failures = open_in_parallel(targets, transport, deadline);

    // Send everything first.
    for (std::size_t i = 0; i < targets.size(); ++i) {
        const Target &t = targets[i];
        auto failed_member = std::find_if(members_.begin(), members_.end(),
                                          [&](const Member &m) { return m.id == t.member_id && !m.alive; });
        if (failed_member != members_.end()) {
            out[i].result = make_error(HARNESS_ERR_MEMBER_FAILED, t.member_id + " was declared failed by the VM");
            continue;
        }
        auto failure =
            std::find_if(failures.begin(), failures.end(), [&](const auto &f) { return f.first == t.member_id; });
        if (failure != failures.end()) {
            out[i].result = failure->second;
            continue;
        }
        auto d = daemon_at(t.member_id, t.tcp, t.udp, transport, deadline);
        if (!d) {
            out[i].result = d.error();
            continue;
        }
        auto id = (*d)->connection().send_request(type, t.body, deadline);
        if (!id) {
            out[i].result = id.error();
            continue;
        }
        waiting.push_back({i, &(*d)->connection(), *id});
    }

    // Then gather.
    while (!waiting.empty()) {
        for (auto it = waiting.begin(); it != waiting.end();) {
            auto r = it->conn->try_receive_reply(it->request_id, deadline);
            if (r && !r->has_value()) {
                ++it;
                continue;
            }
            if (r)
                out[it->index].result = std::move(**r);
            else
                out[it->index].result = r.error();
            it = waiting.erase(it);
        }
        if (waiting.empty() || Clock::now() >= deadline) break;
        std::vector<pollfd> fds;
        auto wake = deadline;
        for (const auto &w : waiting) {
            fds.push_back({w.conn->fd(), POLLIN, 0});
            wake = std::min(wake, w.conn->wakeup_time());
        }
        if (::poll(fds.data(), fds.size(), remaining_ms(wake)) < 0 && errno != EINTR) break;
    }
    // Still waiting at the deadline: the TIMEOUT set above stands, and a late
    // reply will be dropped.
    for (auto &w : waiting) w.conn->abandon(w.request_id);

    bool peer_silent = false;
    for (std::size_t i = 0; i < targets.size(); ++i) {
        int status = out[i].result ? HARNESS_OK : out[i].result.error().status;
        if ((status == HARNESS_ERR_UNREACHABLE || status == HARNESS_ERR_TIMEOUT) && targets[i].member_id != local_id())
            peer_silent = true;
    }
    if (peer_silent)
        for (std::size_t i = 0; i < targets.size(); ++i)
            if (!out[i].result)
                out[i].result = refine_peer_error(targets[i].member_id, out[i].result.error(), deadline);
    return out;
}

}  // namespace harness::hlib
