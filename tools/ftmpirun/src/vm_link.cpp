#include "vm_link.hpp"

#include <harness/hlib/busy_retry.hpp>

namespace harness::ftmpirun {

namespace {

using namespace std::chrono_literals;
const ComponentName kEvents{"vm", "events"};
constexpr std::chrono::milliseconds kDaemonConnectTimeout{3000};
constexpr std::chrono::milliseconds kRequestTimeout{10000};
// How much longer than its own wait a long poll may take before its daemon
// counts as in trouble: short, because the job's end waits for the poll.
constexpr std::chrono::milliseconds kLongPollGrace{2000};

// The daemon itself is in trouble (not the request): try another one.
bool daemon_trouble(const Error &e) {
    return e.status == HARNESS_ERR_UNREACHABLE || e.status == HARNESS_ERR_TIMEOUT ||
        e.status == HARNESS_ERR_MEMBER_FAILED || e.status == HARNESS_ERR_PROTOCOL;
}

}  // namespace

template <class Op>
auto VmLink::with_daemon(Op op) -> decltype(op(std::declval<hlib::Daemon &>())) {
    Error last = make_error(HARNESS_ERR_UNREACHABLE, "no daemon to ask");
    for (std::size_t tried = 0; tried < daemons_.size(); ++tried) {
        if (!daemon_) {
            const auto &d = daemons_[current_];
            auto conn = hlib::Connection::open_tcp(d.tcp, key_, hlib::deadline_in(kDaemonConnectTimeout));
            if (!conn) {
                last = conn.error();
                current_ = (current_ + 1) % daemons_.size();
                continue;
            }
            daemon_.emplace(std::move(conn).value());
        }
        auto r = op(*daemon_);
        if (r || !daemon_trouble(r.error())) return r;
        last = r.error();
        daemon_.reset();
        current_ = (current_ + 1) % daemons_.size();
    }
    return last;
}

Result<std::int64_t> VmLink::publish(const std::string &topic, std::span<const std::uint8_t> payload) {
    Packer args;
    args.str(topic).bytes(payload);
    return with_daemon([&](hlib::Daemon &d) -> Result<std::int64_t> {
        // Failure notices are published just after a member failed, when the
        // DRD under vm/events may have no leader; a notice that lands twice
        // says the same thing twice.
        auto r = hlib::call_while_busy(d, kEvents, "publish", args.view(), hlib::deadline_in(kRequestTimeout));
        if (!r) return r.error();
        Unpacker u(*r);
        std::int64_t seq = 0;
        if (!u.i64(seq)) return make_error(HARNESS_ERR_PROTOCOL, "vm/events publish: malformed reply");
        return seq;
    });
}

Result<std::vector<TopicEvent>> VmLink::fetch(const std::string &topic, std::int64_t after_seq,
                                              std::chrono::milliseconds wait) {
    Packer args;
    args.str(topic).i64(after_seq).i64(wait.count()).i64(64);
    return with_daemon([&](hlib::Daemon &d) -> Result<std::vector<TopicEvent>> {
        auto r = d.call(kEvents, "fetch", args.view(), HARNESS_CALL_PACKED, HARNESS_MODE_DEFAULT,
                        hlib::deadline_in(wait + kLongPollGrace));
        if (!r) return r.error();
        Unpacker u(*r);
        std::int64_t n = 0;
        if (!u.i64(n) || n < 0) return make_error(HARNESS_ERR_PROTOCOL, "vm/events fetch: malformed reply");
        std::vector<TopicEvent> out;
        for (std::int64_t i = 0; i < n; ++i) {
            TopicEvent e;
            if (!u.i64(e.seq) || !u.bytes(e.payload))
                return make_error(HARNESS_ERR_PROTOCOL, "vm/events fetch: malformed reply");
            out.push_back(std::move(e));
        }
        return out;
    });
}

Result<std::vector<hlib::Member>> VmLink::members() {
    return with_daemon([&](hlib::Daemon &d) { return d.members(hlib::deadline_in(kRequestTimeout)); });
}

}  // namespace harness::ftmpirun
