#include "chaos_vm.hpp"

#include <stdexcept>

namespace harness::chaos {

using namespace std::chrono_literals;

namespace {

const char *kVmName = "chaos";

// Replaces any --join in args with one to `to` (empty: none).
void join(std::vector<std::string> &args, const std::string &to) {
    for (std::size_t i = 0; i + 1 < args.size();) {
        if (args[i] == "--join")
            args.erase(args.begin() + static_cast<std::ptrdiff_t>(i),
                       args.begin() + static_cast<std::ptrdiff_t>(i) + 2);
        else
            ++i;
    }
    if (!to.empty()) args.insert(args.end(), {"--join", to});
}

}  // namespace

ChaosVm::ChaosVm(int daemons, bool use_netns, const std::filesystem::path &work) {
    if (use_netns) net_ = std::make_unique<netns::Network>(daemons);
    std::filesystem::create_directories(work);
    key_ = test::write_vm_key(work / "vm.key");
    for (int i = 0; i < daemons; ++i) {
        roots_.push_back(work / ("daemon" + std::to_string(i)));
        std::filesystem::create_directories(roots_.back());
        ports_.push_back(net_ ? 7001 : test::free_port());
        daemons_.emplace_back();
        sockets_.emplace_back();
        killed_.push_back(true);
        cut_.push_back(false);
    }
    std::string why;
    if (!restore(60s, &why)) throw std::runtime_error("the VM did not form: " + why);
}

ChaosVm::~ChaosVm() {
    for (int i = 0; i < size(); ++i)
        if (cut_[static_cast<std::size_t>(i)]) heal(i);
    daemons_.clear();  // SIGTERM each, before the namespaces go
}

std::string ChaosVm::address(int i) const {
    return (net_ ? net_->address(i) : std::string("127.0.0.1")) + ":" +
        std::to_string(ports_.at(static_cast<std::size_t>(i)));
}

std::vector<std::string> ChaosVm::on_host(int i) const {
    if (!net_) return {};
    return {"ip", "netns", "exec", net_->ns(i)};
}

void ChaosVm::start(int i) {
    const auto at = static_cast<std::size_t>(i);
    test::DaemonOptions o;
    if (net_) {
        o = netns::host_options(*net_, i, kVmName, key_);
    } else {
        o.vm = kVmName;
        o.key_file = key_;
        o.host = "127.0.0.1";
        o.services = test::kAllServices;
        o.ready_timeout = 30s;
        o.extra_args = {"--heartbeat-ms", "100", "--heartbeat-timeout-ms", "800"};
    }
    o.root = roots_[at];
    o.port = ports_[at];
    // Join any daemon that runs (the first to start founds the VM).
    std::string to;
    for (int j = 0; j < size() && to.empty(); ++j)
        if (j != i && !killed_[static_cast<std::size_t>(j)]) to = address(j);
    join(o.extra_args, to);
    daemons_[at].reset();
    daemons_[at] = it::Daemon::start(o);
    sockets_[at] = daemons_[at]->unix_socket();
    killed_[at] = false;
}

void ChaosVm::kill(int i) {
    killed_.at(static_cast<std::size_t>(i)) = true;
    daemon(i).kill_hard();
}

void ChaosVm::cut(int i) {
    if (!net_) throw std::logic_error("link cuts need network namespaces");
    net_->cut(i);
    cut_.at(static_cast<std::size_t>(i)) = true;
}

void ChaosVm::heal(int i) {
    if (!net_) return;
    net_->restore(i);
    cut_.at(static_cast<std::size_t>(i)) = false;
}

std::vector<int> ChaosVm::unexpected_exits() {
    std::vector<int> out;
    for (int i = 0; i < size(); ++i)
        if (!killed_[static_cast<std::size_t>(i)] && !daemon(i).running()) out.push_back(i);
    return out;
}

bool ChaosVm::healthy(std::string *why) try {
    for (int i = 0; i < size(); ++i) {
        // A restarted daemon is a new member (new id); its old self stays
        // listed as failed, which is history, not ill health.
        const auto seen = netns::states_seen_by(daemon(i));
        bool all = true;
        for (const auto &d : daemons_) all = all && seen.count(d->id()) && seen.at(d->id());
        if (!all) {
            *why = "daemon " + std::to_string(i) + " does not see every daemon alive; it sees";
            for (const auto &[id, up] : seen) *why += " " + id + (up ? " alive" : " failed");
            *why += "; the daemons are";
            for (const auto &d : daemons_) *why += " " + d->id();
            return false;
        }
    }
    if (netns::drd_voters(daemon(0)) != size()) {
        *why = "the DRD has no voter on every daemon";
        return false;
    }
    return true;
} catch (const std::exception &e) {
    *why = e.what();  // a daemon that does not answer yet
    return false;
}

bool ChaosVm::restore(std::chrono::milliseconds timeout, std::string *why) {
    try {
        for (int i = 0; i < size(); ++i)
            if (cut_[static_cast<std::size_t>(i)]) heal(i);
        for (int i = 0; i < size(); ++i) {
            auto at = static_cast<std::size_t>(i);
            if (!killed_[at] && !daemon(i).running()) killed_[at] = true;  // a crash: the caller saw it already
            if (killed_[at]) start(i);
        }
    } catch (const std::exception &e) {
        *why = e.what();
        return false;
    }
    return test::wait_until([&] { return healthy(why); }, timeout);
}

std::optional<int> ChaosVm::drd_leader() {
    for (int i = 0; i < size(); ++i) {
        if (down(i) || is_cut(i)) continue;
        try {
            auto client = netns::client_of(daemon(i));
            auto reply = client.call(ComponentName{"vm", "drd"}, "status", {}, HARNESS_CALL_PACKED,
                                     HARNESS_MODE_DEFAULT, hlib::deadline_in(2s));
            if (!reply) continue;
            Unpacker u(*reply);
            std::string leader;
            if (!u.str(leader) || leader.empty()) continue;
            for (int j = 0; j < size(); ++j)
                if (!down(j) && daemon(j).id() == leader) return j;
        } catch (const std::exception &) {
            continue;  // that daemon does not answer: ask the next
        }
    }
    return std::nullopt;
}

}  // namespace harness::chaos
