// The published-plugin directory lives in the DRD: a daemon that joins the
// VM after a publication, and one restarted after it, list it (PUBLISHED)
// though nobody told them; a publication of the same component from a second
// repository is listed too, newest first.
#include "vm_services_fixture.hpp"

#include <harness/common/protocol.hpp>

#include <doctest/doctest.h>

using namespace harness;
using namespace harness::services_test;
using namespace std::chrono_literals;

namespace {

// One PUBLISH request as hpublish sends it: a repository and its components.
Bytes publish_body(const std::string &repo, const std::string &component, const std::string &version) {
    Packer p;
    p.str(repo).boolean(false).u64(1).str("dirtest").str(component).str(version).str(R"({"level":"daemon"})");
    return p.take();
}

hlib::Connection connect_to(const test::Daemon &d, const std::filesystem::path &key_file) {
    auto key = load_key(key_file);
    REQUIRE(key.ok());
    auto c = hlib::Connection::open_tcp(d.tcp(), *key, hlib::deadline_in(5s));
    REQUIRE_MESSAGE(c.ok(), (c ? "" : c.error().describe()));
    return std::move(c).value();
}

// (repository, component, version) of every entry d lists, in its order.
std::vector<std::string> published(const test::Daemon &d, const std::filesystem::path &key_file) {
    auto c = connect_to(d, key_file);
    auto reply = c.request(protocol::Type::published, {}, hlib::deadline_in(5s));
    REQUIRE_MESSAGE(reply.ok(), (reply ? "" : reply.error().describe()));
    Unpacker u(*reply);
    std::uint64_t n = 0;
    REQUIRE(u.u64(n));
    std::vector<std::string> out;
    for (std::uint64_t i = 0; i < n; ++i) {
        std::string url, package, component, version, info;
        REQUIRE((u.str(url) && u.str(package) && u.str(component) && u.str(version) && u.str(info)));
        out.push_back(url + " " + package + "/" + component + " " + version);
    }
    return out;
}

}  // namespace

TEST_CASE("a daemon that joins or restarts after a publication finds it in the DRD") {
    ServiceVm vm(2);
    REQUIRE(vm.wait_for_drd_voters(2, 30s));
    {
        auto c = connect_to(vm[0], vm.key_file());
        auto r = c.request(protocol::Type::publish, publish_body("http://repo-a.example/", "alpha", "1.0.0"),
                           hlib::deadline_in(10s));
        REQUIRE_MESSAGE(r.ok(), (r ? "" : r.error().describe()));
    }
    const std::string first = "http://repo-a.example/ dirtest/alpha 1.0.0";
    CHECK(published(vm[1], vm.key_file()) == std::vector<std::string>{first});  // told directly

    // Joined after the publication: nobody forwarded it there.
    const std::size_t late = vm.add_daemon();
    CHECK_MESSAGE(test::wait_until([&] { return published(vm[late], vm.key_file()).size() == 1; }, 15s),
                  vm[late].stderr_tail());
    CHECK(published(vm[late], vm.key_file()) == std::vector<std::string>{first});

    // A second repository for the same component, published through the
    // late daemon: everyone lists both, the newer first.
    {
        auto c = connect_to(vm[late], vm.key_file());
        auto r = c.request(protocol::Type::publish, publish_body("http://repo-b.example/", "alpha", "1.1.0"),
                           hlib::deadline_in(10s));
        REQUIRE_MESSAGE(r.ok(), (r ? "" : r.error().describe()));
    }
    const std::string second = "http://repo-b.example/ dirtest/alpha 1.1.0";
    for (std::size_t i = 0; i < vm.size(); ++i)
        CHECK(published(vm[i], vm.key_file()) == std::vector<std::string>{second, first});

    // Every daemon restarted on its root: the table in memory is gone, the
    // DRD's records are not.
    vm.restart_all();
    REQUIRE(vm.wait_for_drd_voters(3, 30s));
    for (std::size_t i = 0; i < vm.size(); ++i)
        CHECK_MESSAGE(test::wait_until([&] { return published(vm[i], vm.key_file()).size() == 2; }, 15s),
                      "daemon " << i << " after the restart");
    CHECK(published(vm[0], vm.key_file()) == std::vector<std::string>{second, first});
}
