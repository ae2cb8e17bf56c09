// Exactly-once writes: a write the leader applied but never answered (kill -9
// between the two) is retried and must not be applied twice — the retry
// answers the first outcome, and the record's version says it was written
// once. Also: a client that passes its own (client, request) and asks again
// after an answer gets the same answer without a second write.
#include "drd_vm.hpp"

#include <doctest/doctest.h>

using namespace harness;
using namespace harness::drd::test;
using namespace std::chrono_literals;

namespace {

Bytes put_args(const std::string &key, const std::string &value, const std::string &client, std::int64_t request) {
    Packer p;
    p.str(key).bytes(std::span(reinterpret_cast<const std::uint8_t *>(value.data()), value.size())).str("voters");
    if (!client.empty()) p.str(client).i64(request);
    return p.take();
}

std::int64_t version_in(const Bytes &reply) {
    Unpacker u(reply);
    std::int64_t v = -1;
    REQUIRE(u.i64(v));
    return v;
}

}  // namespace

TEST_CASE("a write whose leader died after applying it, before answering, is applied once") {
    DrdVm vm({"HARNESS_DRD_DIE_AFTER_APPLYING=once/key"});
    for (int i = 0; i < 3; ++i) vm.start_daemon();
    REQUIRE_MESSAGE(vm.wait_formed(3, 0, 20s), vm.daemon(0).stderr_tail());
    auto leader = vm.leader(0);
    REQUIRE(leader);
    const std::size_t follower = (*leader + 1) % 3;  // its writes are forwarded to the leader

    // The follower forwards, the leader applies and dies, the follower asks
    // the next leader with the same request: one write, version 1.
    auto c = vm.client(follower);
    auto put = c.put("once/key", "v1");
    REQUIRE_MESSAGE(put.ok(), (put ? "" : put.error().describe()) << "\n" << vm.daemon(follower).stderr_tail());
    CHECK(*put == 1);
    // The leader did die at that point (else this test tests nothing).
    CHECK(harness::test::wait_until([&] { return !vm.daemon(*leader).running(); }, 10s));
    CHECK(vm.daemon(*leader).stderr_text().find("dies before answering") != std::string::npos);
    auto got = c.get("once/key", true);
    REQUIRE(got.ok());
    CHECK(got->found);
    CHECK(got->value == "v1");
    CHECK_MESSAGE(got->version == 1, "the write was applied " << got->version << " times");
}

TEST_CASE("a client's own request id: asking again answers the first outcome without writing again") {
    DrdVm vm;
    vm.start_daemon();
    REQUIRE(vm.wait_formed(1, 0, 20s));
    auto c = vm.client(0);
    auto first = c.call("put", put_args("mine/key", "a", "test-client", 7));
    REQUIRE(first.ok());
    CHECK(version_in(*first) == 1);
    auto again = c.call("put", put_args("mine/key", "b", "test-client", 7));
    REQUIRE(again.ok());
    CHECK(version_in(*again) == 1);
    auto got = c.get("mine/key", true);
    REQUIRE(got.ok());
    CHECK(got->value == "a");  // the repeated request changed nothing
    CHECK(got->version == 1);
    // A new request id is a new write.
    auto next = c.call("put", put_args("mine/key", "c", "test-client", 8));
    REQUIRE(next.ok());
    CHECK(version_in(*next) == 2);
    // Without a requester, every call is a write of its own.
    auto plain = c.put("mine/key", "d");
    REQUIRE(plain.ok());
    CHECK(*plain == 3);
    // A malformed requester is refused with a clear error, and nothing is written.
    Packer bad;
    bad.str("mine/key").bytes(std::span<const std::uint8_t>()).str("voters").str("");
    auto refused = c.call("put", bad.view());
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().status == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(c.get("mine/key", true)->version == 3);
}
