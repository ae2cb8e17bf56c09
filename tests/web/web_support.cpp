#include "web_support.hpp"

#include <harness/common/pack.hpp>

#include <doctest/doctest.h>

namespace harness::web_test {

std::unique_ptr<test::Daemon> start_daemon(std::vector<std::string> env) {
    test::DaemonOptions o;
    o.services = test::kAllServices + ",vm/web";
    o.extra_args = it::fast_heartbeat_args();
    o.env = std::move(env);
    o.install_examples = false;
    o.ready_timeout = 30s;
    return test::Daemon::start(o);
}

std::string web_url(const test::Daemon &d) {
    auto vm = it::connect(d);
    auto reply =
        vm.local().call({"vm", "web"}, "status", {}, HARNESS_CALL_PACKED, HARNESS_MODE_DEFAULT, hlib::deadline_in(5s));
    REQUIRE_MESSAGE(reply.ok(), "vm/web status: " << reply.error().describe());
    Unpacker u(*reply);
    std::string url;
    REQUIRE(u.str(url));
    return url;
}

std::uint16_t web_port(const test::Daemon &d) {
    const std::string url = web_url(d);
    const auto colon = url.rfind(':');
    REQUIRE_MESSAGE(colon != std::string::npos, "vm/web does not serve: \"" << url << "\"");
    return static_cast<std::uint16_t>(std::stoi(url.substr(colon + 1)));
}

}  // namespace harness::web_test
