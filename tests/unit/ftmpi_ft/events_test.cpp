// The `promote` event a hot standby waits for (ftmpi/src/ft/events.*): what
// ftmpirun packs (pack_promote) decodes to the same fields; a payload that
// does not parse is ignored with a reason to log, never taken for a
// promotion; another standby's promote is not this one's; one addressed here
// that names no replacement of the job is an error.
#include "ft/events.hpp"

#include "job_events.hpp"

#include <harness/common/pack.hpp>

#include <doctest/doctest.h>

using ftmpi::ft::decode_promote;
using ftmpi::ft::match_promote;
using ftmpi::ft::Promotion;
using harness::Packer;

namespace {

std::vector<uint8_t> bytes(Packer &p) {
    return p.take();
}

}  // namespace

TEST_CASE("ftmpirun's pack_promote decodes to its fields") {
    const auto payload = harness::ftmpirun::pack_promote(3, 2, 5, 4);
    CHECK(ftmpi::ft::kind_of(payload) == "promote");
    Promotion p;
    REQUIRE(decode_promote(payload, &p));
    CHECK(p.standby == 3);
    CHECK(p.round == 2);
    CHECK(p.rank == 5);
    CHECK(p.incarnation == 4);

    const auto m = match_promote(payload, 3, 8);
    REQUIRE(m.promotion.has_value());
    CHECK(m.promotion->rank == 5);
    CHECK(m.error.empty());
    CHECK(m.ignored.empty());
}

TEST_CASE("another kind or another standby's promote is nothing to this standby") {
    const auto respawned = harness::ftmpirun::pack_respawned(1, 1, 1, "m1");
    Promotion p;
    CHECK(!decode_promote(respawned, &p));
    const auto other = match_promote(respawned, 0, 4);
    CHECK(!other.promotion);
    CHECK(other.error.empty());
    CHECK(other.ignored.empty());

    const auto for_one = match_promote(harness::ftmpirun::pack_promote(1, 1, 2, 1), 0, 4);
    CHECK(!for_one.promotion);
    CHECK(for_one.error.empty());
    CHECK(for_one.ignored.empty());
}

TEST_CASE("a malformed promote is ignored with a reason to log") {
    std::vector<std::vector<uint8_t>> malformed;
    {
        Packer p;  // fields missing
        p.str("promote").i32(0).i32(1);
        malformed.push_back(bytes(p));
    }
    {
        Packer p;  // a string where the standby's number belongs
        p.str("promote").str("zero").i32(1).i32(1).i32(1);
        malformed.push_back(bytes(p));
    }
    {
        Packer p;  // a negative field
        p.str("promote").i32(0).i32(1).i32(-1).i32(1);
        malformed.push_back(bytes(p));
    }
    {
        Packer p;  // the kind alone
        p.str("promote");
        malformed.push_back(bytes(p));
    }
    for (const auto &payload : malformed) {
        Promotion p;
        CHECK(!decode_promote(payload, &p));
        const auto m = match_promote(payload, 0, 4);
        CHECK(!m.promotion);
        CHECK(m.error.empty());
        CHECK(m.ignored.find("do not parse") != std::string::npos);
    }
    // Not even a kind: not a promote at all.
    const std::vector<uint8_t> garbage{0xff, 0x01};
    const auto m = match_promote(garbage, 0, 4);
    CHECK(!m.promotion);
    CHECK(m.ignored.empty());
}

TEST_CASE("a promote addressed here that names no replacement of the job is an error") {
    for (const auto &payload : {harness::ftmpirun::pack_promote(0, 1, 4, 1),     // rank 4 of a job of 4
                                harness::ftmpirun::pack_promote(0, 1, 1, 0),     // incarnation 0: the original
                                harness::ftmpirun::pack_promote(0, 0, 1, 1)}) {  // round 0: no recovery
        const auto m = match_promote(payload, 0, 4);
        CHECK(!m.promotion);
        CHECK(m.error.find("no replacement in a job of 4 ranks") != std::string::npos);
    }
}
