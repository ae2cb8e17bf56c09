#include "drd_vm.hpp"

#include <stdexcept>

namespace harness::drd::test {

using namespace std::chrono_literals;

std::vector<std::string> drd_daemon_args(DrdVm::Preload preload) {
    return {"--services=" + std::string(preload == DrdVm::Preload::drd ? "vm/drd" : ""), "--heartbeat-ms", "100",
            "--heartbeat-timeout-ms", "1500"};
}

DrdVm::DrdVm(std::vector<std::string> env, Preload preload)
    : dir_(std::make_unique<harness::test::TempDir>("drdvm")), env_(std::move(env)), preload_(preload) {
    key_file_ = harness::test::write_vm_key(dir_->path() / "vm.key");
    auto k = load_key(key_file_);
    if (!k) throw std::runtime_error("cannot read the test key: " + k.error().describe());
    key_ = std::move(k.value());
}

std::size_t DrdVm::start_daemon(const std::filesystem::path &root) {
    harness::test::DaemonOptions o;
    o.vm = "drdtest";
    o.key_file = key_file_;
    o.extra_args = drd_daemon_args(preload_);
    o.env = env_;
    if (root.empty()) {
        // Roots live in this VM's own temp dirs, so a killed daemon's root
        // outlives its Daemon object and can be restarted.
        roots_.push_back(std::make_unique<harness::test::TempDir>("drdroot"));
        o.root = roots_.back()->path();
    } else {
        o.root = root;
    }
    for (auto &d : daemons_) {
        if (d && d->running()) {
            o.extra_args.push_back("--join");
            o.extra_args.push_back(d->tcp().to_string());
            break;
        }
    }
    daemons_.push_back(Daemon::start(o));
    return daemons_.size() - 1;
}

DrdClient DrdVm::client(std::size_t i) const {
    return DrdClient(daemons_.at(i)->tcp(), key_);
}

bool DrdVm::formed(std::size_t voters, std::size_t standbys) {
    std::string leader;
    for (std::size_t i = 0; i < daemons_.size(); ++i) {
        if (!daemons_[i]->running()) continue;
        auto c = client(i);
        auto s = c.status();
        if (!s || s->leader.empty() || s->voters.size() != voters || s->standbys.size() != standbys) return false;
        if (!leader.empty() && s->leader != leader) return false;
        leader = s->leader;
    }
    return !leader.empty();
}

bool DrdVm::wait_formed(std::size_t voters, std::size_t standbys, std::chrono::milliseconds timeout) {
    return harness::test::wait_until([&] { return formed(voters, standbys); }, timeout);
}

std::optional<std::size_t> DrdVm::leader(std::size_t ask) {
    auto c = client(ask);
    auto s = c.status();
    if (!s) return std::nullopt;
    for (std::size_t i = 0; i < daemons_.size(); ++i)
        if (daemons_[i]->running() && daemons_[i]->id() == s->leader) return i;
    return std::nullopt;
}

Result<std::string> DrdVm::load_drd(std::size_t i) {
    auto deadline = hlib::deadline_in(std::chrono::seconds(10));
    auto conn = hlib::Connection::open_tcp(daemons_.at(i)->tcp(), key_, deadline);
    if (!conn) return conn.error();
    hlib::Daemon d(std::move(conn.value()));
    return d.load(ComponentName{"vm", "drd"}, deadline);
}

bool DrdVm::wait_members(std::size_t n, std::chrono::milliseconds timeout) {
    return harness::test::wait_until(
        [&] {
            for (auto &d : daemons_) {
                if (!d->running()) continue;
                auto deadline = hlib::deadline_in(std::chrono::seconds(2));
                auto conn = hlib::Connection::open_tcp(d->tcp(), key_, deadline);
                if (!conn) return false;
                hlib::Daemon c(std::move(conn.value()));
                auto members = c.members(deadline);
                if (!members) return false;
                std::size_t alive = 0;
                for (const auto &m : *members) alive += m.alive ? 1 : 0;
                if (alive != n) return false;
            }
            return true;
        },
        timeout);
}

std::filesystem::path DrdVm::keep_root(std::size_t i) {
    return daemons_.at(i)->root();
}

}  // namespace harness::drd::test
