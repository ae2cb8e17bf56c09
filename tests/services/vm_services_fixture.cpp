#include "vm_services_fixture.hpp"

#include <stdexcept>

namespace harness::services_test {

namespace fs = std::filesystem;

namespace {

void install_vm_plugins(const fs::path &root) {
    const fs::path from = test::built_plugins_dir() / "vm";
    fs::create_directories(root / "lib" / "vm");
    for (const char *name : {"drd", "naming", "events"})
        for (const char *ext : {".so", ".json"})
            fs::copy_file(from / (std::string(name) + ext), root / "lib" / "vm" / (std::string(name) + ext),
                          fs::copy_options::overwrite_existing);
}

}  // namespace

ServiceVm::ServiceVm(std::size_t n, std::chrono::milliseconds heartbeat, std::chrono::milliseconds heartbeat_timeout)
    : heartbeat_(heartbeat), heartbeat_timeout_(heartbeat_timeout) {
    dir_ = std::make_unique<test::TempDir>("services-vm");
    key_file_ = test::write_vm_key(dir_->path() / "vm.key");
    for (std::size_t i = 0; i < n; ++i) {
        roots_.push_back(dir_->path() / ("d" + std::to_string(i)));
        fs::create_directories(roots_.back());
        install_vm_plugins(roots_.back());
        ports_.push_back(test::free_port());
        daemons_.emplace_back();
    }
    for (std::size_t i = 0; i < n; ++i) start(i, i == 0 ? "" : daemons_[0]->tcp().to_string());
}

ServiceVm::~ServiceVm() {
    // Stop in reverse, so the first daemon (the one the others joined) goes last.
    for (auto it = daemons_.rbegin(); it != daemons_.rend(); ++it) it->reset();
}

std::vector<std::string> ServiceVm::args(const std::string &join) const {
    std::vector<std::string> a = {"--heartbeat-ms",
                                  std::to_string(heartbeat_.count()),
                                  "--heartbeat-timeout-ms",
                                  std::to_string(heartbeat_timeout_.count()),
                                  "--load",
                                  "vm/drd",
                                  "--load",
                                  "vm/naming",
                                  "--load",
                                  "vm/events"};
    if (!join.empty()) {
        a.push_back("--join");
        a.push_back(join);
    }
    return a;
}

void ServiceVm::start(std::size_t i, const std::string &join) {
    test::DaemonOptions o;
    o.root = roots_[i];
    o.vm = "services";
    o.key_file = key_file_;
    o.port = ports_[i];
    o.install_examples = false;
    o.extra_args = args(join);
    o.ready_timeout = 20s;
    daemons_[i] = Daemon::start(o);
}

std::size_t ServiceVm::index_of(const std::string &member_id) const {
    for (std::size_t i = 0; i < daemons_.size(); ++i)
        if (daemons_[i] && daemons_[i]->id() == member_id) return i;
    return daemons_.size();
}

std::size_t ServiceVm::add_daemon() {
    const std::size_t i = daemons_.size();
    roots_.push_back(dir_->path() / ("d" + std::to_string(i)));
    fs::create_directories(roots_.back());
    install_vm_plugins(roots_.back());
    ports_.push_back(test::free_port());
    daemons_.emplace_back();
    start(i, "127.0.0.1:" + std::to_string(ports_[0]));
    return i;
}

void ServiceVm::kill_hard(std::size_t i) {
    if (!daemons_.at(i)) return;
    daemons_[i]->kill_hard();
    daemons_[i].reset();
}

void ServiceVm::restart_all() {
    for (auto it = daemons_.rbegin(); it != daemons_.rend(); ++it) it->reset();
    for (std::size_t i = 0; i < daemons_.size(); ++i) start(i, i == 0 ? "" : "127.0.0.1:" + std::to_string(ports_[0]));
}

bool ServiceVm::wait_for_drd_voters(std::size_t n, std::chrono::milliseconds timeout) {
    return test::wait_until(
        [&] {
            for (std::size_t i = 0; i < daemons_.size(); ++i) {
                if (!daemons_[i]) continue;
                ServiceClient c(*daemons_[i], key_file_);
                auto s = c.drd_status(2s);
                if (!s || s->first.empty() || s->second < static_cast<std::int64_t>(n)) return false;
            }
            return true;
        },
        timeout);
}

ServiceClient::ServiceClient(const Daemon &d, const fs::path &key_file) : where_(d.tcp()) {
    auto key = load_key(key_file);
    if (!key) throw std::runtime_error(key.error().describe());
    key_ = *key;
}

Result<Bytes> ServiceClient::call(const char *component, const char *function, const Packer &args,
                                  std::chrono::milliseconds timeout) {
    auto deadline = hlib::deadline_in(timeout);
    if (!daemon_ || !daemon_->connection().is_open()) {
        auto conn = hlib::Connection::open_tcp(where_, key_, deadline);
        if (!conn) return conn.error();
        daemon_ = std::make_unique<hlib::Daemon>(std::move(*conn));
    }
    auto r = daemon_->call(ComponentName{"vm", component}, function, args.view(), HARNESS_CALL_PACKED,
                           HARNESS_MODE_DEFAULT, deadline);
    if (!r && (r.error().status == HARNESS_ERR_TIMEOUT || r.error().status == HARNESS_ERR_UNREACHABLE)) daemon_.reset();
    return r;
}

Result<std::int64_t> ServiceClient::publish(const std::string &topic, std::span<const std::uint8_t> payload,
                                            std::chrono::milliseconds timeout) {
    Packer args;
    args.str(topic).bytes(payload);
    auto r = call("events", "publish", args, timeout);
    if (!r) return r.error();
    Unpacker u(*r);
    std::int64_t seq = 0;
    if (!u.i64(seq)) return make_error(HARNESS_ERR_PROTOCOL, "bad publish reply");
    return seq;
}

Result<std::vector<Event>> ServiceClient::fetch(const std::string &topic, std::int64_t after_seq, std::int64_t wait_ms,
                                                std::int64_t max) {
    Packer args;
    args.str(topic).i64(after_seq).i64(wait_ms).i64(max);
    auto r = call("events", "fetch", args, std::chrono::milliseconds(wait_ms) + 15s);
    if (!r) return r.error();
    Unpacker u(*r);
    std::int64_t n = 0;
    if (!u.i64(n)) return make_error(HARNESS_ERR_PROTOCOL, "bad fetch reply");
    std::vector<Event> out;
    for (std::int64_t i = 0; i < n; ++i) {
        Event e;
        if (!u.i64(e.seq) || !u.bytes(e.payload)) return make_error(HARNESS_ERR_PROTOCOL, "bad fetch reply");
        out.push_back(std::move(e));
    }
    return out;
}

Result<std::string> ServiceClient::events_where(std::chrono::milliseconds timeout) {
    auto r = call("events", "where", Packer{}, timeout);
    if (!r) return r.error();
    Unpacker u(*r);
    std::string id;
    if (!u.str(id)) return make_error(HARNESS_ERR_PROTOCOL, "bad where reply");
    return id;
}

Result<std::int64_t> ServiceClient::allocate(const std::string &space, std::int64_t count,
                                             std::chrono::milliseconds timeout) {
    Packer args;
    args.str(space).i64(count);
    auto r = call("naming", "allocate", args, timeout);
    if (!r) return r.error();
    Unpacker u(*r);
    std::int64_t first = 0;
    if (!u.i64(first)) return make_error(HARNESS_ERR_PROTOCOL, "bad allocate reply");
    return first;
}

Result<std::string> ServiceClient::naming_where(std::chrono::milliseconds timeout) {
    auto r = call("naming", "where", Packer{}, timeout);
    if (!r) return r.error();
    Unpacker u(*r);
    std::string id;
    if (!u.str(id)) return make_error(HARNESS_ERR_PROTOCOL, "bad where reply");
    return id;
}

Result<std::pair<std::string, std::int64_t>> ServiceClient::drd_status(std::chrono::milliseconds timeout) {
    auto r = call("drd", "status", Packer{}, timeout);
    if (!r) return r.error();
    Unpacker u(*r);
    std::string leader;
    std::int64_t voters = 0;
    if (!u.str(leader) || !u.i64(voters)) return make_error(HARNESS_ERR_PROTOCOL, "bad drd status reply");
    return std::pair{leader, voters};
}

}  // namespace harness::services_test
