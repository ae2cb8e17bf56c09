// ftmpirun with a real MPI program (libftmpi): ranks wire up through the
// dir: rendezvous and compute together; MPI_Abort in one rank ends the job
// with its code and kills the others (which were blocked in a Barrier).
#include "spawn_support.hpp"

#include <doctest/doctest.h>

using namespace harness;
using namespace harness::spawn_test;

namespace {

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

it::RunResult ftmpirun(const test::Daemon &d, std::vector<std::string> args) {
    std::vector<std::string> argv{FTMPIRUN_PATH,         "--hcore",        d.tcp().to_string(), "--key",
                                  d.key_file().string(), "--oversubscribe"};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = it::run_program(argv, 60s);
    REQUIRE_FALSE(r.timed_out);
    return r;
}

}  // namespace

TEST_CASE("an MPI job of 4 ranks runs through ftmpirun") {
    auto d = start_daemon();
    auto r = ftmpirun(*d, {"-np", "4", MPI_HELLO_PATH});
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    CHECK(r.exit_code() == 0);
    for (int i = 0; i < 4; ++i) CHECK(contains(r.out, "hello from rank " + std::to_string(i) + " of 4, sum 6\n"));
}

TEST_CASE("MPI_Abort in one rank ends the job with its code") {
    auto d = start_daemon();
    auto r = ftmpirun(*d, {"-np", "3", MPI_HELLO_PATH, "abort"});
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    CHECK(r.exit_code() == 7);
    CHECK(contains(r.err, "rank 1 called MPI_Abort with code 7"));
    CHECK(zombie_children(d->pid()).empty());
}
