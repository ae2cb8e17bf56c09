// ftmpirun's host selection and placement (no VM needed): names by id,
// address and host, slot counts, hostfiles, by-slot placement, oversubscribe,
// --map-by node and ppr:N:node, rankfiles and CPU lists, and when a job may
// wire up through a directory on one host.
#include "hosts.hpp"
#include "mapping.hpp"

#include <doctest/doctest.h>

using namespace harness;
using namespace harness::ftmpirun;

namespace {

std::vector<MemberView> three_members() {
    return {{"aaa", {"127.0.0.1", 7001}, true}, {"bbb", {"127.0.0.1", 7002}, true}, {"ccc", {"10.0.0.5", 7001}, true}};
}

}  // namespace

TEST_CASE("hosts by id, address and unique host name, with slots") {
    auto m = three_members();
    auto h = select_hosts(m, parse_host_list("aaa:2,127.0.0.1:7002,10.0.0.5:3"), 8);
    REQUIRE(h.ok());
    REQUIRE(h->size() == 3);
    CHECK((*h)[0].member_id == "aaa");
    CHECK((*h)[0].slots == 2);
    CHECK((*h)[1].member_id == "bbb");
    CHECK((*h)[1].slots == 1);
    CHECK((*h)[2].member_id == "ccc");
    CHECK((*h)[2].slots == 3);
    // Address plus slots; a repeated name adds up.
    auto again = select_hosts(m, parse_host_list("127.0.0.1:7001:4,aaa"), 8);
    REQUIRE(again.ok());
    REQUIRE(again->size() == 1);
    CHECK((*again)[0].slots == 5);
}

TEST_CASE("unknown and ambiguous hosts are refused with the member list") {
    auto m = three_members();
    auto unknown = select_hosts(m, parse_host_list("nosuch"), 8);
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().message.find("aaa (127.0.0.1:7001)") != std::string::npos);
    auto ambiguous = select_hosts(m, parse_host_list("127.0.0.1"), 8);
    REQUIRE_FALSE(ambiguous.ok());
    CHECK(ambiguous.error().message.find("several daemons") != std::string::npos);
    m[2].alive = false;
    CHECK_FALSE(select_hosts(m, parse_host_list("ccc"), 8).ok());
}

TEST_CASE("default hosts: every alive member with the default slots") {
    auto m = three_members();
    m[1].alive = false;
    auto h = select_hosts(m, {}, 4);
    REQUIRE(h.ok());
    REQUIRE(h->size() == 2);
    CHECK((*h)[1].member_id == "ccc");
    CHECK((*h)[1].slots == 4);
}

TEST_CASE("hostfile lines") {
    auto entries = parse_hostfile("# a comment\naaa slots=2\n\n127.0.0.1:7002:3  # trailing\nccc max_slots=9\n");
    REQUIRE(entries.ok());
    auto h = select_hosts(three_members(), *entries, 8);
    REQUIRE(h.ok());
    REQUIRE(h->size() == 3);
    CHECK((*h)[0].slots == 2);
    CHECK((*h)[1].slots == 3);
    CHECK((*h)[2].slots == 1);
    auto bad = parse_hostfile("aaa cpus=4\n");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message.find("line 1") != std::string::npos);
}

TEST_CASE("placement by slot, and oversubscription only when allowed") {
    std::vector<Host> hosts{{"a", {}, 2}, {"b", {}, 1}};
    auto p = place_ranks(hosts, 3, false);
    REQUIRE(p.ok());
    CHECK(*p == std::vector<std::size_t>{0, 0, 1});
    auto too_many = place_ranks(hosts, 5, false);
    REQUIRE_FALSE(too_many.ok());
    CHECK(too_many.error().message.find("not enough slots: 5 ranks for 3 slots") != std::string::npos);
    auto over = place_ranks(hosts, 6, true);
    REQUIRE(over.ok());
    CHECK(*over == std::vector<std::size_t>{0, 0, 1, 0, 1, 0});
    CHECK_FALSE(place_ranks(hosts, 0, true).ok());
}

