// The decision table's parser: what it accepts, what a lookup returns, and
// that every kind of bad line is refused with file:line and what is wrong.
#include "select.hpp"
#include "table.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

using namespace ftmpi::coll;

namespace {

std::string parse_error(const std::string &text) {
    Table table;
    std::string error;
    CHECK_FALSE(table.parse(text, "t.txt", &error));
    return error;
}

bool contains(const std::string &haystack, const std::string &needle) {
    return haystack.find(needle) != std::string::npos;
}

}  // namespace

TEST_CASE("rules, ranges and first match") {
    Table table;
    std::string error;
    const char *text = "# comment line\n"
                       "\n"
                       "allreduce  3-   64K-      ring       # trailing comment\n"
                       "allreduce  *    *         recursive_doubling\n"
                       "BCAST      4-8  1M-2M     pipeline   seg=32K\n"
                       "alltoall   2    0-1023    bruck\n";
    REQUIRE_MESSAGE(table.parse(text, "t.txt", &error), error);
    CHECK(table.size() == 4);

    const Rule *r = table.find(Collective::allreduce, 4, 65536);
    REQUIRE(r != nullptr);
    CHECK(std::string(algorithm_name(Collective::allreduce, r->algorithm)) == "ring");
    r = table.find(Collective::allreduce, 4, 65535);
    REQUIRE(r != nullptr);
    CHECK(std::string(algorithm_name(Collective::allreduce, r->algorithm)) == "recursive_doubling");
    r = table.find(Collective::allreduce, 2, 1 << 30);
    REQUIRE(r != nullptr);
    CHECK(std::string(algorithm_name(Collective::allreduce, r->algorithm)) == "recursive_doubling");

    r = table.find(Collective::bcast, 8, 2 << 20);
    REQUIRE(r != nullptr);
    CHECK(r->segment == 32 * 1024);
    CHECK(table.find(Collective::bcast, 9, 2 << 20) == nullptr);
    CHECK(table.find(Collective::bcast, 8, (2 << 20) + 1) == nullptr);

    CHECK(table.find(Collective::alltoall, 2, 1023) != nullptr);
    CHECK(table.find(Collective::alltoall, 3, 0) == nullptr);
    CHECK(table.find(Collective::barrier, 2, 0) == nullptr);
}

TEST_CASE("a bad line names file, line and the valid names") {
    std::string e = parse_error("allreduce * * ring\n\nallreduse * * ring\n");
    CHECK(contains(e, "t.txt:3:"));
    CHECK(contains(e, "allreduse"));
    CHECK(contains(e, "reduce_scatter"));  // the known collectives are listed

    e = parse_error("allreduce * * fastest\n");
    CHECK(contains(e, "t.txt:1:"));
    CHECK(contains(e, "recursive_doubling, ring, reduce_bcast, rabenseifner"));

    CHECK(contains(parse_error("allreduce * *\n"), "field"));
    CHECK(contains(parse_error("allreduce 0- * ring\n"), "rank range"));
    CHECK(contains(parse_error("allreduce 4-2 * ring\n"), "rank range"));
    CHECK(contains(parse_error("allreduce * 10-5 ring\n"), "byte range"));
    CHECK(contains(parse_error("allreduce * 12X ring\n"), "byte range"));
    CHECK(contains(parse_error("allreduce * -5 ring\n"), "byte range"));
    CHECK(contains(parse_error("allreduce * * ring seg=4K\n"), "no segments"));
    CHECK(contains(parse_error("bcast * * pipeline seg=0\n"), "segment size"));
    CHECK(contains(parse_error("bcast * * pipeline seg=4K seg=8K\n"), "twice"));
    CHECK(contains(parse_error("bcast * * pipeline fast\n"), "unexpected 'fast'"));
    CHECK(contains(parse_error("bcast * 99999999999999999999 binomial\n"), "byte range"));
}

TEST_CASE("a failed parse leaves the table as it was") {
    Table table;
    std::string error;
    REQUIRE(table.parse("barrier * * tree\n", "a", &error));
    CHECK_FALSE(table.parse("barrier * * tree\nbarrier * * nope\n", "b", &error));
    CHECK(table.size() == 1);
}

TEST_CASE("sizes") {
    CHECK(parse_size("0") == size_t{0});
    CHECK(parse_size("64K") == size_t{65536});
    CHECK(parse_size("1m") == size_t{1} << 20);
    CHECK(parse_size("2G") == size_t{2} << 30);
    CHECK_FALSE(parse_size(""));
    CHECK_FALSE(parse_size("K"));
    CHECK_FALSE(parse_size("1.5K"));
}

