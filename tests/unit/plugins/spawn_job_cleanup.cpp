// What the end of a job process removes from /dev/shm (vm/spawn_notify's
// job_cleanup): its own files only. A job's ranks may sit on several
// daemons of one machine that share /dev/shm (network namespaces); a rank
// that dies there must not take the inboxes of ranks still starting
// elsewhere, which left them waiting in MPI_Init.
#include "../../../plugins/spawn_notify/src/job_cleanup.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <unistd.h>

using harness::vm::spawn::rank_files_name;
using harness::vm::spawn::remove_rank_files;
namespace fs = std::filesystem;

namespace {

struct TempDir {
    fs::path path;
    TempDir() {
        char tmpl[] = "/tmp/spawn-cleanup-XXXXXX";
        path = ::mkdtemp(tmpl);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

std::set<std::string> names_in(const fs::path &dir) {
    std::set<std::string> out;
    for (const auto &e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
    return out;
}

}  // namespace

TEST_CASE("a job process's files are named by its job, key, rank and incarnation") {
    CHECK(rank_files_name({"FTMPI_JOB=7", "FTMPI_JOB_KEY=ab12", "FTMPI_RANK=3"}) == "ftmpi.7-ab12.3.0");
    CHECK(rank_files_name({"FTMPI_JOB=7", "FTMPI_RANK=3", "FTMPI_INCARNATION=2"}) == "ftmpi.7.3.2");
    CHECK(rank_files_name({"FTMPI_JOB=a/b c", "FTMPI_RANK=0"}) == "ftmpi.a_b_c.0.0");
    CHECK(rank_files_name({"FTMPI_JOB=7"}).empty());   // no rank: nothing of its own
    CHECK(rank_files_name({"FTMPI_RANK=1"}).empty());  // no job
}

TEST_CASE("removing a rank's files leaves every other rank's and incarnation's") {
    TempDir dir;
    const std::set<std::string> all = {"ftmpi.7-k.0.0",      "ftmpi.7-k.0.0.wake", "ftmpi.7-k.1.0",
                                       "ftmpi.7-k.1.0.wake", "ftmpi.7-k.10.0",     "ftmpi.7-k.0.1",
                                       "ftmpi.7-k.0.10",     "ftmpi.8-k.0.0",      "other"};
    for (const auto &n : all) std::ofstream(dir.path / n) << "x";
    CHECK(remove_rank_files({"ftmpi.7-k.1.0"}, dir.path) == 2);
    CHECK(remove_rank_files({"ftmpi.7-k.0.0", "ftmpi.7-k.3.0"}, dir.path) == 2);  // one pass, several names
    CHECK(names_in(dir.path) ==
          std::set<std::string>{"ftmpi.7-k.10.0", "ftmpi.7-k.0.1", "ftmpi.7-k.0.10", "ftmpi.8-k.0.0", "other"});
    CHECK(remove_rank_files({""}, dir.path) == 0);
    CHECK(remove_rank_files({"ftmpi.7-k.5.0"}, dir.path / "missing") == 0);  // no such directory: nothing, no throw
}

TEST_CASE("the ledger keeps the names a daemon's ranks made until their job ends") {
    using harness::vm::spawn::ledger_add;
    using harness::vm::spawn::ledger_remove;
    using harness::vm::spawn::rank_files_ledger;
    TempDir root;
    fs::create_directories(root.path / "var");
    const fs::path ledger = rank_files_ledger(root.path.string());
    CHECK(ledger == root.path / "var" / "spawn_notify.shm");
    CHECK(rank_files_ledger("").empty());
    ledger_add(ledger, "ftmpi.7.0.0");
    ledger_add(ledger, "ftmpi.7.1.0");
    ledger_add(ledger, "ftmpi.8.0.0");
    ledger_remove(ledger, {"ftmpi.7.0.0", "ftmpi.7.1.0"});
    std::ifstream in(ledger);
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(all == "ftmpi.8.0.0\n");
    ledger_add({}, "ignored");  // no ledger: nothing, no throw
}