TEST_CASE("--map-by: the spellings, and anything else refused with the list") {
    CHECK(parse_map_by("slot")->kind == MapBy::Kind::slot);
    CHECK(parse_map_by("node")->kind == MapBy::Kind::node);
    auto ppr = parse_map_by("ppr:3:node");
    REQUIRE(ppr.ok());
    CHECK(ppr->kind == MapBy::Kind::ppr);
    CHECK(ppr->per_node == 3);
    for (const char *bad : {"socket", "ppr:0:node", "ppr:2:socket", "ppr::node", ""}) {
        CAPTURE(bad);
        auto r = parse_map_by(bad);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message.find("(slot, node or ppr:N:node)") != std::string::npos);
    }
}

TEST_CASE("--map-by node goes round robin over hosts with free slots; ppr:N:node puts N on each") {
    std::vector<Host> hosts{{"a", {}, 3}, {"b", {}, 1}, {"c", {}, 2}};
    auto node = place_ranks(hosts, 6, false, MapBy{MapBy::Kind::node, 0});
    REQUIRE(node.ok());
    CHECK(*node == std::vector<std::size_t>{0, 1, 2, 0, 2, 0});
    CHECK_FALSE(place_ranks(hosts, 7, false, MapBy{MapBy::Kind::node, 0}).ok());
    auto over = place_ranks(hosts, 8, true, MapBy{MapBy::Kind::node, 0});
    REQUIRE(over.ok());
    CHECK(*over == std::vector<std::size_t>{0, 1, 2, 0, 2, 0, 0, 1});

    auto ppr = place_ranks(hosts, 5, false, MapBy{MapBy::Kind::ppr, 2});
    REQUIRE(ppr.ok());
    CHECK(*ppr == std::vector<std::size_t>{0, 0, 1, 1, 2});
    auto full = place_ranks(hosts, 7, false, MapBy{MapBy::Kind::ppr, 2});
    REQUIRE_FALSE(full.ok());
    CHECK(full.error().message ==
          "not enough room: 7 ranks for 6 (ppr:2:node on 3 host(s)); allow it with --oversubscribe");
    // slot is the placement it always was.
    CHECK(*place_ranks(hosts, 4, false, MapBy{}) == std::vector<std::size_t>{0, 0, 0, 1});
}

TEST_CASE("rankfiles and CPU lists") {
    auto r = parse_rankfile("# comment\nrank 1=aaa slot=2\n\nrank 0=127.0.0.1:7002 slot=0-1,4  # two\n");
    REQUIRE(r.ok());
    REQUIRE(r->size() == 2);
    CHECK((*r)[0].rank == 1);
    CHECK((*r)[0].host == "aaa");
    CHECK((*r)[0].cpus == std::vector<int>{2});
    CHECK((*r)[1].host == "127.0.0.1:7002");
    CHECK((*r)[1].cpus == std::vector<int>{0, 1, 4});
    CHECK(cpu_list_string((*r)[1].cpus) == "0,1,4");

    auto twice = parse_rankfile("rank 0=a slot=0\nrank 0=b slot=1\n");
    REQUIRE_FALSE(twice.ok());
    CHECK(twice.error().message == "rankfile line 2: rank 0 is placed twice");
    auto no_slot = parse_rankfile("rank 0=a\n");
    REQUIRE_FALSE(no_slot.ok());
    CHECK(no_slot.error().message == "rankfile line 1: slot=CPUS is missing");
    CHECK_FALSE(parse_rankfile("rank x=a slot=0\n").ok());
    CHECK_FALSE(parse_rankfile("rank 0=a slot=1:0\n").ok());  // socket:core is not supported
    CHECK_FALSE(parse_rankfile("").ok());
    CHECK_FALSE(parse_cpu_list("3-1").ok());
}

TEST_CASE("the wire-up directory only for a job whose every process runs on one daemon") {
    // Ranks on one daemon, no process beyond them: replacements stay there.
    CHECK(single_job_daemon({"aaa", "aaa"}, {"aaa", "bbb"}, false) == std::optional<std::string>("aaa"));
    // A hot standby or a policy's replacement may go to bbb, which could
    // neither read aaa's directory nor reach a rank listening on loopback.
    CHECK_FALSE(single_job_daemon({"aaa", "aaa"}, {"aaa", "bbb"}, true).has_value());
    CHECK(single_job_daemon({"aaa"}, {"aaa"}, true) == std::optional<std::string>("aaa"));
    // Ranks on two daemons: the DRD, whatever else.
    CHECK_FALSE(single_job_daemon({"aaa", "bbb"}, {"aaa", "bbb"}, false).has_value());
    CHECK_FALSE(single_job_daemon({}, {"aaa"}, false).has_value());
}
