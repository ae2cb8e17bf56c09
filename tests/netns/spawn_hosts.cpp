// MPI_Comm_spawn across three "hosts" (network namespaces, one daemon each
// with every VM service): a job of two ranks on hosts 0 and 1 spawns a child
// on host 2 and one on host 1 (info "host"); the children wire up through
// the DRD and the network like any multi-host rank, the four processes
// exchange data and reduce over the merged communicator, and ftmpirun exits
// 0. The program is spawn_across.c. Needs root: otherwise SKIPPED, 77.
#include "host_vm.hpp"

#include <doctest/doctest.h>

using namespace harness;
using namespace harness::it;

TEST_CASE("processes spawned onto other hosts join the job and talk to it") {
    netns::Network net(3);
    test::TempDir work("hspawnnetns");
    auto key = test::write_vm_key(work.path() / "vm.key");
    auto d = netns::start_vm(net, "spawnnetns", key);

    std::string hosts = net.address(0) + ":7001:1," + net.address(1) + ":7001:1," + net.address(2) + ":7001:1";
    std::string ip = std::filesystem::exists("/usr/sbin/ip") ? "/usr/sbin/ip" : "/sbin/ip";
    std::vector<std::string> argv{
        ip,      "netns",           "exec",         net.ns(0),     FTMPIRUN_PATH, "--hcore", net.address(0) + ":7001",
        "--key", key.string(),      "--host",       hosts,         "--timeout",   "60",      "-np",
        "2",     SPAWN_ACROSS_PATH, net.address(2), net.address(1)};
    auto r = run_program(argv, 90s);
    INFO("ftmpirun stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE_FALSE(r.timed_out);
    CHECK(r.exit_code() == 0);
    CHECK(r.out.find("spawn across hosts: ok") != std::string::npos);
    CHECK(r.err.find("FAILED") == std::string::npos);
}

int main(int argc, char **argv) {
    return netns::run_tests(argc, argv);
}
