#include "methods.hpp"

#include <harness/hlib/hlib.hpp>

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace hbench {

namespace hl = harness::hlib;
using namespace std::chrono_literals;

namespace {

using AddFn = std::int64_t(std::int64_t, std::int64_t);

[[gnu::noinline]] std::int64_t plain_add(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

// Read on every call: the compiler can neither inline nor hoist the target.
AddFn *volatile g_add = nullptr;
volatile std::int64_t g_sink = 0;

Summary time_native(AddFn *fn, const Plan &plan) {
    g_add = fn;
    std::vector<double> samples;
    samples.reserve(static_cast<std::size_t>(plan.calls));
    for (int s = 0; s < plan.warmup + plan.calls; ++s) {
        std::int64_t acc = s;
        auto t0 = Clock::now();
        for (int i = 0; i < plan.direct_batch; ++i) acc = g_add(acc, i);
        auto t1 = Clock::now();
        g_sink = acc;
        if (s >= plan.warmup) samples.push_back(micros(t1 - t0) / plan.direct_batch);
    }
    return summarize(samples);
}

// Times warmup + calls invocations of one(); the first failure ends the method.
Summary time_calls(int warmup, int calls, const std::function<harness::Result<void>()> &one) {
    std::vector<double> samples;
    samples.reserve(static_cast<std::size_t>(calls));
    for (int i = 0; i < warmup + calls; ++i) {
        auto t0 = Clock::now();
        auto r = one();
        auto t1 = Clock::now();
        if (!r) throw std::runtime_error(r.error().describe());
        if (i >= warmup) samples.push_back(micros(t1 - t0));
    }
    return summarize(samples);
}

const harness::ComponentName kMath{"examples", "math"};
const harness::ComponentName kDirect{"examples", "direct"};

// One typed call of examples/math add(i, 1), checked.
harness::Result<void> call_add(hl::VirtualMachine &vm, const hl::FunctionRef &f, const hl::CallOptions &o,
                               std::int64_t i) {
    auto r = vm.call<std::int64_t>(f, o, i, std::int64_t{1});
    if (!r) return r.error();
    if (*r != i + 1) return harness::make_error(HARNESS_ERR_PROTOCOL, "add returned a wrong sum");
    return {};
}

template <class T>
T must(harness::Result<T> r, const std::string &what) {
    if (!r) throw std::runtime_error(what + ": " + r.error().describe());
    return std::move(*r);
}

MethodResult run_one(std::string name, std::string description, Baseline baseline,
                     const std::function<Summary()> &body) {
    MethodResult m{std::move(name), std::move(description), baseline, {}, {}};
    try {
        m.summary = body();
    } catch (const std::exception &e) {
        m.error = e.what();
    }
    return m;
}

Summary measure_direct(const Targets &t, const Plan &plan) {
    std::string errors;
    for (const auto &root : t.direct_roots) {
        auto plugin = hl::DirectPlugin::load(root, kDirect);
        if (!plugin) {
            errors += (errors.empty() ? "" : "; ") + root.string() + ": " + plugin.error().describe();
            continue;
        }
        AddFn *fn = must((*plugin)->get<AddFn>("add"), "examples/direct add");
        if (fn(40, 2) != 42) throw std::runtime_error("examples/direct add returned a wrong sum");
        return time_native(fn, plan);
    }
    throw std::runtime_error("cannot load examples/direct: " + errors);
}

}  // namespace

const char *baseline_name(Baseline b) {
    switch (b) {
    case Baseline::plain_call: return "plain_call";
    case Baseline::unix_blocking: return "unix_blocking";
    case Baseline::tcp_blocking: return "tcp_blocking";
    case Baseline::udp_blocking: return "udp_blocking";
    }
    return "?";
}

Summary measure_plain_call(const Plan &plan) {
    return time_native(&plain_add, plan);
}

std::vector<MethodResult> run_methods(const Targets &t, const Plan &plan) {
    std::vector<MethodResult> out;
    auto wanted = [&](const std::string &name) {
        return t.only.empty() || std::find(t.only.begin(), t.only.end(), name) != t.only.end();
    };
    if (wanted("local_direct"))
        out.push_back(run_one("local_direct", "DirectPlugin native pointer (examples/direct add)", Baseline::plain_call,
                              [&] { return measure_direct(t, plan); }));

    // A view of the VM through the local daemon's Unix socket (if usable) and
    // one through its TCP port.
    auto connect = [&](bool tcp) {
        hl::ConnectOptions o;
        o.root = t.root;
        o.key_file = t.key_file;
        if (tcp) o.hcore = t.local_tcp;
        o.timeout = 10s;
        return must(hl::VirtualMachine::connect(o), tcp ? "connect over TCP" : "connect over the Unix socket");
    };
    std::optional<hl::VirtualMachine> via_unix, via_tcp;
    std::string setup_error;
    std::optional<hl::FunctionRef> local_ref, remote_ref;
    try {
        if (t.local_unix) via_unix.emplace(connect(false));
        if (t.local_tcp) via_tcp.emplace(connect(true));
        // The root's socket may belong to another daemon than --hcore.
        if (via_unix && via_tcp && via_unix->local_id() != via_tcp->local_id()) via_unix.reset();
        hl::VirtualMachine &vm = via_unix ? *via_unix : *via_tcp;
        // Idempotent: the daemons hbench starts have it already.
        for (auto &r : vm.load(kMath, hl::Placement{hl::Placement::Kind::all, {}}))
            if (!r.result)
                throw std::runtime_error("load examples/math on " + r.member_id + ": " + r.result.error().describe());
        for (auto &f : must(vm.get_functions(kMath, "add"), "examples/math add")) {
            if (f.member_id == vm.local_id())
                local_ref = f;
            else if (!remote_ref)
                remote_ref = f;
        }
        if (!local_ref) throw std::runtime_error("examples/math add is not on the local daemon");
    } catch (const std::exception &e) {
        setup_error = e.what();
    }

    hl::VirtualMachine *unix_vm = via_unix ? &*via_unix : nullptr;
    hl::VirtualMachine *tcp_vm = via_tcp ? &*via_tcp : nullptr;
    auto daemon_method = [&](std::string name, std::string description, hl::VirtualMachine *vm,
                             const std::optional<hl::FunctionRef> &ref, hl::CallOptions o, Baseline baseline, int calls,
                             int warmup) {
        if (!wanted(name)) return;
        out.push_back(run_one(std::move(name), std::move(description), baseline, [&] {
            if (!setup_error.empty()) throw std::runtime_error(setup_error);
            if (!vm)
                throw std::runtime_error(tcp_vm ? "no Unix socket of that daemon at " +
                                                 (t.root / "var" / "hcored.sock").string() + " (give its --root)"
                                                : "no TCP address of the local daemon");
            if (!ref) throw std::runtime_error("no second daemon in the VM");
            std::int64_t i = 0;
            return time_calls(warmup, calls, [&] { return call_add(*vm, *ref, o, ++i); });
        }));
    };
    // Without a usable Unix socket the local indirect modes go over TCP.
    hl::VirtualMachine *local_vm = unix_vm ? unix_vm : tcp_vm;
    Baseline local_base = unix_vm ? Baseline::unix_blocking : Baseline::tcp_blocking;
    const char *local_via = unix_vm ? "Unix socket" : "TCP";
    auto opts = [](hl::Transport tr, harness_mode mode) {
        hl::CallOptions o;
        o.transport = tr;
        o.mode = mode;
        o.timeout = 10s;
        return o;
    };
    using hl::Transport;
    daemon_method("local_unix", "local daemon, Unix socket, inline", unix_vm, local_ref,
                  opts(Transport::tcp, HARNESS_MODE_INLINE), Baseline::unix_blocking, plan.calls, plan.warmup);
    daemon_method("local_tcp", "local daemon, TCP loopback, inline", tcp_vm, local_ref,
                  opts(Transport::tcp, HARNESS_MODE_INLINE), Baseline::tcp_blocking, plan.calls, plan.warmup);
    daemon_method("local_thread", std::string("local daemon, ") + local_via + ", new thread per call", local_vm,
                  local_ref, opts(Transport::tcp, HARNESS_MODE_THREAD), local_base, plan.calls, plan.warmup);
    daemon_method("local_fork", std::string("local daemon, ") + local_via + ", forked process per call", local_vm,
                  local_ref, opts(Transport::tcp, HARNESS_MODE_FORK), local_base, plan.fork_calls, plan.fork_warmup);
    daemon_method("local_service", std::string("local daemon, ") + local_via + ", forked service process", local_vm,
                  local_ref, opts(Transport::tcp, HARNESS_MODE_SERVICE), local_base, plan.calls, plan.warmup);
    daemon_method("remote_tcp", "second daemon, TCP, inline", local_vm, remote_ref,
                  opts(Transport::tcp, HARNESS_MODE_INLINE), Baseline::tcp_blocking, plan.calls, plan.warmup);
    daemon_method("remote_udp", "second daemon, UDP, inline", local_vm, remote_ref,
                  opts(Transport::udp, HARNESS_MODE_INLINE), Baseline::udp_blocking, plan.calls, plan.warmup);
    return out;
}

}  // namespace hbench