TEST_CASE("names") {
    CHECK(collective_from_name("REDUCE_SCATTER") == Collective::reduce_scatter);
    CHECK_FALSE(collective_from_name("reduce-scatter"));
    CHECK(algorithm_from_name(Collective::alltoall, "Bruck").has_value());
    CHECK_FALSE(algorithm_from_name(Collective::alltoall, "ring"));
    CHECK(segmented(Collective::bcast, *algorithm_from_name(Collective::bcast, "pipeline")));
    CHECK_FALSE(segmented(Collective::bcast, *algorithm_from_name(Collective::bcast, "binomial")));
}

TEST_CASE("the default table parses and covers every collective") {
    std::ifstream in(FTMPI_COLL_DEFAULT_TABLE_PATH);
    REQUIRE(in.good());
    std::ostringstream text;
    text << in.rdbuf();
    Table table;
    std::string error;
    REQUIRE_MESSAGE(table.parse(text.str(), "default_table.txt", &error), error);
    for (int c = 0; c < collective_count; ++c)
        for (int ranks : {1, 2, 3, 8, 100})
            for (size_t bytes : {size_t{0}, size_t{8}, size_t{1} << 20})
                CHECK_MESSAGE(table.find(static_cast<Collective>(c), ranks, bytes) != nullptr,
                              collective_name(static_cast<Collective>(c)), " ranks ", ranks, " bytes ", bytes);
}

// Each collective's enum (select.hpp) and its name list (algorithm_names.cpp)
// must agree value by value: the table and the overrides store the index.
TEST_CASE("the enums follow the name lists") {
    auto name = [](Collective c, auto value) { return std::string(algorithm_name(c, static_cast<uint8_t>(value))); };
    CHECK(name(Collective::barrier, BarrierAlgorithm::dissemination) == "dissemination");
    CHECK(name(Collective::barrier, BarrierAlgorithm::tree) == "tree");
    CHECK(name(Collective::barrier, BarrierAlgorithm::shm) == "shm");
    CHECK(algorithm_count(Collective::barrier) == 3);
    CHECK(name(Collective::bcast, BcastAlgorithm::binomial) == "binomial");
    CHECK(name(Collective::bcast, BcastAlgorithm::pipeline) == "pipeline");
    CHECK(name(Collective::bcast, BcastAlgorithm::shm) == "shm");
    CHECK(algorithm_count(Collective::bcast) == 3);
    CHECK(name(Collective::reduce, ReduceAlgorithm::binomial) == "binomial");
    CHECK(name(Collective::reduce, ReduceAlgorithm::shm) == "shm");
    CHECK(algorithm_count(Collective::reduce) == 2);
    CHECK(name(Collective::allreduce, AllreduceAlgorithm::recursive_doubling) == "recursive_doubling");
    CHECK(name(Collective::allreduce, AllreduceAlgorithm::ring) == "ring");
    CHECK(name(Collective::allreduce, AllreduceAlgorithm::reduce_bcast) == "reduce_bcast");
    CHECK(name(Collective::allreduce, AllreduceAlgorithm::rabenseifner) == "rabenseifner");
    CHECK(name(Collective::allreduce, AllreduceAlgorithm::shm) == "shm");
    CHECK(algorithm_count(Collective::allreduce) == 5);
    CHECK(name(Collective::reduce_scatter, ReduceScatterAlgorithm::ring) == "ring");
    CHECK(name(Collective::reduce_scatter, ReduceScatterAlgorithm::reduce_scatterv) == "reduce_scatterv");
    CHECK(name(Collective::reduce_scatter, ReduceScatterAlgorithm::recursive_halving) == "recursive_halving");
    CHECK(algorithm_count(Collective::reduce_scatter) == 3);
    for (Collective c : {Collective::scan, Collective::exscan}) {
        CHECK(name(c, ScanAlgorithm::linear) == "linear");
        CHECK(name(c, ScanAlgorithm::recursive_doubling) == "recursive_doubling");
        CHECK(algorithm_count(c) == 2);
    }
    for (Collective c : {Collective::gather, Collective::scatter}) {
        CHECK(name(c, RootedAlgorithm::linear) == "linear");
        CHECK(name(c, RootedAlgorithm::binomial) == "binomial");
        CHECK(name(c, RootedAlgorithm::shm) == "shm");
        CHECK(algorithm_count(c) == 3);
    }
    CHECK(name(Collective::allgather, AllgatherAlgorithm::ring) == "ring");
    CHECK(name(Collective::allgather, AllgatherAlgorithm::bruck) == "bruck");
    CHECK(name(Collective::allgather, AllgatherAlgorithm::shm) == "shm");
    CHECK(algorithm_count(Collective::allgather) == 3);
    CHECK(name(Collective::alltoall, AlltoallAlgorithm::linear) == "linear");
    CHECK(name(Collective::alltoall, AlltoallAlgorithm::pairwise) == "pairwise");
    CHECK(name(Collective::alltoall, AlltoallAlgorithm::bruck) == "bruck");
    CHECK(name(Collective::alltoall, AlltoallAlgorithm::shm) == "shm");
    CHECK(algorithm_count(Collective::alltoall) == 4);
}
