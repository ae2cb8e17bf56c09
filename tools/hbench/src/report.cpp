#include "report.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <thread>

namespace hbench {

namespace {

const Summary &baseline_of(const Report &r, Baseline b) {
    switch (b) {
    case Baseline::plain_call: return r.plain_call;
    case Baseline::unix_blocking: return r.raw.unix_blocking;
    case Baseline::tcp_blocking: return r.raw.tcp_blocking;
    case Baseline::udp_blocking: return r.raw.udp_blocking;
    }
    return r.plain_call;
}

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

// Enough digits for nanosecond figures and for tens of milliseconds alike.
std::string micros_text(double us) {
    return fixed(us, us < 0.1 ? 4 : us < 10 ? 2 : 1);
}

std::string pad(std::string s, std::size_t width, bool right = false) {
    // Count code points, not bytes (µ and × are two bytes each).
    std::size_t shown = 0;
    for (unsigned char c : s) shown += (c & 0xC0) != 0x80;
    if (shown >= width) return s;
    std::string fill(width - shown, ' ');
    return right ? fill + s : s + fill;
}

nlohmann::json summary_json(const Summary &s) {
    return {{"median_us", s.median_us}, {"p99_us", s.p99_us}, {"calls", s.calls}};
}

}  // namespace

double load_average() {
    double v = -1;
    if (FILE *f = std::fopen("/proc/loadavg", "r")) {
        if (std::fscanf(f, "%lf", &v) != 1) v = -1;
        std::fclose(f);
    }
    return v;
}

double ratio(const Report &r, const MethodResult &m) {
    const Summary &b = baseline_of(r, m.baseline);
    if (!m.error.empty() || m.summary.calls == 0 || b.calls == 0 || b.median_us <= 0) return -1;
    return m.summary.median_us / b.median_us;
}

void print_table(std::ostream &out, const Report &r) {
    out << "hbench: examples/math add(i64,i64) AUTO via Hlib; request " << r.stream.request << " B, reply "
        << r.stream.reply << " B (UDP datagrams " << r.datagram.request << " B / " << r.datagram.reply << " B)\n"
        << "  " << r.plan.calls << " calls after " << r.plan.warmup << " warm-up (fork: " << r.plan.fork_calls
        << " after " << r.plan.fork_warmup << "); in-process calls timed in batches of " << r.plan.direct_batch << "; "
        << std::thread::hardware_concurrency() << " CPUs, load average " << fixed(r.load_before, 2)
        << " at start\n  daemons: " << r.daemons << "\n\n";
    out << pad("method", 15) << pad("median µs", 11, true) << pad("p99 µs", 11, true) << pad("calls", 7, true)
        << pad("ratio", 8, true) << "  " << pad("vs", 14) << "how\n";
    for (const auto &m : r.methods) {
        out << pad(m.name, 15);
        if (!m.error.empty()) {
            out << "  not measured: " << m.error << "\n";
            continue;
        }
        double q = ratio(r, m);
        out << pad(micros_text(m.summary.median_us), 11, true) << pad(micros_text(m.summary.p99_us), 11, true)
            << pad(std::to_string(m.summary.calls), 7, true) << pad(q < 0 ? "-" : fixed(q, 2) + "×", 8, true) << "  "
            << pad(baseline_name(m.baseline), 14) << m.description << "\n";
    }
    out << "\nraw round trips, two processes, same message sizes (median / p99 µs):\n";
    auto row = [&](const char *name, const Summary &s, const char *what) {
        out << "  " << pad(name, 16) << pad(micros_text(s.median_us), 9, true) << " /"
            << pad(micros_text(s.p99_us), 9, true) << "   " << what << "\n";
    };
    row("tcp_blocking", r.raw.tcp_blocking, "loopback TCP, blocking recv on both sides");
    row("tcp_busypoll", r.raw.tcp_busypoll, "loopback TCP, spinning recv, ends pinned to 2 CPUs: the floor");
    row("udp_blocking", r.raw.udp_blocking, "loopback UDP, blocking recv");
    row("udp_busypoll", r.raw.udp_busypoll, "loopback UDP, spinning recv, ends pinned to 2 CPUs: the floor");
    row("unix_blocking", r.raw.unix_blocking, "AF_UNIX stream socketpair, blocking recv");
    row("plain_call", r.plain_call, "in-binary call through a volatile function pointer");
}

void print_json(std::ostream &out, const Report &r) {
    nlohmann::json methods = nlohmann::json::array();
    for (const auto &m : r.methods) {
        nlohmann::json j = {{"name", m.name},
                            {"median_us", nullptr},
                            {"p99_us", nullptr},
                            {"calls", 0},
                            {"ratio", nullptr},
                            {"baseline", baseline_name(m.baseline)},
                            {"description", m.description}};
        if (m.error.empty()) {
            j["median_us"] = m.summary.median_us;
            j["p99_us"] = m.summary.p99_us;
            j["calls"] = m.summary.calls;
            if (double q = ratio(r, m); q >= 0) j["ratio"] = q;
        } else {
            j["error"] = m.error;
        }
        methods.push_back(std::move(j));
    }
    nlohmann::json doc = {
        {"methods", methods},
        {"raw",
         {{"tcp_blocking_us", r.raw.tcp_blocking.median_us},
          {"tcp_busypoll_us", r.raw.tcp_busypoll.median_us},
          {"udp_blocking_us", r.raw.udp_blocking.median_us},
          {"udp_busypoll_us", r.raw.udp_busypoll.median_us},
          {"unix_blocking_us", r.raw.unix_blocking.median_us},
          {"plain_call_us", r.plain_call.median_us}}},
        {"raw_detail",
         {{"tcp_blocking", summary_json(r.raw.tcp_blocking)},
          {"tcp_busypoll", summary_json(r.raw.tcp_busypoll)},
          {"udp_blocking", summary_json(r.raw.udp_blocking)},
          {"udp_busypoll", summary_json(r.raw.udp_busypoll)},
          {"unix_blocking", summary_json(r.raw.unix_blocking)},
          {"plain_call", summary_json(r.plain_call)}}},
        {"message",
         {{"request_bytes", r.stream.request},
          {"reply_bytes", r.stream.reply},
          {"udp_request_bytes", r.datagram.request},
          {"udp_reply_bytes", r.datagram.reply}}},
        {"plan",
         {{"calls", r.plan.calls},
          {"warmup", r.plan.warmup},
          {"fork_calls", r.plan.fork_calls},
          {"fork_warmup", r.plan.fork_warmup},
          {"direct_batch", r.plan.direct_batch}}},
        {"cpus", std::thread::hardware_concurrency()},
        {"load_average", r.load_before},
        {"daemons", r.daemons},
    };
    out << doc.dump(2) << "\n";
}

}  // namespace hbench
