// kill -9 of the DRD leader in the middle of a stream of writes: the two
// survivors elect a new leader and go on, no acknowledged write is lost, and
// the killed daemon, restarted on the same root, catches up.
#include "drd_vm.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace harness;
using namespace harness::drd::test;
using namespace std::chrono_literals;

namespace {

std::uint16_t read_port(const std::filesystem::path &file) {
    std::ifstream in(file);
    unsigned port = 0;
    in >> port;
    return static_cast<std::uint16_t>(port);
}

// A listening socket on 127.0.0.1:port for as long as it lives.
class PortHolder {
public:
    explicit PortHolder(std::uint16_t port) : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(port);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        int one = 1;
        ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        holding_ = fd_ >= 0 && ::bind(fd_, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0 && ::listen(fd_, 1) == 0;
    }
    ~PortHolder() {
        if (fd_ >= 0) ::close(fd_);
    }
    PortHolder(const PortHolder &) = delete;
    PortHolder &operator=(const PortHolder &) = delete;
    bool holding() const { return holding_; }

private:
    int fd_;
    bool holding_ = false;
};

}  // namespace

TEST_CASE("kill -9 of the leader mid-stream loses no acknowledged write; a restarted daemon catches up") {
    DrdVm vm;
    for (int i = 0; i < 3; ++i) vm.start_daemon();
    REQUIRE_MESSAGE(vm.wait_formed(3, 0, 20s), vm.daemon(0).stderr_tail());
    auto leader = vm.leader(0);
    REQUIRE(leader);
    std::string old_leader_id = vm.daemon(*leader).id();
    std::size_t writer_daemon = (*leader + 1) % 3;  // a follower: its writes are forwarded
    std::size_t other = (*leader + 2) % 3;

    std::mutex m;
    std::map<std::string, std::string> acked;
    std::atomic<int> acked_count{0};
    std::atomic<int> failures{0};
    std::atomic<bool> stop{false};
    std::thread writer([&] {
        auto c = vm.client(writer_daemon);
        for (int n = 0; !stop; ++n) {
            std::string key = "f/" + std::to_string(n);
            std::string value = "value-" + std::to_string(n);
            auto r = c.put(key, value);
            if (r) {
                std::lock_guard lock(m);
                acked[key] = value;
                ++acked_count;
            } else {
                ++failures;  // unacknowledged: may or may not be there
            }
        }
    });
    REQUIRE(harness::test::wait_until([&] { return acked_count >= 40; }, 15s));
    int before_kill = acked_count;
    auto killed_root = vm.keep_root(*leader);
    auto killed_at = std::chrono::steady_clock::now();
    vm.kill(*leader);
    bool resumed = harness::test::wait_until([&] { return acked_count >= before_kill + 40; }, 20s);
    auto resumed_after = std::chrono::steady_clock::now() - killed_at;
    stop = true;
    writer.join();
    REQUIRE_MESSAGE(resumed, vm.daemon(writer_daemon).stderr_tail());
    MESSAGE("writes resumed " << std::chrono::duration_cast<std::chrono::milliseconds>(resumed_after).count()
                              << " ms after the kill (40 writes included); " << failures.load() << " unacknowledged");

    // A new leader among the survivors.
    auto new_leader = vm.leader(writer_daemon);
    REQUIRE(new_leader);
    CHECK(vm.daemon(*new_leader).id() != old_leader_id);

    // Every acknowledged write, read linearizably through both survivors.
    for (std::size_t i : {writer_daemon, other}) {
        auto c = vm.client(i);
        auto items = c.scan("f/", true);
        REQUIRE_MESSAGE(items.ok(), (items ? "" : items.error().describe()));
        std::map<std::string, std::string> stored;
        for (auto &it : *items) stored[it.key] = it.value;
        std::size_t missing = 0;
        for (auto &[k, v] : acked)
            if (!stored.count(k) || stored[k] != v) ++missing;
        CHECK_MESSAGE(missing == 0,
                      missing << " of " << acked.size() << " acknowledged writes missing on daemon " << i);
    }

    // Restart the killed daemon on its root: it rejoins (under a new member
    // id), is added back as a voter with the same raft id and log, and its
    // own replica catches up with everything. Another socket holds its old
    // raft port meanwhile (as any process may get a dead daemon's port), so it
    // must listen on a new one and be re-added at that address.
    auto old_port = read_port(killed_root / "var/vm/drd/raft_port");
    REQUIRE(old_port != 0);
    PortHolder squatter(old_port);
    REQUIRE_MESSAGE(squatter.holding(), "cannot take port " << old_port << " for the test");
    std::size_t restarted = vm.start_daemon(killed_root);
    REQUIRE_MESSAGE(vm.wait_formed(3, 0, 20s), vm.daemon(restarted).stderr_tail());
    auto c = vm.client(restarted);
    bool caught_up = harness::test::wait_until(
        [&] {
            auto items = c.scan("f/", false);  // its local replica, no forwarding
            if (!items) return false;
            std::size_t found = 0;
            for (auto &it : *items)
                if (acked.count(it.key) && acked[it.key] == it.value) ++found;
            return found == acked.size();
        },
        20s);
    CHECK_MESSAGE(caught_up, vm.daemon(restarted).stderr_tail());
    CHECK(read_port(killed_root / "var/vm/drd/raft_port") != old_port);
    // And it takes writes again.
    CHECK(c.put("f/after-restart", "ok").ok());
}

TEST_CASE("a daemon that missed more than the leader's log still holds catches up from a snapshot") {
    // Snapshots every 16 entries, keeping 4: a follower down for 100 writes
    // can only be brought back by InstallSnapshot.
    DrdVm vm({"HARNESS_DRD_SNAPSHOT_THRESHOLD=16", "HARNESS_DRD_SNAPSHOT_TRAILING=4"});
    for (int i = 0; i < 3; ++i) vm.start_daemon();
    REQUIRE_MESSAGE(vm.wait_formed(3, 0, 20s), vm.daemon(0).stderr_tail());
    auto leader = vm.leader(0);
    REQUIRE(leader);
    std::size_t follower = (*leader + 1) % 3;
    auto c = vm.client(*leader);
    REQUIRE(c.put("snap/first", "0").ok());
    auto root = vm.keep_root(follower);
    vm.kill(follower);
    for (int n = 0; n < 100; ++n) REQUIRE(c.put("snap/" + std::to_string(n), std::to_string(n)).ok());

    bool has_snapshot = false;
    for (auto &e : std::filesystem::directory_iterator(vm.daemon(*leader).root() / "var/vm/drd/raft"))
        has_snapshot |= e.path().filename().string().rfind("snapshot-", 0) == 0;
    CHECK(has_snapshot);

    std::size_t restarted = vm.start_daemon(root);
    REQUIRE_MESSAGE(vm.wait_formed(3, 0, 20s), vm.daemon(restarted).stderr_tail());
    auto r = vm.client(restarted);
    CHECK_MESSAGE(harness::test::wait_until(
                      [&] {
                          auto items = r.scan("snap/", false);
                          return items && items->size() == 101;
                      },
                      20s),
                  vm.daemon(restarted).stderr_tail());
    auto last = r.get("snap/99", false);
    REQUIRE(last.ok());
    CHECK(last->value == "99");
    // Watches on the restarted daemon still see changes in commit order.
    auto w = r.watch("snap/", 0, 0);
    REQUIRE(w.ok());
    for (std::size_t k = 1; k < w->changes.size(); ++k) CHECK(w->changes[k].index > w->changes[k - 1].index);
}
