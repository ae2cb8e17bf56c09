// The values read from an environment: defaults, set values, invalid ones
// (listed, and the default used meanwhile) and families.
#include "settings/values.hpp"

#include <doctest/doctest.h>

using namespace ftmpi::settings;

TEST_CASE("an empty environment gives every default") {
    const Values v(Values::Environment{});
    CHECK(v.problems().empty());
    CHECK(v.problems_text().empty());
    CHECK(v.text(Id::log_level) == "warn");
    CHECK(v.number(Id::eager_limit) == 0);
    CHECK(v.number(Id::wireup_timeout) == 60000);
    CHECK(v.number(Id::shm_ring_bytes) == 256 * 1024);
    CHECK(v.text(Id::transports) == "shm,tcp");
    CHECK(v.integer(Id::size) == 1);
    CHECK(!v.is_set(Id::job));
    CHECK(v.text(Id::job).empty());
    CHECK(!v.optional_flag(Id::yield_when_idle).has_value());
}

TEST_CASE("set values are parsed; empty ones are unset") {
    const Values v(Values::Environment{{"FTMPI_EAGER_LIMIT", "64K"},
                                       {"FTMPI_COMM_MODE", "rebuild"},
                                       {"FTMPI_YIELD_WHEN_IDLE", "no"},
                                       {"FTMPI_RANK", "3"},
                                       {"FTMPI_JOB", "17"},
                                       {"FTMPI_TRANSPORTS", ""}});
    CHECK(v.problems().empty());
    CHECK(v.number(Id::eager_limit) == 65536);
    CHECK(v.given(Id::eager_limit) == "64K");
    CHECK(v.text(Id::comm_mode) == "rebuild");
    CHECK(v.optional_flag(Id::yield_when_idle) == false);
    CHECK(v.integer(Id::rank) == 3);
    CHECK(v.text(Id::job) == "17");
    CHECK(!v.is_set(Id::transports));
    CHECK(v.text(Id::transports) == "shm,tcp");
}

TEST_CASE("an invalid value is listed with the variable, the value and what is allowed; the default is used") {
    const Values v(Values::Environment{{"FTMPI_EAGER_LIMIT", "abc"}, {"FTMPI_JOIN_STATE_MS", "abc"}});
    REQUIRE(v.problems().size() == 2);
    CHECK(v.problems()[0] ==
          "FTMPI_EAGER_LIMIT=abc: not a number (expected a size in bytes from 0 to 1024G, "
          "with an optional K, M or G suffix)");
    CHECK(v.problems()[1].starts_with("FTMPI_JOIN_STATE_MS=abc: not a number (expected a whole number of ms"));
    CHECK(v.problems_text().find("; FTMPI_JOIN_STATE_MS=abc") != std::string::npos);
    CHECK(v.is_set(Id::eager_limit));
    CHECK(!v.valid(Id::eager_limit));
    CHECK(v.number(Id::eager_limit) == 0);
    CHECK(v.number(Id::join_state) == 60000);
}

TEST_CASE("families list the prefixed variables that are not entries") {
    const Values v(Values::Environment{{"FTMPI_COLL_ALLREDUCE", "ring"},
                                       {"FTMPI_COLL_STRICT", "1"},
                                       {"FTMPI_COLL_TABLE", "/x"},
                                       {"FTMPI_COLL_BCAST", "binomial"},
                                       {"FTMPI_COLLX", "y"}});
    const auto coll = v.family("FTMPI_COLL_");
    REQUIRE(coll.size() == 2);
    CHECK(coll[0] == std::pair<std::string, std::string>{"FTMPI_COLL_ALLREDUCE", "ring"});
    CHECK(coll[1] == std::pair<std::string, std::string>{"FTMPI_COLL_BCAST", "binomial"});
    CHECK(v.flag(Id::coll_strict));
}

TEST_CASE("the process environment: only FTMPI_ variables") {
    setenv("FTMPI_SETTINGS_TEST_VARIABLE", "x", 1);
    setenv("NOT_FTMPI_VARIABLE", "y", 1);
    const auto env = Values::environment();
    CHECK(env.at("FTMPI_SETTINGS_TEST_VARIABLE") == "x");
    CHECK(env.count("NOT_FTMPI_VARIABLE") == 0);
    unsetenv("FTMPI_SETTINGS_TEST_VARIABLE");
    unsetenv("NOT_FTMPI_VARIABLE");
}

TEST_CASE("the process's values: read at the first use, then again once for MPI_Init") {
    setenv("FTMPI_SPIN_US", "7", 1);
    const Values &before = current();
    CHECK(before.number(Id::spin) == 7);
    setenv("FTMPI_SPIN_US", "9", 1);  // as a program might in main, before MPI_Init
    CHECK(current().number(Id::spin) == 7);
    const Values &at_init = read_at_init();
    CHECK(at_init.number(Id::spin) == 9);
    CHECK(&current() == &at_init);
    CHECK(before.number(Id::spin) == 7);  // an earlier reference stays good
    unsetenv("FTMPI_SPIN_US");
}

TEST_CASE("FTMPI_STANDBY: unset for a rank, a standby's number 0 or more; FTMPI_STANDBY_MS a duration, 0 by default") {
    const Values rank(Values::Environment{});
    CHECK(!rank.is_set(Id::standby));
    CHECK(rank.number(Id::standby_wait) == 0);

    const Values standby(Values::Environment{{"FTMPI_STANDBY", "2"}, {"FTMPI_STANDBY_MS", "1500ms"}});
    CHECK(standby.problems().empty());
    CHECK(standby.is_set(Id::standby));
    CHECK(standby.integer(Id::standby) == 2);
    CHECK(standby.number(Id::standby_wait) == 1500);

    const Values bad(Values::Environment{{"FTMPI_STANDBY", "-1"}, {"FTMPI_STANDBY_MS", "soon"}});
    REQUIRE(bad.problems().size() == 2);
    CHECK(bad.problems()[0] == "FTMPI_STANDBY=-1: out of range (expected an integer from 0 to 2147483647)");
    CHECK(bad.problems()[1].starts_with("FTMPI_STANDBY_MS=soon: not a number (expected a whole number of ms"));
    const Values word(Values::Environment{{"FTMPI_STANDBY", "first"}});
    REQUIRE(word.problems().size() == 1);
    CHECK(word.problems()[0].starts_with("FTMPI_STANDBY=first: not a number"));
}
