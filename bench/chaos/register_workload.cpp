#include "register_workload.hpp"

#include <harness/common/pack.hpp>
#include <harness/hlib/busy_retry.hpp>

#include <atomic>
#include <mutex>
#include <thread>

namespace harness::chaos {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;
const ComponentName kDrd{"vm", "drd"};

// One client: a connection to its daemon's Unix socket, reopened after any failure.
class RegisterClient {
public:
    RegisterClient(int id, std::filesystem::path socket, VmKey key, const RegisterOptions &o, std::string prefix,
                   Clock::time_point epoch, std::uint64_t seed)
        : id_(id), socket_(std::move(socket)), key_(std::move(key)), options_(o), prefix_(std::move(prefix)),
          epoch_(epoch), rng_(seed), expected_(static_cast<std::size_t>(o.keys), 0) {}

    // Runs operations until `taken` reaches the target; appends to out.
    void run(std::atomic<int> &taken, std::vector<Op> &out) {
        while (taken.fetch_add(1) < options_.ops) {
            if (!connect()) {
                taken.fetch_sub(1);
                std::this_thread::sleep_for(50ms);  // its daemon is down: try again shortly
                continue;
            }
            out.push_back(one_op());
            // After a failure a client pauses, as a real one would, rather
            // than fill the history with failed calls during an election.
            if (out.back().indeterminate) std::this_thread::sleep_for(100ms);
        }
    }

private:
    bool connect() {
        if (conn_) return true;
        auto c = hlib::Connection::open_unix(socket_, key_, hlib::deadline_in(1s));
        if (!c) return false;
        conn_.emplace(std::move(c.value()));
        return true;
    }
    std::int64_t now_ns() const {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - epoch_).count();
    }

    Op one_op() {
        const int k = std::uniform_int_distribution<int>(0, options_.keys - 1)(rng_);
        const int pick = std::uniform_int_distribution<int>(0, 9)(rng_);
        Op op;
        op.client = id_;
        op.key = prefix_ + std::to_string(k);
        op.kind = pick < 4 ? OpKind::get : pick < 7 ? OpKind::put : OpKind::cas;
        op.value = "c" + std::to_string(id_) + "-" + std::to_string(++count_);
        op.expected = expected_[static_cast<std::size_t>(k)];
        Packer args;
        const char *function = "get";
        switch (op.kind) {
        case OpKind::get: args.str(op.key).boolean(true); break;
        case OpKind::put:
            args.str(op.key).bytes(Bytes(op.value.begin(), op.value.end())).str("voters");
            function = "put";
            break;
        case OpKind::cas:
            args.str(op.key).i64(op.expected).bytes(Bytes(op.value.begin(), op.value.end())).str("voters");
            function = "cas";
            break;
        }
        op.call_ns = now_ns();
        // A read may be asked again while the DRD has no leader; a write may
        // not (a busy answer can come after it took effect).
        const auto deadline = hlib::deadline_in(options_.op_timeout);
        auto reply = op.kind == OpKind::get
            ? hlib::call_while_busy(*conn_, kDrd, function, args.view(), deadline)
            : conn_->call(kDrd, function, args.view(), HARNESS_CALL_PACKED, HARNESS_MODE_DEFAULT, deadline);
        op.return_ns = now_ns();
        if (!reply || !decode(*reply, &op)) {
            op.indeterminate = true;  // it may have taken effect, or not
            conn_.reset();
            return op;
        }
        if (op.kind != OpKind::get || op.found) expected_[static_cast<std::size_t>(k)] = op.version;
        return op;
    }

    static bool decode(const Bytes &reply, Op *op) {
        Unpacker u(reply);
        switch (op->kind) {
        case OpKind::put: return u.i64(op->version) && u.done();
        case OpKind::cas: return u.boolean(op->found) && u.i64(op->version) && u.done();
        case OpKind::get: {
            Bytes value;
            if (!u.boolean(op->found) || !u.bytes(value) || !u.i64(op->version) || !u.done()) return false;
            op->got.assign(value.begin(), value.end());
            return true;
        }
        }
        return false;
    }

    int id_;
    std::filesystem::path socket_;
    VmKey key_;
    const RegisterOptions &options_;
    std::string prefix_;
    Clock::time_point epoch_;
    std::mt19937_64 rng_;
    std::vector<std::int64_t> expected_;  // the last version seen per key: what a cas expects
    std::optional<hlib::Daemon> conn_;
    int count_ = 0;
};

}  // namespace

RegisterRun run_register_workload(ChaosVm &vm, const RegisterOptions &options, std::mt19937_64 &rng) {
    RegisterRun run;
    const auto epoch = Clock::now();
    const VmKey key = it::read_key(vm.key());
    // Fresh keys per run, so a VM reused across runs starts every register absent.
    const std::string prefix = "chaos/register/" + std::to_string(rng() % 1000000000) + "/k";
    const int clients = vm.size() * options.clients_per_daemon;
    std::vector<std::vector<Op>> recorded(static_cast<std::size_t>(clients));
    std::atomic<int> taken{0};
    std::atomic<int> finished{0};
    // A restart keeps the daemon's root, and so its socket: read them once.
    std::vector<std::filesystem::path> sockets;
    for (int d = 0; d < vm.size(); ++d) sockets.push_back(vm.socket(d));
    std::vector<std::thread> threads;
    for (int c = 0; c < clients; ++c) {
        threads.emplace_back([&, c, seed = rng()] {
            RegisterClient client(c, sockets[static_cast<std::size_t>(c) % sockets.size()], key, options, prefix, epoch,
                                  seed);
            client.run(taken, recorded[static_cast<std::size_t>(c)]);
            ++finished;
        });
    }
    auto running = [&] { return finished.load() < clients; };
    auto pause = [&](int lo_ms, int hi_ms) {
        auto until = Clock::now() + std::chrono::milliseconds(std::uniform_int_distribution<int>(lo_ms, hi_ms)(rng));
        while (running() && Clock::now() < until) std::this_thread::sleep_for(10ms);
    };
    auto at = [&] {
        return "+" +
            std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - epoch).count()) +
            " ms ";
    };
    // The faults, on this thread: every other round a leader kill, else a
    // partition (on loopback, leader kills only).
    for (int round = 0; options.faults && running(); ++round) {
        pause(300, 900);
        if (!running()) break;
        if (round % 2 == 0 || !vm.on_netns()) {
            auto leader = vm.drd_leader();
            if (!leader) continue;
            vm.kill(*leader);
            ++run.leader_kills;
            run.faults += at() + "kill -9 leader's daemon " + std::to_string(*leader) + "; ";
        } else {
            // A minority cut off: one host of 3 or 4, two of 5 (each alone).
            const int cut = vm.size() >= 5 ? 2 : 1;
            const int first = std::uniform_int_distribution<int>(0, vm.size() - 1)(rng);
            for (int i = 0; i < cut; ++i) vm.cut((first + i) % vm.size());
            ++run.partitions;
            run.faults += at() + "cut " + std::to_string(cut) + " host(s) from " + std::to_string(first) + "; ";
        }
        pause(300, 1000);
        std::string why;
        if (!vm.restore(30s, &why)) run.faults += at() + "VM not healthy again: " + why + "; ";
    }
    for (auto &t : threads) t.join();
    std::string why;
    if (!vm.restore(30s, &why)) run.faults += "VM not healthy at the end: " + why;
    run.seconds = std::chrono::duration<double>(Clock::now() - epoch).count();
    for (auto &ops : recorded) run.history.insert(run.history.end(), ops.begin(), ops.end());
    return run;
}

}  // namespace harness::chaos
